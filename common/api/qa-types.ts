/**
 * Types of the QA requests and events of the API contract (issue #9): the protocol inspector of a
 * connection (windows of message rows, one message in full, JSONL export), the live conformance
 * findings, fault rules and manual answers to the agent's requests, and the raw request composer.
 */
import type { JsonRpcId } from '../trace/records';
import type { Window, WindowQuery } from './window';

// ---- inspector ------------------------------------------------------------------------------------

/** `in` = from the agent (stdout, stderr), `out` = to the agent. */
export type InspectorDir = 'in' | 'out';

/** `other`: a line over the size limit, or a JSON object that is no JSON-RPC message. */
export type InspectorKind = 'request' | 'response' | 'notification' | 'noise' | 'stderr' | 'other';

export const INSPECTOR_KINDS: readonly InspectorKind[] = ['request', 'response', 'notification', 'noise', 'stderr', 'other'];

/** One message (or noise / stderr line) of a connection, as the inspector lists it. */
export interface InspectorRow {
  /** Position in the connection's list, from 0 (stable: the list only grows). */
  index: number;
  /** Line of the record in the connection's trace file (1 = the header). */
  line: number;
  /** Milliseconds since the connection started. */
  t: number;
  dir: InspectorDir;
  kind: InspectorKind;
  /** The method; for a response, the method of the request it answers. */
  method?: string;
  /** `params.update.sessionUpdate` of a `session/update`. */
  updateKind?: string;
  id?: JsonRpcId;
  /** Bytes of the line. */
  size: number;
  /** For a response: ms since its request; for an answered request: ms until its response. */
  latency?: number;
  /** Index of the request a response answers, or of the response a request got. */
  peer?: number;
  /** For an error response. */
  error?: { code?: number; message?: string };
  /** Workbench session id (absent on records of the whole connection). */
  sessionId?: string;
  /** A request sent on purpose without the agent having advertised it (raw composer, check). */
  unchecked?: boolean;
  /** A short text of the content (first ~160 characters). */
  preview: string;
}

export interface InspectorFilter {
  /** `session` (default): the session's records plus those of the whole connection; `connection`: every record. */
  scope?: 'session' | 'connection';
  dirs?: InspectorDir[];
  kinds?: InspectorKind[];
  methods?: string[];
  updateKinds?: string[];
  /** Case-insensitive text search in the message's JSON (or the line's text). */
  search?: string;
  /** Only these rows (pins, a selection). */
  indexes?: number[];
}

export interface InspectorWindowParams extends WindowQuery, InspectorFilter {
  sessionId: string;
  /** Also say where this row index is in the filtered list (to jump to it). */
  locate?: number;
}

export interface InspectorWindowResult extends Window<InspectorRow> {
  /** Rows of the connection, unfiltered. */
  all: number;
  /** Methods and update kinds seen so far, for the filter menus. */
  facets: { methods: string[]; updateKinds: string[] };
  /** With `locate`: the row's position in the filtered list, or null when the filter hides it. */
  located?: number | null;
}

export interface InspectorMessageParams {
  sessionId: string;
  index: number;
}

export interface InspectorMessage {
  row: InspectorRow;
  /** The trace record in full (`msg` for messages, `text`/`base64` for noise, `text` for stderr). */
  record: Record<string, unknown>;
}

export interface InspectorExportParams extends InspectorFilter {
  sessionId: string;
}

export interface InspectorExportResult {
  /** JSONL: one trace record per line. */
  text: string;
  fileName: string;
  count: number;
}

/** New rows were appended (at most one event per 100 ms per session). */
export interface InspectorAppendedEvent {
  sessionId: string;
  /** Rows of the connection now (unfiltered). */
  all: number;
}

