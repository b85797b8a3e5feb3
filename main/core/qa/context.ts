/**
 * What the conformance rules know about a connection as its records pass: our pending requests
 * and the agent's, what each side advertised, the sessions with their turns and tool calls.
 *
 * The engine calls `begin(record)` (which describes the record: its JSON-RPC shape, the request a
 * response answers, the update it carries), then the rules, then `end()` (which applies the record
 * to the state). So a rule always sees the connection as it was *before* the record, plus the
 * record itself in `current`.
 */
import type { TraceHeader, TraceRecord } from '../../../common/trace/records';
import { envelopeOf, idKey, type Envelope } from './envelope';
import type { AgentAdvertisement } from './gates';
import { acpSchema, type ValidationOutcome } from './schema/acp-schema';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The validation of a message without any issue (the usual case), shared: its subject is never shown. */
const CLEAN: { subject: string; outcome: ValidationOutcome } = Object.freeze({ subject: '', outcome: Object.freeze({ errors: Object.freeze([]) as unknown as [], tolerated: Object.freeze([]) as unknown as [] }) });
const clean = (o: ValidationOutcome): boolean => o.errors.length === 0 && o.tolerated.length === 0;

export interface ConformanceOptions {
  /** How long an agent may take to answer the prompt after `session/cancel` (default 5 s). */
  cancelTimeoutMs?: number;
}

export const DEFAULT_CANCEL_TIMEOUT_MS = 5_000;

/** Updates that make up a conversation (a turn's content, a load's replay); usage, titles, modes and commands may come at any time. */
export const CONVERSATION_KINDS: ReadonlySet<string> = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'plan_update',
  'plan_removed',
]);

/** One of our requests, until the agent answers it. */
export interface OutgoingRequest {
  id: unknown;
  method: string;
  params: Json | undefined;
  line: number;
  t: number;
  /** Sent on purpose although not advertised (`check`, the raw composer). */
  unchecked: boolean;
  /** The agent's session id in the params. */
  sessionId?: string;
  /**
   * Conversation updates of that session seen while it was pending (a load's replay): up to date
   * once the answer is the current record (`current.answers`), and from then on.
   */
  updates: number;
  /** The session's count of conversation updates when the request was sent (see `updates`). */
  updatesBefore: number;
}

/** One of the agent's requests to us, until we answer it. */
export interface IncomingRequest {
  id: unknown;
  method: string;
  line: number;
  t: number;
  sessionId?: string;
  /** The agent withdrew it with `$/cancel_request`. */
  withdrawn: boolean;
}

export interface Turn {
  prompt: OutgoingRequest;
  cancel?: { t: number; line: number };
  /** Rules that already reported on this turn (time rules report once). */
  reported: Set<string>;
}

export interface SessionModel {
  id: string;
  /** Ids announced by `tool_call`. */
  toolCalls: Set<string>;
  /** The running prompt turn. */
  turn?: Turn;
  /** The last turn, from its answer (at `line`) until the next prompt or session setup. */
  ended?: { turn: Turn; line: number };
  /**
   * Conversation updates of this session so far. A pending request's `updates` is this count less
   * the one when it was sent, taken when its answer comes: counting each update into every
   * pending request of its session walked the pending requests for every update of a flood.
   */
  conversationUpdates: number;
}

export interface CurrentRecord {
  record: TraceRecord;
  line: number;
  /** Incoming wire messages: the JSON-RPC envelope. */
  envelope?: Envelope;
  /** Incoming requests and notifications. */
  method?: string;
  params?: Json;
  /** The agent's session id the message concerns. */
  sessionId?: string;
  /** `session/update`: the update and its kind. */
  update?: Json;
  updateKind?: string;
  /** An incoming response: the request of ours it answers (absent: an unknown id). */
  answers?: OutgoingRequest;
  /** An outgoing response: the agent's request we answer. */
  answersIncoming?: IncomingRequest;
}

