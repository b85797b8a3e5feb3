/**
 * The records a session's whole transcript is folded from. A resumed or forked session's own
 * traces hold only what happened after it was continued; its transcript starts from its parent's
 * (cut at the fork point), as the live session's did (AgentSession `seed`). What `session/load`
 * replayed is left out (continue-replay.ts), so every message shows once.
 */
import type { JsonRpcId, TraceHeader, TraceRecord } from '../../../../common/trace/records';
import { rebuildTranscript, TranscriptBuilder } from '../../../../common/transcript/rebuild';
import type { Transcript, UserMessageEntry } from '../../../../common/transcript/model';
import { withoutReplay } from '../../sessions/continue-replay';
import type { HistoryStore } from '../history-store';
import type { HistoryEntry } from '../history-types';

/** Ancestors followed at most (a cycle in hand-edited traces must not loop forever). */
const MAX_DEPTH = 64;

export interface SessionRecords {
  entry: HistoryEntry;
  /** The header of the session's latest trace (its launch spec). */
  header: TraceHeader | undefined;
  /** Everything its transcript is folded from: the parent's part first, then its own records. */
  records: TraceRecord[];
}

export async function sessionRecords(store: HistoryStore, idOrPrefix: string, depth = 0): Promise<SessionRecords> {
  const entry = store.require(idOrPrefix);
  const pieces = await store.pieces(entry.id);
  const own = pieces.flatMap((p) => p.records);
  const header = pieces[pieces.length - 1]?.header;
  const lineage = entry.lineage;
  const parentId = lineage?.relation ? lineage.parentSessionId : undefined;
  if (!parentId || depth >= MAX_DEPTH || !store.get(parentId)) return { entry, header, records: own };
  const parent = await sessionRecords(store, parentId, depth + 1);
  const n = lineage!.forkPoint?.beforeMessage;
  const seed = isolateIds(n !== undefined ? cutBeforeMessage(parent.records, n).records : parent.records, parentId);
  return { entry, header, records: [...seed, ...withoutReplay(own)] };
}

/**
 * The parent's records with their JSON-RPC ids moved into a space of their own (`<parent>:<id>`):
 * the continued session's connection counts its ids from 0 again, and the reducer pairs prompts,
 * answers and permission requests by id.
 */
export function isolateIds(records: readonly TraceRecord[], tag: string): TraceRecord[] {
  const id = (v: JsonRpcId): string => `${tag}:${JSON.stringify(v)}`;
  return records.map((r) => {
    switch (r.kind) {
      case 'wire':
        return r.msg.id === undefined ? r : { ...r, msg: { ...r.msg, id: id(r.msg.id as JsonRpcId) } };
      case 'prompt':
      case 'permission-asked':
      case 'permission-decided':
        return { ...r, requestId: id(r.requestId) };
      case 'fs-write':
        return r.requestId === undefined ? r : { ...r, requestId: id(r.requestId) };
      default:
        return r;
    }
  });
}

/** The session's transcript as the history browser shows it (and as its live pane did). */
export async function sessionTranscript(store: HistoryStore, idOrPrefix: string): Promise<Transcript> {
  return rebuildTranscript((await sessionRecords(store, idOrPrefix)).records);
}

export interface UserMessageAt {
  /** 1-based. */
  index: number;
  entryId: string;
  /** Index in the records of the record that created it. */
  recordIndex: number;
  /** Trace time of that record. */
  t: number;
  text: string;
}

/** The user messages of a record list, in order, with where each begins. */
export function userMessages(records: readonly TraceRecord[]): UserMessageAt[] {
  const builder = new TranscriptBuilder();
  const out: UserMessageAt[] = [];
  records.forEach((r, i) => {
    for (const p of builder.push(r)) {
      if (p.op === 'append-entry' && p.entry.kind === 'user_message') {
        out.push({ index: out.length + 1, entryId: p.entry.id, recordIndex: i, t: r.t, text: textOf(p.entry) });
      }
    }
  });
  return out;
}

export function textOf(e: UserMessageEntry): string {
  return e.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

export class ForkPointError extends Error {}

/**
 * The records before user message `n` (1-based): the prefix a fork "before message N" holds.
 * `lastEntryId` is the last entry of that prefix (the fork point), absent when it is empty.
 */
export function cutBeforeMessage(records: readonly TraceRecord[], n: number): { records: TraceRecord[]; lastEntryId?: string; t?: number } {
  const messages = userMessages(records);
  if (!Number.isInteger(n) || n < 1 || n > messages.length) {
    throw new ForkPointError(`there is no user message ${n}: the session has ${messages.length} (give 1 to ${messages.length})`);
  }
  const at = messages[n - 1]!;
  const prefix = records.slice(0, at.recordIndex);
  const t = rebuildTranscript(prefix);
  const lastEntryId = t.ids[t.ids.length - 1];
  return { records: prefix, ...(lastEntryId ? { lastEntryId } : {}), t: at.t };
}
