/**
 * The reducer's index of tool calls (`ReducerState.toolCalls`: the agent's tool call id → what a
 * later `tool_call_update` needs) with each value packed into one small integer (issue #11): the
 * entry's number, the status as a code and three flags. The index lives as long as the session —
 * one value per tool call, the largest part of what a live session's memory grew by — and an
 * object per tool call (64 bytes) became a number stored in the map's own slot.
 *
 * Only values that round-trip exactly are packed: an entry id of the reducer's own form (`e` and a
 * number, step.ts), one of the statuses of `ToolCallStatus` (ACP's four and the workbench's `cancelled`). Anything else (an agent's own status, a
 * state built elsewhere) stays an object, so reading gives back exactly what was written.
 */
import type { ToolCallStatus } from './acp-types';
import { entryNumber, positionalEntryId } from './entry-ids';
import type { EntryId } from './model';

/** What the reducer remembers of one tool call. */
export interface ToolCallInfo {
  entryId: EntryId;
  status: ToolCallStatus | (string & {});
  hasContent: boolean;
  hasDiff: boolean;
  hasRawInput: boolean;
}

/** A `ToolCallInfo` as the index stores it: packed (see `packToolCallInfo`), or the object itself. */
export type StoredToolCallInfo = number | ToolCallInfo;

const STATUSES: readonly ToolCallStatus[] = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'];
const STATUS_CODE: ReadonlyMap<string, number> = new Map(STATUSES.map((s, i) => [s, i]));
const STATUS_MASK = 7;
const HAS_CONTENT = 8;
const HAS_DIFF = 16;
const HAS_RAW_INPUT = 32;
/** Bits below the entry number: the status code (3) and the flags (3). */
const ENTRY_SHIFT = 6;
/**
 * Entry numbers up to this pack: with the flags, 30 bits — a small integer V8 stores in the map's
 * own slot even where its small integers are 31 bits (pointer compression, Electron).
 */
export const MAX_PACKED_ENTRY = 2 ** 24 - 1;

/** `info` as the index stores it: one integer when every field packs, else `info` itself. */
export function packToolCallInfo(info: ToolCallInfo): StoredToolCallInfo {
  const status = STATUS_CODE.get(info.status);
  const n = entryNumber(info.entryId);
  if (status === undefined || n < 0 || n > MAX_PACKED_ENTRY) return info;
  return (n << ENTRY_SHIFT) | status | (info.hasContent ? HAS_CONTENT : 0) | (info.hasDiff ? HAS_DIFF : 0) | (info.hasRawInput ? HAS_RAW_INPUT : 0);
}

/** The `ToolCallInfo` a stored value holds (a new object for a packed one). */
export function unpackToolCallInfo(stored: StoredToolCallInfo): ToolCallInfo {
  if (typeof stored !== 'number') return stored;
  return {
    entryId: positionalEntryId((stored >>> ENTRY_SHIFT) - 1),
    status: STATUSES[stored & STATUS_MASK]!,
    hasContent: (stored & HAS_CONTENT) !== 0,
    hasDiff: (stored & HAS_DIFF) !== 0,
    hasRawInput: (stored & HAS_RAW_INPUT) !== 0,
  };
}

/** The tool call `toolCallId` in the index, or undefined. */
export function toolCallInfo(index: ReadonlyMap<string, StoredToolCallInfo>, toolCallId: string): ToolCallInfo | undefined {
  const stored = index.get(toolCallId);
  return stored === undefined ? undefined : unpackToolCallInfo(stored);
}
