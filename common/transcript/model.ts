/**
 * The transcript of one session: a closed set of entry kinds, normalized as an ordered list of
 * entry ids plus a map id → entry (so a streaming chunk replaces one entry, never the list), and
 * the session-wide state that is not a place in the conversation (modes, config, commands...).
 * Built only by applying patches (patches.ts) produced by the reducer (reducer.ts).
 */
import type { JsonObject, JsonValue } from '../trace/json';
import type { JsonRpcId, Lineage, SessionAction } from '../trace/records';
import type {
  AvailableCommand,
  ContentBlock,
  Cost,
  PermissionOption,
  PermissionOptionKind,
  PlanEntry,
  SessionConfigOption,
  SessionModelState,
  SessionModeState,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from './acp-types';

/** Reducer-assigned, deterministic (`e1`, `e2`...): a rebuild from the trace gives the same ids. */
export type EntryId = string;

/**
 * What an agent did that deviates from the protocol or from the usual path, kept on the entry so QA
 * can see it and the UI can explain it.
 */
export type EntryFlag =
  /** `current_mode_update` carried `modeId` instead of `currentModeId` (the docs' example bug). */
  | 'mode-id-key'
  /** The tool call was first seen in an update or a permission request, not in `tool_call`. */
  | 'created-lazily'
  /** `tool_call` was sent again for an id already known. */
  | 'tool-call-resent'
  /** The agent echoed this prompt back as `user_message_chunk`s; the echo was folded in. */
  | 'echoed-by-agent'
  /** Arrived after the turn's answer (v1 forbids it; opencode does it). */
  | 'after-turn-end'
  /** Replayed by the agent during `session/load`. */
  | 'replayed';

export interface EntryBase {
  id: EntryId;
  /** Trace time (ms since the connection started) of the record that created the entry. */
  t: number;
  /** 0 before the first prompt, then 1, 2... */
  turn: number;
  flags?: EntryFlag[];
}

export interface UserMessageEntry extends EntryBase {
  kind: 'user_message';
  content: ContentBlock[];
  messageId?: string;
  /** Our `session/prompt` request id, when the workbench sent it (absent for replayed history). */
  requestId?: JsonRpcId;
  origin?: string;
}

export interface AgentMessageEntry extends EntryBase {
  kind: 'agent_message';
  content: ContentBlock[];
  messageId?: string;
}

export interface ThoughtEntry extends EntryBase {
  kind: 'thought';
  content: ContentBlock[];
  messageId?: string;
}

export type PermissionStatus = 'pending' | 'selected' | 'cancelled' | 'failed';

/** One `session/request_permission` about a tool call and what became of it. */
export interface PermissionRecord {
  requestId: JsonRpcId;
  t: number;
  options: PermissionOption[];
  status: PermissionStatus;
  /** The request's own tool-call content (e.g. codex's reason text), shown beside the diff, never over it. */
  context?: ToolCallContent[];
  optionId?: string;
  optionKind?: PermissionOptionKind;
  optionName?: string;
  /** Who answered: the user, a policy, the cancel rule... (from the workbench's event). */
  decidedBy?: string;
  rule?: string;
  decidedT?: number;
  /** When our answer was an error, its message. */
  error?: string;
}

export interface ToolCallEntry extends EntryBase {
  kind: 'tool_call';
  toolCallId: string;
  title: string;
  name?: string;
  toolKind: ToolKind | (string & {});
  status: ToolCallStatus | (string & {});
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: JsonValue;
  rawOutput?: JsonValue;
  /** The latest `_meta` (agent-rendered terminal output lives here, see acp-reference §16). */
  meta?: JsonObject;
  permissions: PermissionRecord[];
}

export interface PlanEntryItem extends EntryBase {
  kind: 'plan';
  entries: PlanEntry[];
}

export interface ModeChangeEntry extends EntryBase {
  kind: 'mode_change';
  modeId: string;
  previousModeId?: string;
  /** `set_mode`: our request, confirmed by its (empty) answer; `agent`: a `current_mode_update`. */
  source: 'set_mode' | 'agent';
}

export interface ConfigValueChange {
  configId: string;
  name?: string;
  from?: JsonValue;
  to: JsonValue;
}

export interface ConfigChangeEntry extends EntryBase {
  kind: 'config_change';
  changes: ConfigValueChange[];
  source: 'set_config_option' | 'set_model' | 'agent';
}

export interface UsageEntry extends EntryBase {
  kind: 'usage';
  used?: number;
  size?: number;
  cost?: Cost | null;
}

export interface SessionInfoEntry extends EntryBase {
  kind: 'session_info';
  title?: string | null;
  updatedAt?: string | null;
}

export interface AvailableCommandsEntry extends EntryBase {
  kind: 'available_commands';
  commands: AvailableCommand[];
}

export interface NoticeEntry extends EntryBase {
  kind: 'notice';
  severity: string;
  title: string;
  description?: string | null;
  source: 'agent' | 'workbench';
}

export interface ErrorEntry extends EntryBase {
  kind: 'error';
  message: string;
  /** JSON-RPC error code, when the error was an answer. */
  code?: number;
  data?: JsonValue;
  /** The request that failed. */
  method?: string;
  source: 'response' | 'exit' | 'spawn';
  /** The agent's last stderr lines: the real cause is usually there. */
  stderrTail?: string[];
}

export interface TurnEndEntry extends EntryBase {
  kind: 'turn_end';
  /** ACP stop reason, or null when the turn ended without one (error, agent exit). */
  stopReason: string | null;
  /** Per-turn usage from the prompt answer (Claude's non-standard `usage`). */
  usage?: JsonObject;
  /** `_meta` of the prompt answer (e.g. gemini's `quota`). */
  meta?: JsonObject;
  durationMs?: number;
  error?: { code?: number; message: string };
}

export interface UnknownUpdateEntry extends EntryBase {
  kind: 'unknown_update';
  /** The `sessionUpdate` discriminator, or null when the update had none. */
  sessionUpdate: string | null;
  raw: JsonValue;
}

export type Entry =
  | UserMessageEntry
  | AgentMessageEntry
  | ThoughtEntry
  | ToolCallEntry
  | PlanEntryItem
  | ModeChangeEntry
  | ConfigChangeEntry
  | UsageEntry
  | SessionInfoEntry
  | AvailableCommandsEntry
  | NoticeEntry
  | ErrorEntry
  | TurnEndEntry
  | UnknownUpdateEntry;

export type EntryKind = Entry['kind'];
export type MessageKind = 'user_message' | 'agent_message' | 'thought';
export type MessageEntry = UserMessageEntry | AgentMessageEntry | ThoughtEntry;

export const ENTRY_KINDS: readonly EntryKind[] = [
  'user_message',
  'agent_message',
  'thought',
  'tool_call',
  'plan',
  'mode_change',
  'config_change',
  'usage',
  'session_info',
  'available_commands',
  'notice',
  'error',
  'turn_end',
  'unknown_update',
];

export type TurnStatus = 'idle' | 'running' | 'cancelling';

/** A file the agent wrote through `fs/write_text_file` (and/or the workbench's fs-write event). */
export interface FileChange {
  /** `req:<agent request id>` or `write:<n>` for writes known only from an event. */
  id: string;
  path: string;
  /** undefined: not known (only the request was seen); null: the file did not exist. */
  oldText?: string | null;
  newText: string;
  t: number;
  turn: number;
  /** The tool call that was running when the write came, when there was one. */
  toolCallId?: string;
  /** Our answer to the write was an error: the file may not have changed. */
  error?: string;
}

export interface TerminalInfo {
  terminalId: string;
  command?: string;
  args?: string[];
  cwd?: string;
  status: 'running' | 'exited' | 'killed' | 'released';
  exitCode?: number | null;
  signal?: string | null;
  output?: string;
  truncated?: boolean;
  released?: boolean;
}

export interface SessionState {
  sessionId?: string;
  agentSessionId?: string;
  /** How the session was opened on its connection. */
  opened?: SessionAction;
  lineage?: Lineage;
  modes?: SessionModeState;
  models?: SessionModelState;
  configOptions?: SessionConfigOption[];
  availableCommands?: AvailableCommand[];
  /** The agent's title and update time (`session_info_update`, patch semantics). */
  title?: string | null;
  updatedAt?: string | null;
  /** The user's own name and tags for the session. */
  userTitle?: string | null;
  tags?: string[];
  usage?: { used?: number; size?: number; cost?: Cost | null };
  turn: number;
  turnStatus: TurnStatus;
  /** The plan entry to show as "the current plan". */
  planEntryId?: EntryId;
  process?: { pid?: number; exited?: { code: number | null; signal: string | null } };
}

export interface Transcript {
  ids: readonly EntryId[];
  entries: Readonly<Record<EntryId, Entry>>;
  session: SessionState;
  fileChanges: readonly FileChange[];
  terminals: Readonly<Record<string, TerminalInfo>>;
}

export function emptyTranscript(): Transcript {
  return { ids: [], entries: {}, session: { turn: 0, turnStatus: 'idle' }, fileChanges: [], terminals: {} };
}

/** Entries in order; for rendering and tests, not for hot paths. */
export function entryList(t: Transcript): Entry[] {
  return t.ids.map((id) => t.entries[id]!);
}
