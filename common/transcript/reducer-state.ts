/**
 * What the reducer remembers between records: indexes (tool call id → entry, the open message),
 * pending requests in both id spaces, and the few session values it must compare against. Never
 * the entries themselves — the reducer emits patches and never reads the transcript — so a chunk
 * costs O(1) and states are immutable values (a step copies only what it changes).
 */
import type { JsonValue } from '../trace/json';
import type { JsonRpcId } from '../trace/records';
import type { PermissionOption, SessionConfigOption, SessionModeState, SessionModelState } from './acp-types';
import type { EntryId, MessageKind, TurnStatus } from './model';
import { ToolCallTable } from './tool-call-table';

export type { ToolCallInfo } from './tool-call-index';

/** The message chunks currently merge into. One at a time: any other kind closes it. */
export interface OpenMessage {
  kind: MessageKind;
  entryId: EntryId;
  messageId?: string;
}

/** One of our requests to the agent, waiting for its answer. */
export interface OurRequest {
  method: string;
  t: number;
  /** session/prompt: the turn it started. */
  turn?: number;
  modeId?: string;
  configId?: string;
  value?: JsonValue;
  modelId?: string;
}

/** One of the agent's requests to us, waiting for our answer. */
export interface TheirRequest {
  method: string;
  t: number;
  terminalId?: string;
  command?: string;
  args?: string[];
  cwd?: string;
}

export interface PermissionIndex {
  entryId: EntryId;
  options: PermissionOption[];
}

/** An agent echo of our prompt is expected while `armed`: from the prompt until the agent replies. */
export interface EchoWatch {
  entryId: EntryId;
  armed: boolean;
  flagged: boolean;
  messageId?: string;
}

export interface TurnState {
  n: number;
  status: TurnStatus;
  startT?: number;
  cancelRequested: boolean;
  /** The turn was a live prompt and its answer has come: agent output now is a tail (§22.5). */
  answered: boolean;
  /** Entries upserted once per turn (agents resend plans, usage, command lists). */
  planEntryId?: EntryId;
  usageEntryId?: EntryId;
  commandsEntryId?: EntryId;
  infoEntryId?: EntryId;
  echo?: EchoWatch;
}

export interface ReducerState {
  nextEntry: number;
  nextWrite: number;
  sessionId?: string;
  agentSessionId?: string;
  open: OpenMessage | null;
  /** The latest message of each kind that had a `messageId`: a late chunk of it still belongs there. */
  lastMessage: Readonly<Partial<Record<MessageKind, { entryId: EntryId; messageId: string }>>>;
  /** Tool call id → its entry and what later updates compare against, packed (tool-call-index.ts: read with `toolCallInfo`). */
  toolCalls: ToolCallTable;
  /** Terminals the agent reported in `_meta.terminal_info` (agent-terminals.ts). */
  agentTerminals: ReadonlySet<string>;
  /** Keyed by `rpcKey(id)`. A response from the agent answers one of these... */
  ours: ReadonlyMap<string, OurRequest>;
  /** ...and a response we send answers one of these: the two id spaces never mix. */
  theirs: ReadonlyMap<string, TheirRequest>;
  /** Our prompt request → its user entry (the wire line and the `prompt` event may both come). */
  prompts: ReadonlyMap<string, { entryId?: EntryId; origin?: string }>;
  /** The agent's permission request → where it is shown. */
  permissions: ReadonlyMap<string, PermissionIndex>;
  turn: TurnState;
  /** A `session/load` is pending: what arrives now is replayed history. */
  loading: boolean;
  modes?: SessionModeState;
  models?: SessionModelState;
  /** configId → {name, current value}, to say what a replacement changed. */
  configValues: ReadonlyMap<string, { name?: string; value: JsonValue }>;
  /** The option set as last sent to the session: one value changed is a new copy of it. */
  configOptions?: readonly SessionConfigOption[];
  title?: string | null;
  updatedAt?: string | null;
  stderrTail: readonly string[];
  pid?: number;
  /** Ids of file changes already recorded (the wire request and the fs-write event meet here). */
  fileChanges: ReadonlyMap<string, true>;
  /** The tool call most recently started or asked about, to attribute fs writes. */
  activeToolCallId?: string;
}

export const STDERR_TAIL_LINES = 20;

export function initialReducerState(): ReducerState {
  return {
    nextEntry: 1,
    nextWrite: 1,
    open: null,
    lastMessage: {},
    toolCalls: new ToolCallTable(),
    agentTerminals: new Set(),
    ours: new Map(),
    theirs: new Map(),
    prompts: new Map(),
    permissions: new Map(),
    turn: { n: 0, status: 'idle', cancelRequested: false, answered: false },
    loading: false,
    configValues: new Map(),
    stderrTail: [],
    fileChanges: new Map(),
  };
}

/** Map key for a JSON-RPC id: `1` and `"1"` are different ids. */
export function rpcKey(id: JsonRpcId | undefined): string {
  return typeof id === 'number' ? `n:${id}` : typeof id === 'string' ? `s:${id}` : 'null';
}