// ---- conformance ----------------------------------------------------------------------------------

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface FindingView {
  rule: string;
  severity: FindingSeverity;
  message: string;
  /** Trace lines that show it. */
  evidence: number[];
  /** The inspector rows of those lines (lines that are no message are left out). */
  rows: number[];
  /** docs/conformance.md#<rule> */
  docs: string;
  /** Why the rule matters, in one sentence (the rule's own). */
  rationale: string;
}

export interface FindingsResult {
  findings: FindingView[];
  counts: Record<FindingSeverity, number>;
}

export interface FindingsChangedEvent {
  sessionId: string;
  counts: Record<FindingSeverity, number>;
}

// ---- faults and manual answers -------------------------------------------------------------------

/**
 * What a rule does with an agent request it matches: hold it for a manual answer, answer an error,
 * answer after a delay (then as usual), deny it (permission: reject; elicitation: decline; others:
 * an error), or answer a file read with other content.
 */
export type FaultAction =
  | { type: 'manual' }
  | { type: 'error'; code: number; message: string; data?: unknown }
  | { type: 'delay'; ms: number }
  | { type: 'deny' }
  | { type: 'content'; text: string };

export type FaultActionType = FaultAction['type'];

/** Methods a rule may match: the agent's requests to us; `*` = every request; `?` = methods we do not implement. */
export const FAULT_METHODS = [
  'session/request_permission',
  'fs/read_text_file',
  'fs/write_text_file',
  'terminal/create',
  'terminal/output',
  'terminal/wait_for_exit',
  'terminal/kill',
  'terminal/release',
  'terminal/*',
  'elicitation/create',
  '?',
  '*',
] as const;

export interface FaultRule {
  id: string;
  /** One of FAULT_METHODS, or an exact method name (e.g. an extension `_vendor/x`). */
  method: string;
  /** Matched against the request's path (fs), command (terminal/create) or tool call title (permission); `*` is a wildcard, otherwise a substring. */
  pattern?: string;
  action: FaultAction;
  enabled: boolean;
}

export type FaultRuleInput = Omit<FaultRule, 'id'> & { id?: string };

/** An agent request held for a manual answer. */
export interface ManualRequestView {
  key: string;
  sessionId: string;
  method: string;
  /** The agent's JSON-RPC id. */
  requestId: JsonRpcId;
  params: unknown;
  receivedAt: number;
  /** The agent withdrew it (`$/cancel_request`); it still needs an answer. */
  withdrawn: boolean;
  /** A result of the right shape, to start from. */
  example: unknown;
}

export interface QaStateParams {
  sessionId: string;
}

export interface QaState {
  rules: FaultRule[];
  pending: ManualRequestView[];
  /** The client capabilities advertised in `initialize` on this connection. */
  clientCapabilities: unknown;
}

export interface SetFaultRulesParams {
  sessionId: string;
  rules: FaultRuleInput[];
}

export interface ManualAnswerParams {
  sessionId: string;
  key: string;
  /** The JSON result to answer with; ignored when `error` is given. */
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface ManualChangedEvent {
  sessionId: string;
  pending: ManualRequestView[];
}

// ---- raw request composer --------------------------------------------------------------------------

export interface RawRequestParams {
  sessionId: string;
  method: string;
  params?: unknown;
  /** Send as a notification (no answer). */
  notification?: boolean;
  /** Give up waiting after this long (default 60 s; the request stays pending on the agent's side). */
  timeoutMs?: number;
}

export interface RawRequestResult {
  /** false: the agent answered an error, or no answer came in time. */
  ok: boolean;
  result?: unknown;
  error?: { code?: number; message: string; data?: unknown };
  timedOut?: boolean;
  notification?: boolean;
  /** Time to the answer (or to sending, for a notification). */
  ms: number;
}

export interface ComposerTemplate {
  method: string;
  kind: 'request' | 'notification';
  params: unknown;
  /** From the spec, or an extension the agent named in `_meta`. */
  source: 'spec' | 'extension';
  /** Whether the agent advertised it (null: no capability gates it). */
  advertised: boolean | null;
  note?: string;
}
