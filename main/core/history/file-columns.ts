/**
 * The snapshot's table of trace files as columns (index version 4): one array per field of
 * `IndexedFile` and of its card, one array per field of the cards' sessions (the files' sessions one
 * after another, `sessions` saying how many each file has), and the strings that repeat — agents,
 * folders, how a session was opened — once, referred to by position. In index.json this is a few
 * arrays of numbers and strings instead of an object per file, per card, per agent and per session
 * card: a third of the bytes, and `JSON.parse` builds 30-odd arrays instead of ≈ 60,000 objects with
 * their keys for 10,000 sessions. `ColumnReader` answers what a warm start needs (names, settled,
 * the sessions' ids and times) from the columns and builds a file's objects only when asked for
 * (`fileAt`), equal (same fields present, same values) to the ones written; `ColumnWriter` writes
 * objects, or copies a file from columns read before without building its objects.
 */
import type { FileCard, SessionCard } from './cards';
import type { IndexedFile } from './indexed-file';

export interface FileColumns {
  names: string[];
  size: number[];
  mtimeMs: number[];
  ino: number[];
  position: number[];
  lines: number[];
  /** TORN | SETTLED | IMPORTED. */
  flags: number[];
  corruptLines: number[];
  /** Two numbers per file: offset and length in the side file. */
  detailAt: number[];
  /** The card's connection id; 0: the file's name without its extension (what it nearly always is). */
  connectionId: Array<string | 0>;
  startedAtMs: number[];
  /** Index into `agents`. */
  agent: number[];
  agents: Array<FileCard['agent']>;
  /** Index into `strings`; -1: absent. */
  launchCwd: number[];
  /** 0: absent, else ENDED[n]. */
  ended: number[];
  /** null: absent. */
  pid: Array<number | null>;
  /** How many sessions each file's card has (their columns follow in file order). */
  sessions: number[];
  sessionId: string[];
  firstT: number[];
  lastT: number[];
  turns: number[];
  files: number[];
  /** null: absent. */
  agentSessionId: Array<string | null>;
  /** Index into `strings`; -1: absent. */
  opened: number[];
  /** Index into `strings`; -1: absent. */
  cwd: number[];
  /** 1: the card's `meta` is set. */
  meta: number[];
  strings: string[];
}

const TORN = 1;
const SETTLED = 2;
const IMPORTED = 4;
const ENDED = [undefined, 'normally', 'crashed', 'not-started'] as const;

export const connectionOf = (name: string): string => name.replace(/\..*$/, '');

const PER_FILE = ['size', 'mtimeMs', 'ino', 'position', 'lines', 'flags', 'corruptLines', 'connectionId', 'startedAtMs', 'agent', 'launchCwd', 'ended', 'pid', 'sessions'] as const;
const PER_SESSION = ['firstT', 'lastT', 'turns', 'files', 'agentSessionId', 'opened', 'cwd', 'meta'] as const;

/** Builds the columns file by file. */
export class ColumnWriter {
  private readonly c: FileColumns = {
    names: [], size: [], mtimeMs: [], ino: [], position: [], lines: [], flags: [], corruptLines: [], detailAt: [],
    connectionId: [], startedAtMs: [], agent: [], agents: [], launchCwd: [], ended: [], pid: [], sessions: [],
    sessionId: [], firstT: [], lastT: [], turns: [], files: [], agentSessionId: [], opened: [], cwd: [], meta: [],
    strings: [],
  };
  private readonly strings = new Map<string, number>();
  private readonly agents = new Map<string, number>();
  /** Per reader copied from: its string and agent positions → ours. */
  private readonly copied = new Map<ColumnReader, { strings: Int32Array; agents: Int32Array }>();

  private stringAt(s: string | undefined): number {
    if (s === undefined) return -1;
    let i = this.strings.get(s);
    if (i === undefined) this.strings.set(s, (i = this.c.strings.push(s) - 1));
    return i;
  }

  private agentAt(agent: FileCard['agent']): number {
    // Key order is part of the agent (it is shown as JSON): the same keys in another order are another agent.
    const key = JSON.stringify(agent);
    let a = this.agents.get(key);
    if (a === undefined) this.agents.set(key, (a = this.c.agents.push(agent) - 1));
    return a;
  }

  add(name: string, f: IndexedFile): void {
    const c = this.c;
    if (!f.detailAt) throw new Error(`${name}: its detail is not in the side file yet`);
    c.names.push(name);
    c.size.push(f.size);
    c.mtimeMs.push(f.mtimeMs);
    c.ino.push(f.ino);
    c.position.push(f.position);
    c.lines.push(f.lines);
    c.flags.push((f.torn ? TORN : 0) | (f.settled ? SETTLED : 0) | (f.imported ? IMPORTED : 0));
    c.corruptLines.push(f.corruptLines);
    c.detailAt.push(f.detailAt[0], f.detailAt[1]);
    const card = f.card;
    c.connectionId.push(card.connectionId === connectionOf(name) ? 0 : card.connectionId);
    c.startedAtMs.push(card.startedAtMs);
    c.agent.push(this.agentAt(card.agent));
    c.launchCwd.push(this.stringAt(card.launchCwd));
    c.ended.push(card.ended === undefined ? 0 : ENDED.indexOf(card.ended));
    c.pid.push(card.pid ?? null);
    c.sessions.push(card.sessions.length);
    for (const s of card.sessions) {
      c.sessionId.push(s.id);
      c.firstT.push(s.firstT);
      c.lastT.push(s.lastT);
      c.turns.push(s.turns);
      c.files.push(s.files);
      c.agentSessionId.push(s.agentSessionId ?? null);
      c.opened.push(this.stringAt(s.opened));
      c.cwd.push(this.stringAt(s.cwd));
      c.meta.push(s.meta ? 1 : 0);
    }
  }

