/**
 * Every change to a transcript, as small serializable values: what main sends to the renderer
 * (batched per frame) and what the renderer applies to its normalized store. A streaming chunk is
 * "append this text to entry X", never "here is entry X again".
 */
import type { ContentBlock, PlanEntry } from './acp-types';
import type { Entry, EntryFlag, EntryId, EntryKind, FileChange, PermissionRecord, SessionState, TerminalInfo, ToolCallEntry } from './model';

/** The fields of a tool call the reducer may patch; absent = unchanged, arrays replace. */
export type ToolCallFields = Partial<
  Pick<ToolCallEntry, 'title' | 'name' | 'toolKind' | 'status' | 'content' | 'locations' | 'rawInput' | 'rawOutput' | 'meta'>
>;

/** Shallow fields of any entry kind, for `patch-entry` (never `id` or `kind`). */
export type EntryFields = {
  [K in EntryKind]: Partial<Omit<Extract<Entry, { kind: K }>, 'id' | 'kind' | 'flags'>>;
}[EntryKind];

/** A permission identified by the agent's request id; other fields merge into it. */
export type PermissionPatch = Pick<PermissionRecord, 'requestId'> & Partial<Omit<PermissionRecord, 'requestId'>>;

export type FileChangePatch = Pick<FileChange, 'id'> & Partial<Omit<FileChange, 'id'>>;

export type Patch =
  /** A new entry at the end of the transcript. */
  | { op: 'append-entry'; entry: Entry }
  /** Text appended to a message's last text block (a new text block if the last is not text). */
  | { op: 'append-text'; id: EntryId; text: string }
  /** A non-text content block appended to a message. */
  | { op: 'append-block'; id: EntryId; block: ContentBlock }
  /** Shallow merge into an entry. */
  | { op: 'patch-entry'; id: EntryId; fields: EntryFields }
  /** With `keepDiffs`, the new `content` goes after the entry's existing diffs instead of replacing them. */
  | { op: 'patch-tool-call'; id: EntryId; fields: ToolCallFields; keepDiffs?: boolean }
  /** Adds or merges (by `requestId`) a permission request on a tool call. */
  | { op: 'upsert-permission'; id: EntryId; permission: PermissionPatch }
  | { op: 'replace-plan'; id: EntryId; entries: PlanEntry[] }
  /** Adds a flag to an entry (no-op when already there). */
  | { op: 'add-flag'; id: EntryId; flag: EntryFlag }
  /** Shallow merge into the session-wide state. */
  | { op: 'set-session'; fields: Partial<SessionState> }
  | { op: 'upsert-file-change'; change: FileChangePatch }
  | { op: 'upsert-terminal'; terminalId: string; fields: Partial<TerminalInfo> }
  /** Output appended to a terminal (agent-rendered terminals stream deltas); the start is dropped past a cap. */
  | { op: 'append-terminal-output'; terminalId: string; text: string };

export type PatchOp = Patch['op'];
