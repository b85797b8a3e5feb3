/**
 * The trace format: what each line of a connection's append-only JSONL file holds.
 * docs/trace-format.md documents every kind with an example line; keep the two in step, and bump
 * TRACE_FORMAT_VERSION when a change would make an older reader misread a newer file.
 */
import type { JsonObject, JsonValue } from './json';

export const TRACE_FORMAT = 'acp-workbench-trace';
export const TRACE_FORMAT_VERSION = 1;

/** A JSON-RPC id. Ours and the agent's are separate spaces: both sides count from 0. */
export type JsonRpcId = string | number | null;

/** `in` = from the agent (its stdout), `out` = to the agent (its stdin). */
export type WireDirection = 'in' | 'out';

/** Where a session came from, so history can draw fork trees and group compare runs. */
export interface Lineage {
  /** Workbench id of the session this one was forked from. */
  parentSessionId?: string;
  forkPoint?: ForkPoint;
  /** Compare run this session belongs to. */
  runId?: string;
  /** A continuation of the parent: `resume` (go on with it) or `fork` (a branch of it). */
  relation?: 'resume' | 'fork';
  /** How it was continued: the agent's session/resume, session/load or session/fork, or a new session primed with the transcript. */
  by?: 'resume' | 'load' | 'fork' | 'primed';
}

/** Where in the parent the fork starts; absent means "from the parent's end". */
export interface ForkPoint {
  /** Entry id (reducer-assigned, deterministic) in the parent transcript; the fork includes it. */
  entryId?: string;
  /** The parent record's timestamp, for traces read without a transcript. */
  t?: number;
  /** The fork was made before the parent's user message N (1-based): it holds messages 1..N-1. */
  beforeMessage?: number;
}

/** An environment variable of the launch; secret-looking names are written without their value. */
export type LaunchEnvVar = { name: string; value: string } | { name: string; redacted: true };

export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string;
  env: LaunchEnvVar[];
}

/** Line 1 of every trace file. */
export interface TraceHeader {
  kind: 'header';
  format: typeof TRACE_FORMAT;
  version: number;
  /** Workbench id of the connection (one agent process). */
  connectionId: string;
  /** Wall clock when the connection started (ISO 8601); every record's `t` counts from here. */
  startedAt: string;
  startedAtMs: number;
  workbench?: { version: string; host?: string };
  /** The catalog entry the agent was launched from. */
  agent?: { id?: string; name?: string; version?: string };
  launch: LaunchSpec;
  /** The `clientCapabilities` we advertised in `initialize` (QA may advertise fewer). */
  clientCapabilities: JsonValue | null;
  lineage?: Lineage;
}

/** Fields every record has. */
export interface RecordBase {
  /** Monotonic milliseconds since the connection started (see TraceHeader.startedAtMs). */
  t: number;
  /** Workbench session id, on records that belong to a session. */
  sessionId?: string;
  /** The agent's own id for that session, where known. */
  agentSessionId?: string;
}

/** A JSON object line on the wire, either way. */
export interface WireRecord extends RecordBase {
  kind: 'wire';
  dir: WireDirection;
  msg: JsonObject;
  /** What is wrong with it as JSON-RPC (for conformance); absent when nothing is. */
  problem?: string;
  /** Decoded with replacement characters because the bytes were not valid UTF-8. */
  invalidUtf8?: boolean;
  /** Our request for something the agent did not advertise, sent on purpose (`check`, the raw composer). */
  unchecked?: boolean;
}

/** A wire line that is not a JSON object (banners, logs, blank lines): kept exactly. */
export type NoiseRecord = RecordBase & { kind: 'noise'; dir: WireDirection } & ({ text: string } | { base64: string });

/** A wire line over the size limit: not kept, only described. */
export interface OversizeRecord extends RecordBase {
  kind: 'oversize';
  dir: WireDirection;
  /** Bytes, without the terminator. */
  length: number;
  sha256: string;
  /** The first 1 KiB, decoded leniently. */
  head: string;
}

export interface StderrRecord extends RecordBase {
  kind: 'stderr';
  text: string;
}

export interface SpawnRecord extends RecordBase {
  kind: 'spawn';
  pid?: number;
  /** Present when the process could not be started. */
  error?: { message: string; code?: string };
}

