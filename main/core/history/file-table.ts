/**
 * The index's table of trace files, by name, in the order they were added (as the keys of the object
 * it replaces). A table read from index.json (version 4: file-columns.ts) keeps the columns and builds
 * a file's objects (`IndexedFile`, its card) the first time someone asks for that file: a warm start
 * needs only the names, which files are settled and the sessions' ids and times (`sessions`), so it
 * builds none. Files added or changed since are held as objects; writing copies the others from the
 * columns as they are.
 */
import { ColumnReader, ColumnWriter, type FileColumns } from './file-columns';
import type { FileCard, SessionCard } from './cards';
import type { IndexedFile } from './indexed-file';

export class FileTable {
  /** name → the file's objects, or its position in the columns read (objects not built yet). */
  private readonly map = new Map<string, IndexedFile | number>();

  private constructor(private readonly reader: ColumnReader | undefined) {}

  static empty(): FileTable {
    return new FileTable(undefined);
  }

  /** Throws when the columns do not fit together (a damaged index). */
  static fromColumns(columns: FileColumns): FileTable {
    return FileTable.fromReader(new ColumnReader(columns));
  }

  static fromReader(reader: ColumnReader): FileTable {
    const table = new FileTable(reader);
    for (let i = 0; i < reader.length; i++) table.map.set(reader.name(i), i);
    return table;
  }

  static fromObjects(files: Readonly<Record<string, IndexedFile>>): FileTable {
    const table = new FileTable(undefined);
    for (const name of Object.keys(files)) table.map.set(name, files[name]!);
    return table;
  }

  get size(): number {
    return this.map.size;
  }

  has(name: string): boolean {
    return this.map.has(name);
  }

  /** The file's objects (built now if they were not). */
  get(name: string): IndexedFile | undefined {
    const v = this.map.get(name);
    if (typeof v !== 'number') return v;
    const f = this.reader!.fileAt(v);
    this.map.set(name, f);
    return f;
  }

  set(name: string, f: IndexedFile): void {
    this.map.set(name, f);
  }

  delete(name: string): void {
    this.map.delete(name);
  }

  names(): string[] {
    return [...this.map.keys()];
  }

  /** Every file's objects, in order (builds them all). */
  values(): IndexedFile[] {
    return this.names().map((name) => this.get(name)!);
  }

  /** Whether a file is settled, without building it (undefined: not in the table). */
  settled(name: string): boolean | undefined {
    const v = this.map.get(name);
    return typeof v === 'number' ? this.reader!.settled(v) : v?.settled;
  }

  /** Whether a file was imported, without building it. */
  imported(name: string): boolean {
    const v = this.map.get(name);
    return typeof v === 'number' ? this.reader!.imported(v) : v!.imported;
  }

  /** A file's connection id, without building it. */
  connectionId(name: string): string {
    const v = this.map.get(name)!;
    return typeof v === 'number' ? this.reader!.connectionId(v) : v.card.connectionId;
  }

  /** When a file's connection started (its card's `startedAtMs`), without building it. */
  startedAtMs(name: string): number {
    const v = this.map.get(name)!;
    return typeof v === 'number' ? this.reader!.startedAtMs(v) : v.card.startedAtMs;
  }

  /**
   * A file's sessions as its card lists them, without building it: `visit` gets each one's id, times
   * (relative to `startedAtMs`) and position in `card.sessions`.
   */
  sessions(name: string, visit: (id: string, firstT: number, lastT: number, k: number) => void): void {
    const v = this.map.get(name)!;
    if (typeof v !== 'number') {
      v.card.sessions.forEach((s, k) => visit(s.id, s.firstT, s.lastT, k));
      return;
    }
    const r = this.reader!;
    const first = r.first(v);
    for (let j = 0, n = r.sessionCount(v); j < n; j++) visit(r.sessionId(first + j), r.firstT(first + j), r.lastT(first + j), j);
  }

  /** What lists, filters and search read of a file's card, without building it. */
  agent(name: string): FileCard['agent'] {
    const v = this.map.get(name)!;
    return typeof v === 'number' ? this.reader!.agent(v) : v.card.agent;
  }

  launchCwd(name: string): string | undefined {
    const v = this.map.get(name)!;
    return typeof v === 'number' ? this.reader!.launchCwd(v) : v.card.launchCwd;
  }

  ended(name: string): FileCard['ended'] {
    const v = this.map.get(name)!;
    return typeof v === 'number' ? this.reader!.ended(v) : v.card.ended;
  }

  pid(name: string): number | undefined {
    const v = this.map.get(name)!;
    return typeof v === 'number' ? this.reader!.pid(v) : v.card.pid;
  }

  /** A field of the card of the file's session `k` (its place in `card.sessions`), without building the file. */
  session<K extends 'cwd' | 'opened' | 'turns' | 'files' | 'meta'>(name: string, k: number, field: K): SessionCard[K] {
    const v = this.map.get(name)!;
    if (typeof v !== 'number') return v.card.sessions[k]![field];
    const r = this.reader!;
    const at = r.first(v) + k;
    switch (field) {
      case 'cwd':
        return r.cwd(at) as SessionCard[K];
      case 'opened':
        return r.opened(at) as SessionCard[K];
      case 'turns':
        return r.turns(at) as SessionCard[K];
      case 'files':
        return r.filesChanged(at) as SessionCard[K];
      default:
        return (r.meta(at) ? true : undefined) as SessionCard[K];
    }
  }

  /** The built files, in order (those never asked for are as they were read). */
  built(): IndexedFile[] {
    const out: IndexedFile[] = [];
    for (const v of this.map.values()) if (typeof v !== 'number') out.push(v);
    return out;
  }

  /** Bytes the files never built take in the side file, each with its newline. */
  unbuiltDetailBytes(): number {
    let n = 0;
    for (const v of this.map.values()) if (typeof v === 'number') n += this.reader!.detailBytes(v) + 1;
    return n;
  }

  /** The table as index.json's columns; files never built are copied from the columns read. */
  toColumns(): FileColumns {
    const w = new ColumnWriter();
    for (const [name, v] of this.map) {
      if (typeof v === 'number') w.copy(this.reader!, v);
      else w.add(name, v);
    }
    return w.done();
  }
}