export class ConformanceContext {
  readonly cancelTimeoutMs: number;
  header: TraceHeader | undefined;
  /** What we advertised: our `initialize` params, else the trace header. */
  clientCapabilities: Json | undefined;
  requestedProtocolVersion: number | undefined;
  /** The agent's `initialize` result. */
  initialize: Json | undefined;
  readonly advertisement: AgentAdvertisement = { capabilities: {}, modes: false, configOptions: false };
  readonly outgoing = new Map<string, OutgoingRequest>();
  readonly incoming = new Map<string, IncomingRequest>();
  readonly sessions = new Map<string, SessionModel>();
  /**
   * Running turns (`session.turn`) with a `session/cancel` sent: the cancel time limit is pending
   * on them (cancel-unanswered). The engine's fast path for plain updates (plain-update.ts) runs
   * only while this is 0.
   */
  cancelledTurns = 0;
  /** Time of the last record seen. */
  lastT = 0;
  /**
   * The record being judged (set by `begin`). A record the engine's fast path takes leaves it
   * as it was: the rules never run for that record, so nothing reads it.
   */
  current!: CurrentRecord;
  private validatedLine = -1;
  private validatedOutcome: { subject: string; outcome: ValidationOutcome } | undefined;

  constructor(header: TraceHeader | undefined, options: ConformanceOptions = {}) {
    this.cancelTimeoutMs = options.cancelTimeoutMs ?? DEFAULT_CANCEL_TIMEOUT_MS;
    this.setHeader(header);
  }

  setHeader(header: TraceHeader | undefined): void {
    this.header = header;
    if (!this.clientCapabilities && header) this.clientCapabilities = obj(header.clientCapabilities);
  }