export interface ExitRecord extends RecordBase {
  kind: 'exit';
  code: number | null;
  signal: string | null;
  /** The workbench asked it to stop (close, shutdown): not a crash. */
  expected?: boolean;
}

/** The workbench sent a prompt (`requestId` is the id of our `session/prompt`). */
export interface PromptRecord extends RecordBase {
  kind: 'prompt';
  requestId: JsonRpcId;
  /** The prompt's content blocks (the wire line has them too). */
  prompt?: JsonValue[];
  /** What sent it: the user, a compare run, `check`, a fork primer... */
  origin?: string;
}

export interface PermissionAskedRecord extends RecordBase {
  kind: 'permission-asked';
  /** The agent's request id. */
  requestId: JsonRpcId;
  toolCallId?: string;
  toolCall?: JsonObject;
  options?: JsonValue[];
  /** Why the workbench asks (tool-call content items, e.g. "a file that usually holds secrets"): shown on the card. */
  context?: JsonValue[];
}

/** Who answered a permission request. */
export type PermissionDecider = 'user' | 'policy' | 'remembered' | 'cancel' | 'qa' | (string & {});

export interface PermissionDecidedRecord extends RecordBase {
  kind: 'permission-decided';
  requestId: JsonRpcId;
  outcome: 'selected' | 'cancelled';
  optionId?: string;
  by: PermissionDecider;
  /** The policy rule that decided, when `by` is not the user. */
  rule?: string;
}

export interface CancelRecord extends RecordBase {
  kind: 'cancel';
  /** Why: the user, closing the session, a timeout... */
  by?: string;
}

export interface FsWriteRecord extends RecordBase {
  kind: 'fs-write';
  path: string;
  /** Content before the write; null when the file did not exist. */
  oldText: string | null;
  newText: string;
  /** The agent's `fs/write_text_file` request id, when the write came from one. */
  requestId?: JsonRpcId;
  toolCallId?: string;
}

export type TerminalAction = 'created' | 'output' | 'exited' | 'killed' | 'released';

export interface TerminalRecord extends RecordBase {
  kind: 'terminal';
  terminalId: string;
  action: TerminalAction;
  command?: string;
  args?: string[];
  cwd?: string;
  exitCode?: number | null;
  signal?: string | null;
  /** With `output`: the text so far (already truncated from the start to the byte limit). */
  output?: string;
  truncated?: boolean;
}

export type SessionAction = 'created' | 'loaded' | 'resumed' | 'forked';

/** Binds a workbench session id to the agent's session id. */
export interface SessionRecord extends RecordBase {
  kind: 'session';
  action: SessionAction;
  sessionId: string;
  agentSessionId?: string;
  cwd?: string;
  lineage?: Lineage;
}

/** User metadata: rename, tags. `title: null` clears the user's title. */
export interface SessionMetaRecord extends RecordBase {
  kind: 'session-meta';
  sessionId: string;
  title?: string | null;
  tags?: string[];
}

/** Something the workbench wants on the record for the user (e.g. a timeout). */
export interface WorkbenchNoticeRecord extends RecordBase {
  kind: 'notice';
  severity: 'info' | 'warning' | 'error';
  message: string;
}

export type TraceRecord =
  | WireRecord
  | NoiseRecord
  | OversizeRecord
  | StderrRecord
  | SpawnRecord
  | ExitRecord
  | PromptRecord
  | PermissionAskedRecord
  | PermissionDecidedRecord
  | CancelRecord
  | FsWriteRecord
  | TerminalRecord
  | SessionRecord
  | SessionMetaRecord
  | WorkbenchNoticeRecord;

export type TraceRecordKind = TraceRecord['kind'];

/** Every record kind of this format version (the reader reports others as corrupt). */
export const TRACE_RECORD_KINDS: readonly TraceRecordKind[] = [
  'wire',
  'noise',
  'oversize',
  'stderr',
  'spawn',
  'exit',
  'prompt',
  'permission-asked',
  'permission-decided',
  'cancel',
  'fs-write',
  'terminal',
  'session',
  'session-meta',
  'notice',
];

export type TraceLine = TraceHeader | TraceRecord;