  /** File `i` of `from` as it was read (its objects never built). */
  copy(from: ColumnReader, i: number): void {
    const c = this.c;
    const s = from.columns;
    let map = this.copied.get(from);
    if (!map) this.copied.set(from, (map = { strings: new Int32Array(s.strings.length).fill(-2), agents: new Int32Array(s.agents.length).fill(-2) }));
    const str = (j: number) => {
      if (j === -1) return -1;
      if (map.strings[j] === -2) map.strings[j] = this.stringAt(s.strings[j]!);
      return map.strings[j]!;
    };
    c.names.push(s.names[i]!);
    c.size.push(s.size[i]!);
    c.mtimeMs.push(s.mtimeMs[i]!);
    c.ino.push(s.ino[i]!);
    c.position.push(s.position[i]!);
    c.lines.push(s.lines[i]!);
    c.flags.push(s.flags[i]!);
    c.corruptLines.push(s.corruptLines[i]!);
    c.detailAt.push(s.detailAt[2 * i]!, s.detailAt[2 * i + 1]!);
    c.connectionId.push(s.connectionId[i]!);
    c.startedAtMs.push(s.startedAtMs[i]!);
    const a = s.agent[i]!;
    if (map.agents[a] === -2) map.agents[a] = this.agentAt(s.agents[a]!);
    c.agent.push(map.agents[a]!);
    c.launchCwd.push(str(s.launchCwd[i]!));
    c.ended.push(s.ended[i]!);
    c.pid.push(s.pid[i]!);
    const count = s.sessions[i]!;
    c.sessions.push(count);
    for (let k = from.first(i), end = k + count; k < end; k++) {
      c.sessionId.push(s.sessionId[k]!);
      c.firstT.push(s.firstT[k]!);
      c.lastT.push(s.lastT[k]!);
      c.turns.push(s.turns[k]!);
      c.files.push(s.files[k]!);
      c.agentSessionId.push(s.agentSessionId[k]!);
      c.opened.push(str(s.opened[k]!));
      c.cwd.push(str(s.cwd[k]!));
      c.meta.push(s.meta[k]!);
    }
  }

  done(): FileColumns {
    return this.c;
  }
}

/** Columns as read from index.json, checked; a file's objects are built on demand. */
export class ColumnReader {
  /** Where each file's sessions start in the session columns. */
  private readonly starts: Int32Array;

  /** Throws when the columns do not fit together (a damaged index). */
  constructor(readonly columns: FileColumns) {
    const c = columns;
    if (!c || typeof c !== 'object' || !Array.isArray(c.names) || !Array.isArray(c.sessionId) || !Array.isArray(c.agents) || !Array.isArray(c.strings)) throw new Error('file columns missing');
    const n = c.names.length;
    for (const k of PER_FILE) if (!Array.isArray(c[k]) || c[k].length !== n) throw new Error(`file column ${k} does not fit`);
    if (!Array.isArray(c.detailAt) || c.detailAt.length !== 2 * n) throw new Error('file column detailAt does not fit');
    const m = c.sessionId.length;
    for (const k of PER_SESSION) if (!Array.isArray(c[k]) || c[k].length !== m) throw new Error(`session column ${k} does not fit`);
    this.starts = new Int32Array(n + 1);
    let k = 0;
    for (let i = 0; i < n; i++) {
      this.starts[i] = k;
      const count = c.sessions[i]!;
      if (!(count >= 0) || k + count > m) throw new Error('session columns cut short');
      k += count;
    }
    if (k !== m) throw new Error('session columns too long');
    this.starts[n] = k;
  }

  get length(): number {
    return this.columns.names.length;
  }

  name(i: number): string {
    return this.columns.names[i]!;
  }

  settled(i: number): boolean {
    return (this.columns.flags[i]! & SETTLED) !== 0;
  }

  imported(i: number): boolean {
    return (this.columns.flags[i]! & IMPORTED) !== 0;
  }

  startedAtMs(i: number): number {
    return this.columns.startedAtMs[i]!;
  }

  connectionId(i: number): string {
    const id = this.columns.connectionId[i]!;
    return id === 0 ? connectionOf(this.columns.names[i]!) : id;
  }

  /** The card's agent: one object for every file with an equal agent (read it, do not change it). */
  agent(i: number): FileCard['agent'] {
    const agent = this.columns.agents[this.columns.agent[i]!];
    if (!agent) throw new Error(`no agent ${this.columns.agent[i]}`);
    return agent;
  }

