/**
 * The user's changes to finished sessions — rename, tags, delete, restore — as an append-only JSON
 * Lines journal beside the index (`<data>/history/meta.jsonl`). Traces belong to the connection
 * that wrote them and are never appended to afterwards, so metadata for finished sessions cannot go
 * there; the journal is applied over what the traces say (`session-meta` records of a live
 * session), latest change first by wall-clock time. Each change is one line written with a single
 * O_APPEND write, so processes appending at once never interleave; a torn last line (a crash) is
 * skipped. The index is derived data; this file is not: it is never rebuilt, only read.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type JournalEntry =
  | {
      kind: 'session-meta';
      atMs: number;
      sessionId: string;
      /** New title; null clears the user's title. */
      title?: string | null;
      /** The whole tag set (replaces). */
      tags?: string[];
      addTags?: string[];
      removeTags?: string[];
    }
  | { kind: 'session-deleted'; atMs: number; sessionId: string; movedTo?: string }
  | { kind: 'session-restored'; atMs: number; sessionId: string }
  | { kind: 'trace-imported'; atMs: number; file: string; sha256: string; source: string };

export interface JournalRead {
  entries: JournalEntry[];
  /** Lines that were not valid entries (a torn last line after a crash, hand edits). */
  bad: number;
}

const KINDS = new Set(['session-meta', 'session-deleted', 'session-restored', 'trace-imported']);

export async function readJournal(path: string): Promise<JournalRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], bad: 0 };
    throw err;
  }
  const entries: JournalEntry[] = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as JournalEntry;
      if (v && typeof v === 'object' && KINDS.has(v.kind) && typeof v.atMs === 'number') entries.push(v);
      else bad++;
    } catch {
      bad++;
    }
  }
  return { entries, bad };
}

export async function appendJournal(path: string, entry: JournalEntry): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // One line, one write: appends of concurrent processes land whole, one after the other.
  await appendFile(path, `${JSON.stringify(entry)}\n`, { encoding: 'utf8', flag: 'a' });
}

/** What the journal says about each session, folded in time order. */
export interface SessionMetaState {
  title?: { value: string | null; atMs: number };
  /** Tag changes in order, applied over the trace's own tags. */
  tagOps: Array<{ atMs: number; set?: string[]; add?: string[]; remove?: string[] }>;
  deleted?: { atMs: number; movedTo?: string };
}

export function foldJournal(entries: readonly JournalEntry[]): { sessions: Map<string, SessionMetaState>; imports: Map<string, string> } {
  const sessions = new Map<string, SessionMetaState>();
  const imports = new Map<string, string>();
  const of = (id: string) => {
    let s = sessions.get(id);
    if (!s) sessions.set(id, (s = { tagOps: [] }));
    return s;
  };
  const ordered = entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.atMs - b.e.atMs || a.i - b.i);
  for (const { e } of ordered) {
    switch (e.kind) {
      case 'session-meta': {
        const s = of(e.sessionId);
        if (e.title !== undefined) s.title = { value: e.title, atMs: e.atMs };
        if (e.tags || e.addTags || e.removeTags) {
          s.tagOps.push({ atMs: e.atMs, ...(e.tags ? { set: e.tags } : {}), ...(e.addTags ? { add: e.addTags } : {}), ...(e.removeTags ? { remove: e.removeTags } : {}) });
        }
        break;
      }
      case 'session-deleted':
        of(e.sessionId).deleted = { atMs: e.atMs, ...(e.movedTo ? { movedTo: e.movedTo } : {}) };
        break;
      case 'session-restored':
        delete of(e.sessionId).deleted;
        break;
      case 'trace-imported':
        imports.set(e.sha256, e.file);
        break;
    }
  }
  return { sessions, imports };
}
