/**
 * The snapshot's table of trace files as columns (index version 4): one array per field of
 * `IndexedFile` and of its card, one array per field of the cards' sessions (the files' sessions one
 * after another, `sessions` saying how many each file has), and the strings that repeat — agents,
 * folders, how a session was opened — once, referred to by position. In index.json this is a few
 * arrays of numbers and strings instead of an object per file, per card, per agent and per session
 * card: a third of the bytes, and `JSON.parse` builds 30-odd arrays instead of ≈ 60,000 objects with
 * their keys for 10,000 sessions. `decodeFiles` gives back the objects the index works with, equal
 * (same fields present, same values) to the ones encoded.
 */
import type { FileCard, SessionCard } from './cards';
import type { IndexedFile } from './history-index';

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

const connectionOf = (name: string) => name.replace(/\..*$/, '');

export function encodeFiles(files: Readonly<Record<string, IndexedFile>>): FileColumns {
  const c: FileColumns = {
    names: [], size: [], mtimeMs: [], ino: [], position: [], lines: [], flags: [], corruptLines: [], detailAt: [],
    connectionId: [], startedAtMs: [], agent: [], agents: [], launchCwd: [], ended: [], pid: [], sessions: [],
    sessionId: [], firstT: [], lastT: [], turns: [], files: [], agentSessionId: [], opened: [], cwd: [], meta: [],
    strings: [],
  };
  const strings = new Map<string, number>();
  const stringAt = (s: string | undefined) => {
    if (s === undefined) return -1;
    let i = strings.get(s);
    if (i === undefined) strings.set(s, (i = c.strings.push(s) - 1));
    return i;
  };
  const agents = new Map<string, number>();
  for (const name of Object.keys(files)) {
    const f = files[name]!;
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
    // Key order is part of the agent (it is shown as JSON): the same keys in another order are another agent.
    const agentKey = JSON.stringify(card.agent);
    let a = agents.get(agentKey);
    if (a === undefined) agents.set(agentKey, (a = c.agents.push(card.agent) - 1));
    c.agent.push(a);
    c.launchCwd.push(stringAt(card.launchCwd));
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
      c.opened.push(stringAt(s.opened));
      c.cwd.push(stringAt(s.cwd));
      c.meta.push(s.meta ? 1 : 0);
    }
  }
  return c;
}

const PER_FILE = ['size', 'mtimeMs', 'ino', 'position', 'lines', 'flags', 'corruptLines', 'connectionId', 'startedAtMs', 'agent', 'launchCwd', 'ended', 'pid', 'sessions'] as const;
const PER_SESSION = ['firstT', 'lastT', 'turns', 'files', 'agentSessionId', 'opened', 'cwd', 'meta'] as const;

/** The files' objects; throws when the columns do not fit together (a damaged index). */
export function decodeFiles(c: FileColumns): Record<string, IndexedFile> {
  if (!c || typeof c !== 'object' || !Array.isArray(c.names) || !Array.isArray(c.sessionId) || !Array.isArray(c.agents) || !Array.isArray(c.strings)) throw new Error('file columns missing');
  const n = c.names.length;
  for (const k of PER_FILE) if (!Array.isArray(c[k]) || c[k].length !== n) throw new Error(`file column ${k} does not fit`);
  if (!Array.isArray(c.detailAt) || c.detailAt.length !== 2 * n) throw new Error('file column detailAt does not fit');
  const m = c.sessionId.length;
  for (const k of PER_SESSION) if (!Array.isArray(c[k]) || c[k].length !== m) throw new Error(`session column ${k} does not fit`);
  const stringAt = (i: number) => {
    const s = c.strings[i];
    if (typeof s !== 'string') throw new Error(`no string ${i}`);
    return s;
  };
  const files: Record<string, IndexedFile> = {};
  let k = 0;
  for (let i = 0; i < n; i++) {
    const name = c.names[i]!;
    const count = c.sessions[i]!;
    if (!(count >= 0) || k + count > m) throw new Error('session columns cut short');
    const sessions: SessionCard[] = [];
    for (let j = 0; j < count; j++, k++) {
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
    const card: FileCard = { connectionId: connectionId === 0 ? connectionOf(name) : connectionId, startedAtMs: c.startedAtMs[i]!, agent, sessions };
    if (c.launchCwd[i] !== -1) card.launchCwd = stringAt(c.launchCwd[i]!);
    if (c.ended[i] !== 0) {
      const ended = ENDED[c.ended[i]!];
      if (!ended) throw new Error(`no ending ${c.ended[i]}`);
      card.ended = ended;
    }
    const pid = c.pid[i];
    if (pid !== null && pid !== undefined) card.pid = pid;
    const flags = c.flags[i]!;
    files[name] = {
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
  if (k !== m) throw new Error('session columns too long');
  return files;
}
