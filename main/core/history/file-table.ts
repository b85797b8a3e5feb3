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

/** A file of the table: its objects, or its position in the columns read (see `FileTable.ref`). */
export type FileRef = IndexedFile | number;
/** A file by name, or by what `ref` gave. */
type FileKey = string | FileRef;

export class FileTable {
  /** name → the file's objects, or its position in the columns read (objects not built yet). */
  private readonly map = new Map<string, FileRef>();
  /** The objects built from the columns, by position (the same ones the map then holds). */
  private readonly builtAt: Array<IndexedFile | undefined> = [];

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
    const f = this.fileOf(v);
    this.map.set(name, f);
    return f;
  }

  /**
   * A file as the table holds it now: its objects, or its position in the columns. Rows keep it, so
   * that a row read while a catch-up changes the table (between its awaits) still reads the file it
   * was built from, as when rows held the objects themselves.
   */
  ref(name: string): FileRef {
    return this.map.get(name)!;
  }

  /** The objects of a file by its ref (built now from the columns if they were not; once per position). */
  fileOf(ref: FileRef): IndexedFile {
    if (typeof ref !== 'number') return ref;
    return (this.builtAt[ref] ??= this.reader!.fileAt(ref));
  }

  private slot(key: FileKey): FileRef {
    return typeof key === 'string' ? this.map.get(key)! : key;
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
  imported(key: FileKey): boolean {
    const v = this.slot(key);
    return typeof v === 'number' ? this.reader!.imported(v) : v.imported;
  }

  /** A file's connection id, without building it. */
  connectionId(key: FileKey): string {
    const v = this.slot(key);
    return typeof v === 'number' ? this.reader!.connectionId(v) : v.card.connectionId;
  }

  /** When a file's connection started (its card's `startedAtMs`), without building it. */
  startedAtMs(key: FileKey): number {
    const v = this.slot(key);
    return typeof v === 'number' ? this.reader!.startedAtMs(v) : v.card.startedAtMs;
  }

  /**
   * A file's sessions as its card lists them, without building it: `visit` gets each one's id, times
   * (relative to `startedAtMs`) and position in `card.sessions`.
   */
  sessions(key: FileKey, visit: (id: string, firstT: number, lastT: number, k: number) => void): void {
    const v = this.slot(key);
    if (typeof v !== 'number') {
      v.card.sessions.forEach((s, k) => visit(s.id, s.firstT, s.lastT, k));
      return;
    }
    const r = this.reader!;
    const first = r.first(v);
    for (let j = 0, n = r.sessionCount(v); j < n; j++) visit(r.sessionId(first + j), r.firstT(first + j), r.lastT(first + j), j);
  }

  /** What lists, filters and search read of a file's card, without building it. */
  agent(key: FileKey): FileCard['agent'] {
    const v = this.slot(key);
    return typeof v === 'number' ? this.reader!.agent(v) : v.card.agent;
  }

  launchCwd(key: FileKey): string | undefined {
    const v = this.slot(key);
    return typeof v === 'number' ? this.reader!.launchCwd(v) : v.card.launchCwd;
  }

  ended(key: FileKey): FileCard['ended'] {
    const v = this.slot(key);
    return typeof v === 'number' ? this.reader!.ended(v) : v.card.ended;
  }

  pid(key: FileKey): number | undefined {
    const v = this.slot(key);
    return typeof v === 'number' ? this.reader!.pid(v) : v.card.pid;
  }

  /** A field of the card of the file's session `k` (its place in `card.sessions`), without building the file. */
  session<K extends 'cwd' | 'opened' | 'turns' | 'files' | 'meta'>(key: FileKey, k: number, field: K): SessionCard[K] {
    const v = this.slot(key);
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