  session(id: string): SessionModel {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = { id, toolCalls: new Set(), conversationUpdates: 0 }));
    return s;
  }

  /** Schema validation of the current incoming message (computed once, shared by the schema rules). */
  validation(): { subject: string; outcome: ValidationOutcome } | undefined {
    if (this.validatedLine === this.current.line) return this.validatedOutcome;
    let outcome: { subject: string; outcome: ValidationOutcome } | undefined;
    const c = this.current;
    const msg = c.record.kind === 'wire' && c.record.dir === 'in' ? c.record.msg : undefined;
    if (msg && c.envelope && (c.envelope.shape === 'request' || c.envelope.shape === 'notification') && c.method) {
      const skip = c.method === 'session/update' && c.updateKind !== undefined && !acpSchema().updateKinds.has(c.updateKind);
      const result = skip ? undefined : acpSchema().validateParams(c.method, msg.params);
      if (result) outcome = clean(result) ? CLEAN : { subject: c.updateKind ? `${c.method} (${c.updateKind})` : c.method, outcome: result };
    } else if (msg && c.answers && Object.hasOwn(msg, 'result') && !Object.hasOwn(msg, 'error')) {
      const result = acpSchema().validateResult(c.answers.method, msg.result);
      if (result) outcome = clean(result) ? CLEAN : { subject: `the answer to ${c.answers.method}`, outcome: result };
    }
    this.validatedLine = c.line;
    this.validatedOutcome = outcome;
    return outcome;
  }

  begin(record: TraceRecord, line: number): void {
    const current: CurrentRecord = { record, line };
    this.current = current;
    if (record.kind !== 'wire') return;
    const msg = record.msg as Json;
    if (record.dir === 'in') {
      const envelope = envelopeOf(msg);
      current.envelope = envelope;
      if (envelope.shape === 'request' || envelope.shape === 'notification') {
        current.method = msg.method as string;
        current.params = obj(msg.params);
        current.sessionId = str(current.params?.sessionId);
        if (current.method === 'session/update') {
          current.update = obj(current.params?.update);
          current.updateKind = str(current.update?.sessionUpdate);
        }
      } else if (envelope.shape === 'response' && msg.id !== null) {
        const answers = this.outgoing.get(idKey(msg.id));
        if (answers?.sessionId !== undefined) answers.updates = this.conversationUpdatesOf(answers.sessionId) - answers.updatesBefore;
        current.answers = answers;
        current.sessionId = answers?.sessionId;
      }
    } else if (!('method' in msg) && 'id' in msg) {
      current.answersIncoming = this.incoming.get(idKey(msg.id));
    }
  }

  end(): void {
    const { record, line } = this.current;
    this.lastT = Math.max(this.lastT, record.t);
    if (record.kind !== 'wire') return;
    if (record.dir === 'out') this.applyOutgoing(record.msg as Json, line, record.t, record.unchecked === true);
    else this.applyIncoming(record.msg as Json, line, record.t);
  }

  /**
   * A `session/update` of the agent's session `sessionId`: its tool call announced, its
   * conversation count. Called by `end` and by the engine's fast path (plain-update.ts), which
   * also sets `lastT`; `known`: the session's model when the caller has looked it up already.
   */
  applyUpdate(sessionId: string, kind: string | undefined, update: Json | undefined, known = this.sessions.get(sessionId)): void {
    const session = known ?? this.session(sessionId);
    if (kind === 'tool_call') {
      const toolCallId = str(update?.toolCallId);
      if (toolCallId) session.toolCalls.add(toolCallId);
    }
    if (kind !== undefined && CONVERSATION_KINDS.has(kind)) session.conversationUpdates++;
  }

  /** The session's count of conversation updates (0 for a session never seen: nothing made). */
  private conversationUpdatesOf(sessionId: string): number {
    return this.sessions.get(sessionId)?.conversationUpdates ?? 0;
  }

  private applyOutgoing(msg: Json, line: number, t: number, unchecked: boolean): void {
    const method = str(msg.method);
    const params = obj(msg.params);
    if (method === undefined) {
      if ('id' in msg) this.incoming.delete(idKey(msg.id));
      return;
    }
    const sessionId = str(params?.sessionId);
    if (!('id' in msg)) {
      if (method === 'session/cancel' && sessionId) {
        const turn = this.session(sessionId).turn;
        if (turn && !turn.cancel) {
          turn.cancel = { t, line };
          this.cancelledTurns++;
        }
      }
      return;
    }
    const updatesBefore = sessionId ? this.conversationUpdatesOf(sessionId) : 0;
    const request: OutgoingRequest = { id: msg.id, method, params, line, t, unchecked, updates: 0, updatesBefore, ...(sessionId ? { sessionId } : {}) };
    this.outgoing.set(idKey(msg.id), request);
    if (method === 'initialize') {
      if (typeof params?.protocolVersion === 'number') this.requestedProtocolVersion = params.protocolVersion;
      const caps = obj(params?.clientCapabilities);
      if (caps) this.clientCapabilities = caps;
    } else if (method === 'session/prompt' && sessionId) {
      const session = this.session(sessionId);
      if (session.turn?.cancel) this.cancelledTurns--;
      session.turn = { prompt: request, reported: new Set() };
      session.ended = undefined;
    } else if (sessionId && (method === 'session/load' || method === 'session/resume')) {
      this.session(sessionId).ended = undefined;
    }
  }

  private applyIncoming(msg: Json, line: number, t: number): void {
    const c = this.current;
    if (c.envelope?.shape === 'request') {
      this.incoming.set(idKey(msg.id), { id: msg.id, method: c.method!, line, t, withdrawn: false, ...(c.sessionId ? { sessionId: c.sessionId } : {}) });
      return;
    }
    if (c.envelope?.shape === 'notification') {
      if (c.method === '$/cancel_request') {
        const pending = this.incoming.get(idKey(c.params?.requestId));
        if (pending) pending.withdrawn = true;
      }
      if (c.method === 'session/update' && c.sessionId) this.applyUpdate(c.sessionId, c.updateKind, c.update);
      return;
    }
    const answered = c.answers;
    if (!answered) return;
    this.outgoing.delete(idKey(msg.id));
    const result = Object.hasOwn(msg, 'error') ? undefined : obj(msg.result) ?? (msg.result === null ? {} : undefined);
    if (answered.method === 'initialize' && result) {
      this.initialize = result;
      this.advertisement.capabilities = obj(result.agentCapabilities) ?? {};
    }
    if (result && ['session/new', 'session/load', 'session/resume', 'session/fork'].includes(answered.method)) {
      if (result.modes !== undefined && result.modes !== null) this.advertisement.modes = true;
      if (Array.isArray(result.configOptions)) this.advertisement.configOptions = true;
      const created = str(result.sessionId);
      if (created) this.session(created);
    }
    if (answered.method === 'session/prompt' && answered.sessionId) {
      const session = this.session(answered.sessionId);
      if (session.turn?.prompt === answered) {
        if (session.turn.cancel) this.cancelledTurns--;
        session.ended = { turn: session.turn, line };
        session.turn = undefined;
      }
    }
  }
}