  launchCwd(i: number): string | undefined {
    return this.optionalString(this.columns.launchCwd[i]!);
  }

  ended(i: number): FileCard['ended'] {
    const e = this.columns.ended[i]!;
    if (e === 0) return undefined;
    const ended = ENDED[e];
    if (!ended) throw new Error(`no ending ${e}`);
    return ended;
  }

  pid(i: number): number | undefined {
    return this.columns.pid[i] ?? undefined;
  }

  /** Session `k`'s card fields (k: its place in the session columns). */
  cwd(k: number): string | undefined {
    return this.optionalString(this.columns.cwd[k]!);
  }

  opened(k: number): SessionCard['opened'] {
    return this.optionalString(this.columns.opened[k]!) as SessionCard['opened'];
  }

  turns(k: number): number {
    return this.columns.turns[k]!;
  }

  filesChanged(k: number): number {
    return this.columns.files[k]!;
  }

  meta(k: number): boolean {
    return this.columns.meta[k] === 1;
  }

  private optionalString(j: number): string | undefined {
    if (j === -1) return undefined;
    const s = this.columns.strings[j];
    if (typeof s !== 'string') throw new Error(`no string ${j}`);
    return s;
  }

  /** The byte length of the file's detail in the side file. */
  detailBytes(i: number): number {
    return this.columns.detailAt[2 * i + 1]!;
  }

  /** The first of the file's sessions in the session columns, and how many it has. */
  first(i: number): number {
    return this.starts[i]!;
  }

  sessionCount(i: number): number {
    return this.starts[i + 1]! - this.starts[i]!;
  }

  sessionId(k: number): string {
    return this.columns.sessionId[k]!;
  }

  firstT(k: number): number {
    return this.columns.firstT[k]!;
  }

  lastT(k: number): number {
    return this.columns.lastT[k]!;
  }

  /** File `i`'s objects (new ones on every call); throws on a damaged reference. */
  fileAt(i: number): IndexedFile {
    const c = this.columns;
    const name = c.names[i]!;
    const stringAt = (j: number) => {
      const s = c.strings[j];
      if (typeof s !== 'string') throw new Error(`no string ${j}`);
      return s;
    };
    const sessions: SessionCard[] = [];
    for (let k = this.starts[i]!, end = this.starts[i + 1]!; k < end; k++) {
      const s: SessionCard = { id: c.sessionId[k]!, firstT: c.firstT[k]!, lastT: c.lastT[k]!, turns: c.turns[k]!, files: c.files[k]! };
      const agentSessionId = c.agentSessionId[k];
      if (agentSessionId !== null && agentSessionId !== undefined) s.agentSessionId = agentSessionId;
      if (c.opened[k] !== -1) s.opened = stringAt(c.opened[k]!) as SessionCard['opened'];
      if (c.cwd[k] !== -1) s.cwd = stringAt(c.cwd[k]!);
      if (c.meta[k] === 1) s.meta = true;
      sessions.push(s);
    }
    const agent = c.agents[c.agent[i]!];
    if (!agent) throw new Error(`no agent ${c.agent[i]}`);
    const connectionId = c.connectionId[i]!;
    // Each file its own agent object, as when each card was parsed on its own.
    const card: FileCard = { connectionId: connectionId === 0 ? connectionOf(name) : connectionId, startedAtMs: c.startedAtMs[i]!, agent: { ...agent }, sessions };
    if (c.launchCwd[i] !== -1) card.launchCwd = stringAt(c.launchCwd[i]!);
    if (c.ended[i] !== 0) {
      const ended = ENDED[c.ended[i]!];
      if (!ended) throw new Error(`no ending ${c.ended[i]}`);
      card.ended = ended;
    }
    const pid = c.pid[i];
    if (pid !== null && pid !== undefined) card.pid = pid;
    const flags = c.flags[i]!;
    return {
      size: c.size[i]!,
      mtimeMs: c.mtimeMs[i]!,
      ino: c.ino[i]!,
      position: c.position[i]!,
      lines: c.lines[i]!,
      torn: (flags & TORN) !== 0,
      settled: (flags & SETTLED) !== 0,
      imported: (flags & IMPORTED) !== 0,
      corruptLines: c.corruptLines[i]!,
      card,
      detailAt: [c.detailAt[2 * i]!, c.detailAt[2 * i + 1]!],
    };
  }
}

/** The columns of these files (tests, and what `ColumnWriter.add` does for each). */
export function encodeFiles(files: Readonly<Record<string, IndexedFile>>): FileColumns {
  const w = new ColumnWriter();
  for (const name of Object.keys(files)) w.add(name, files[name]!);
  return w.done();
}

/** Every file's objects (tests). */
export function decodeFiles(columns: FileColumns): Record<string, IndexedFile> {
  const r = new ColumnReader(columns);
  const files: Record<string, IndexedFile> = {};
  for (let i = 0; i < r.length; i++) files[r.name(i)] = r.fileAt(i);
  return files;
}
