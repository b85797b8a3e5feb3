/**
 * One workbench session on an agent connection: opens it (new / load / resume / fork), sends
 * prompts, cancels, changes modes and options, answers permission requests through the broker,
 * and folds every record of the session into its transcript with the one reducer. Subscribers get
 * the reducer's patches synchronously, in record order.
 */
import type {
  AuthMethod,
  ContentBlock,
  CreateElicitationRequest,
  CreateElicitationResponse,
  McpServer,
  PromptResponse,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk/unstable';
import type { ElicitationSchema, ElicitationView } from '../../../common/api/elicitation-types';
import type { SessionStatus, SessionStatusInfo } from '../../../common/api/session-types';
import { newId } from '../../../common/trace/ids';
import type { JsonObject, JsonValue } from '../../../common/trace/json';
import type { JsonRpcId, Lineage, TraceRecord } from '../../../common/trace/records';
import { LiveTranscript } from '../../../common/transcript/live-transcript';
import type { Patch } from '../../../common/transcript/patches';
import type { Transcript } from '../../../common/transcript/model';
import { advertises, CAPABILITY_OF, MethodUnavailableError, unadvertisedContent, type SessionMethod } from '../acp/agent-capabilities';
import { authMethodsOf, describeAuthMethods, isAuthRequiredError } from '../acp/auth-methods';
import type { AgentConnection, SessionReceiver } from '../acp/agent-connection';
import { describeExit, describeRpcError, exitWithin } from '../acp/agent-start-error';
import type { SessionRoots } from '../acp/path-guard';
import { sensitiveFileQuestion, type SensitiveFileAccess, type SensitiveFileVerdict } from '../acp/sensitive-file-gate';
import { SENSITIVE_FILE_OPTIONS, sensitiveFileContext, sensitiveFileToolCall, verdictOf } from './sensitive-file-approval';
import type { ApprovePolicy } from './permission-chain';
import type { ElicitationQueue } from './elicitation-queue';
import type { PermissionBroker } from './permission-broker';
import { ReplayFilter } from './continue-replay';
import { SpillFile } from './spill-file';

/** The user's choices on a session, re-applied when its agent is restarted. */
export interface DesiredSettings {
  modeId?: string;
  modelId?: string;
  config: Record<string, string | boolean>;
}

export type OpenHow = 'new' | 'load' | 'resume' | 'fork';

export interface AgentSessionOptions {
  connection: AgentConnection;
  cwd: string;
  additionalDirectories?: string[];
  mcpServers?: McpServer[];
  broker: PermissionBroker;
  /** Where elicitation requests wait for the user; without one (the CLI) they are declined. */
  elicitations?: ElicitationQueue;
  /** Catalog id (or command) of the agent: "always" answers are remembered per agent. */
  agentId: string;
  policy: ApprovePolicy;
  /** Whether a person can answer permission requests now. */
  interactive: boolean;
  /**
   * fs reads and writes of sensitive files (.env, keys) are allowed without asking: a person said
   * so in advance (`acp-workbench run --allow-sensitive`). Otherwise each needs a person's yes.
   */
  allowSensitiveFiles?: boolean;
  lineage?: Lineage;
  /** A fixed workbench id (tests, imports); a new one otherwise. */
  id?: string;
  /**
   * How long a turn may go on after `session/cancel` before the agent is stopped (an agent that
   * ignores cancel would otherwise hold the session forever). Default 30 s.
   */
  cancelGraceMs?: number;
  /**
   * Records folded into the transcript before any of its own, never traced: the recorded
   * transcript a resume or fork continues from (continue-replay.ts explains why).
   */
  seed?: readonly TraceRecord[];
  /** Keep what `session/load` replays out of the transcript (it starts from `seed`). */
  hideReplay?: boolean;
  /**
   * A folder for the transcript's spill file (entries not recently touched are kept there, not in
   * memory; see common/transcript/live-transcript.ts). Without it every entry stays in memory.
   */
  spillDir?: string;
}

export const DEFAULT_CANCEL_GRACE_MS = 30_000;

export type SessionErrorCode = 'not_advertised' | 'not_open' | 'busy' | 'agent_error' | 'crashed' | 'auth_required';

/** A refused operation, with words for the user. */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly code: SessionErrorCode = 'agent_error',
    /** With `auth_required`: what the agent offers (authenticate with an agent-type one, then open again). */
    readonly authMethods: readonly AuthMethod[] = [],
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

type Listener = (patches: Patch[], record: TraceRecord) => void;

export class AgentSession implements SessionReceiver {
  readonly id: string;
  agentSessionId: string | undefined;
  /** The transcript: recent entries in memory, the others in the spill file (when there is one). */
  readonly live: LiveTranscript;
  private readonly listeners = new Set<Listener>();
  private readonly recordListeners = new Set<(record: TraceRecord) => void>();
  private readonly statusListeners = new Set<(info: SessionStatusInfo) => void>();
  private statusInfo: SessionStatusInfo = { status: 'starting' };
  private pendingPermissions = 0;
  /** session/cancel was sent for the running turn: permission requests still arriving are answered `cancelled`. */
  private cancelling = false;
  /** Fires when the agent ignored session/cancel for the grace period. */
  private cancelTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the agent was stopped for ignoring session/cancel: why, in words. */
  private stoppedAfterCancel: string | undefined;
  private readonly attachment: { dispose(): void };
  private readonly replay: ReplayFilter | undefined;

  constructor(readonly options: AgentSessionOptions) {
    this.id = options.id ?? newId();
    this.live = new LiveTranscript(options.spillDir ? { cold: new SpillFile(options.spillDir, `transcript-${process.pid}-${this.id}.jsonl`) } : {});
    for (const r of options.seed ?? []) this.live.push(r);
    this.replay = options.hideReplay ? new ReplayFilter() : undefined;
    this.attachment = options.connection.attach(this.id, this);
    void options.connection.process.exited.then((exit) => {
      if (this.statusInfo.status === 'closed') return;
      if (options.connection.stopping) {
        this.setStatus({ status: 'closed', reason: 'The agent was stopped.' });
        return;
      }
      this.setStatus({ status: 'crashed', reason: `The agent exited (${describeExit(exit)}).`, stderrTail: options.connection.stderrTail(20) });
    });
  }

  get connection(): AgentConnection {
    return this.options.connection;
  }

  /** The whole transcript (cold entries are read back when its `entries` are used): not for hot paths, see `live`. */
  get transcript(): Transcript {
    return this.live.transcript;
  }

  get status(): SessionStatusInfo {
    return this.statusInfo;
  }

  /** Patches as they happen (synchronously, in record order). */
  onPatches(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  onRecord(listener: (record: TraceRecord) => void): { dispose(): void } {
    this.recordListeners.add(listener);
    return { dispose: () => void this.recordListeners.delete(listener) };
  }

  onStatus(listener: (info: SessionStatusInfo) => void): { dispose(): void } {
    this.statusListeners.add(listener);
    return { dispose: () => void this.statusListeners.delete(listener) };
  }

  // SessionReceiver: records of this session and of the connection, in order.
  receive(record: TraceRecord): void {
    const patches = this.replay?.skip(record) ? [] : this.live.push(record);
    for (const l of this.recordListeners) l(record);
    if (patches.length) for (const l of this.listeners) l(patches, record);
  }

  roots(): SessionRoots {
    return { cwd: this.options.cwd, additionalDirectories: this.options.additionalDirectories ?? [] };
  }

  /** Open the session: `new`, or `load` / `resume` / `fork` of an agent session id. */
  async open(how: OpenHow = 'new', agentSessionId?: string): Promise<void> {
    const conn = this.connection;
    const init = conn.init;
    if (!init) throw new SessionError('The agent is not initialized', 'not_open');
    const method = `session/${how}` as 'session/new' | SessionMethod;
    if (how !== 'new') {
      if (!advertises(init, method as SessionMethod)) {
        throw new SessionError(`${conn.label} does not advertise ${method} (${CAPABILITY_OF[method as SessionMethod]})`, 'not_advertised');
      }
      if (!agentSessionId) throw new SessionError(`${method} needs the agent's session id`, 'not_open');
    }
    const params: Record<string, unknown> = { cwd: this.options.cwd, mcpServers: this.options.mcpServers ?? [] };
    if (agentSessionId) params.sessionId = agentSessionId;
    if (this.options.additionalDirectories?.length) params.additionalDirectories = this.options.additionalDirectories;
    conn.expectOpening(this.id);
    if (how === 'load' || how === 'resume') this.bind(agentSessionId!);
    let result: { sessionId?: string } | null;
    try {
      result = await conn.request<{ sessionId?: string } | null>(method, params);
    } catch (err) {
      // The agent is still there (a dead one is reported by the exit listener): the session can be
      // opened again, e.g. after authenticate, so it is not marked crashed.
      this.setStatus({ status: 'starting', reason: `${method} failed: ${describeRpcError(err)}`, stderrTail: conn.stderrTail(20) });
      if (err instanceof MethodUnavailableError) throw new SessionError(err.message, 'not_advertised');
      if (isAuthRequiredError(err)) {
        const methods = authMethodsOf(init);
        throw new SessionError(
          `${conn.label} needs you to log in first: ${method} answered ${describeRpcError(err)}. Authentication methods: ${describeAuthMethods(methods)}`,
          'auth_required',
          methods,
        );
      }
      throw new SessionError(`${conn.label}: ${method} failed: ${describeRpcError(err)}`);
    }
    const bound = how === 'new' || how === 'fork' ? result?.sessionId : agentSessionId;
    if (!bound) throw new SessionError(`${conn.label}: ${method} answered without a sessionId`);
    this.bind(bound);
    const action = ({ new: 'created', load: 'loaded', resume: 'resumed', fork: 'forked' } as const)[how];
    conn.record({
      kind: 'session',
      t: conn.clock.now(),
      action,
      sessionId: this.id,
      agentSessionId: bound,
      cwd: this.options.cwd,
      ...(this.options.lineage ? { lineage: this.options.lineage } : {}),
    });
    this.setStatus({ status: 'ready' });
  }

  /** Send a prompt and wait for the turn to end. Content the agent did not advertise is refused before sending. */
  async prompt(prompt: ContentBlock[]): Promise<PromptResponse> {
    const conn = this.connection;
    if (!this.agentSessionId) throw new SessionError('The session is not open', 'not_open');
    if (this.statusInfo.status === 'prompting' || this.statusInfo.status === 'waiting') throw new SessionError('A turn is already running', 'busy');
    if (this.statusInfo.status === 'crashed') throw new SessionError(`${conn.label} is not running: ${this.statusInfo.reason ?? ''}`, 'crashed');
    const refused = unadvertisedContent(conn.init!, prompt);
    if (refused.length) {
      throw new SessionError(`${conn.label} does not accept ${refused.join(', ')} content in prompts (agentCapabilities.promptCapabilities)`, 'not_advertised');
    }
    this.setStatus({ status: 'prompting' });
    this.cancelling = false;
    try {
      const response = await conn.request<PromptResponse>('session/prompt', { sessionId: this.agentSessionId, prompt });
      this.setStatus({ status: response.stopReason === 'cancelled' ? 'cancelled' : 'ready' });
      return response;
    } catch (err) {
      if (this.stoppedAfterCancel) throw new SessionError(this.stoppedAfterCancel, 'agent_error');
      // A dead agent closes stdout a moment before its exit status is known: give the exit a
      // moment so the error says "exited with code 3" rather than "connection closed".
      // An error answer (it has a code) comes from a live agent: no need to wait.
      const exit = typeof (err as { code?: unknown }).code === 'number' ? conn.process.exitInfo : await exitWithin(conn.process, 2000);
      if (exit) {
        const how = describeExit(exit);
        this.setStatus({ status: 'crashed', reason: `The agent exited (${how}).`, stderrTail: conn.stderrTail(20) });
        throw new SessionError(`${conn.label} exited during the turn (${how})`, 'crashed');
      }
      this.setStatus({ status: 'ready', reason: describeRpcError(err) });
      throw new SessionError(`${conn.label}: the turn failed: ${describeRpcError(err)}`);
    } finally {
      this.cancelling = false;
      clearTimeout(this.cancelTimer);
      this.cancelTimer = undefined;
      conn.trace.flushSoon();
    }
  }

  /** `session/cancel`, and every pending permission request of the session answered `cancelled` at once. */
  async cancel(by = 'user'): Promise<void> {
    if (!this.agentSessionId) return;
    const conn = this.connection;
    conn.record({ kind: 'cancel', t: conn.clock.now(), sessionId: this.id, agentSessionId: this.agentSessionId, by });
    if (this.turnRunning) {
      this.cancelling = true;
      this.cancelTimer ??= setTimeout(() => this.stopIgnoredCancel(), this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS);
      this.cancelTimer.unref?.();
    }
    await conn.notify('session/cancel', { sessionId: this.agentSessionId }).catch(() => undefined);
    this.options.broker.queue.cancelSession(this.id);
    this.options.elicitations?.cancelSession(this.id);
  }

  async setMode(modeId: string): Promise<void> {
    await this.agentRequest('session/set_mode', { modeId });
    this.desired.modeId = modeId;
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const params = typeof value === 'boolean' ? { configId, type: 'boolean', value } : { configId, value };
    await this.agentRequest('session/set_config_option', params);
    this.desired.config[configId] = value;
  }

  /** Legacy: only for agents that still answer with a `models` block and no model config option. */
  async setModel(modelId: string): Promise<void> {
    await this.agentRequest('session/set_model', { modelId });
    this.desired.modelId = modelId;
  }

  /**
   * What the user chose for this session (mode, model, config options), in the order chosen, so a
   * restarted agent can be put back the way the user had it.
   */
  readonly desired: DesiredSettings = { config: {} };

  /** `session/close` when advertised; the session's runtime is detached either way. */
  async close(): Promise<void> {
    if (this.statusInfo.status === 'closed') {
      this.live.dispose();
      return;
    }
    const conn = this.connection;
    // session/close cancels a running turn itself; without it, the turn is cancelled first.
    const closeAdvertised = Boolean(conn.init && advertises(conn.init, 'session/close'));
    if (this.turnRunning && !closeAdvertised && !conn.process.exitInfo) await this.cancel('close');
    if (this.agentSessionId && closeAdvertised && !conn.process.exitInfo) {
      await conn.request('session/close', { sessionId: this.agentSessionId }).catch(() => undefined);
    }
    this.options.broker.queue.cancelSession(this.id);
    this.options.elicitations?.cancelSession(this.id);
    this.setStatus({ status: 'closed' });
    this.attachment.dispose();
    this.live.dispose();
  }

  // SessionHandlers: a permission request of this session.
  async requestPermission(params: RequestPermissionRequest, signal: AbortSignal, requestId?: JsonRpcId): Promise<RequestPermissionResponse> {
    if (this.cancelling) return this.answerCancelled(requestId);
    const conn = this.connection;
    const known = this.knownToolCall(params.toolCall.toolCallId);
    const toolCall: ToolCallUpdate = { ...known, ...params.toolCall };
    this.pendingPermissions++;
    if (this.statusInfo.status === 'prompting') this.setStatus({ status: 'waiting' });
    try {
      const { response, decision } = await this.options.broker.request(
        {
          sessionId: this.id,
          agentId: this.options.agentId,
          toolCall,
          options: params.options,
          interactive: this.options.interactive,
          policy: this.options.policy,
          cwd: this.options.cwd,
        },
        { ...(requestId !== undefined ? { key: `${this.id}:${String(requestId)}` } : {}), signal },
      );
      conn.record({
        kind: 'permission-decided',
        t: conn.clock.now(),
        sessionId: this.id,
        ...(this.agentSessionId ? { agentSessionId: this.agentSessionId } : {}),
        requestId: requestId ?? null,
        outcome: response.outcome.outcome,
        ...(response.outcome.outcome === 'selected' ? { optionId: response.outcome.optionId } : {}),
        by: decision.automatic ? decision.decidedBy.split(':')[0]! : decision.decidedBy,
        ...(decision.automatic ? { rule: decision.decidedBy } : {}),
      });
      return response;
    } finally {
      this.pendingPermissions--;
      if (this.pendingPermissions === 0 && this.statusInfo.status === 'waiting') this.setStatus({ status: 'prompting' });
    }
  }

  // SessionHandlers: an fs read or write of a sensitive file (sensitive-file-gate.ts) needs a
  // person's yes, whatever the policy: asked through the queue, recorded like a permission request.
  async approveSensitiveFile(access: SensitiveFileAccess, signal: AbortSignal, requestId: JsonRpcId = null): Promise<SensitiveFileVerdict> {
    const conn = this.connection;
    const toolCall = sensitiveFileToolCall(access, requestId ?? newId());
    const ids = { sessionId: this.id, ...(this.agentSessionId ? { agentSessionId: this.agentSessionId } : {}), requestId };
    const options = [...SENSITIVE_FILE_OPTIONS];
    conn.record({ kind: 'permission-asked', t: conn.clock.now(), ...ids, toolCallId: toolCall.toolCallId, toolCall: toolCall as JsonObject, options: options as unknown as JsonValue[], context: sensitiveFileContext(access) as unknown as JsonValue[] });
    const decide = (outcome: RequestPermissionOutcome, by: string, rule?: string): SensitiveFileVerdict => {
      conn.record({
        kind: 'permission-decided',
        t: conn.clock.now(),
        ...ids,
        outcome: outcome.outcome,
        ...(outcome.outcome === 'selected' ? { optionId: outcome.optionId } : {}),
        by,
        ...(rule ? { rule } : {}),
      });
      const verdict = verdictOf(outcome, rule ?? by);
      return !verdict.allowed && rule === 'sensitive-path:non-interactive' ? { ...verdict, refusal: 'no-person' } : verdict;
    };
    if (this.cancelling) return decide({ outcome: 'cancelled' }, 'session-cancel');
    if (this.options.allowSensitiveFiles) return decide({ outcome: 'selected', optionId: 'allow-once' }, 'policy', 'policy:allow-sensitive');
    if (!this.options.interactive) return decide({ outcome: 'selected', optionId: 'reject-once' }, 'sensitive-path', 'sensitive-path:non-interactive');
    this.pendingPermissions++;
    if (this.statusInfo.status === 'prompting') this.setStatus({ status: 'waiting' });
    try {
      const decision = await this.options.broker.askPerson(
        { sessionId: this.id, toolCall, options },
        {
          ...(requestId !== null ? { key: `${this.id}:${String(requestId)}` } : {}),
          signal,
          context: { askedBecause: 'sensitive-file', reason: sensitiveFileQuestion(access), sensitivePaths: [access.path] },
        },
      );
      return decide(decision.outcome, decision.decidedBy);
    } finally {
      this.pendingPermissions--;
      if (this.pendingPermissions === 0 && this.statusInfo.status === 'waiting') this.setStatus({ status: 'prompting' });
    }
  }

  // SessionHandlers: the agent asks the user for structured input.
  async requestElicitation(params: CreateElicitationRequest, signal: AbortSignal, requestId?: JsonRpcId): Promise<CreateElicitationResponse> {
    const queue = this.options.elicitations;
    if (!queue || this.cancelling) return { action: 'cancel' };
    const p = params as unknown as Record<string, unknown>;
    const view: ElicitationView = {
      key: `${this.id}:${String(requestId ?? newId())}`,
      sessionId: this.id,
      mode: p.mode === 'url' ? 'url' : 'form',
      message: typeof p.message === 'string' ? p.message : '',
      ...(p.requestedSchema && typeof p.requestedSchema === 'object' ? { requestedSchema: p.requestedSchema as ElicitationSchema } : {}),
      ...(typeof p.url === 'string' ? { url: p.url } : {}),
      ...(typeof p.elicitationId === 'string' ? { elicitationId: p.elicitationId } : {}),
      ...(typeof p.toolCallId === 'string' ? { toolCallId: p.toolCallId } : {}),
    };
    this.pendingPermissions++;
    if (this.statusInfo.status === 'prompting') this.setStatus({ status: 'waiting' });
    try {
      return (await queue.ask(view, signal)) as CreateElicitationResponse;
    } finally {
      this.pendingPermissions--;
      if (this.pendingPermissions === 0 && this.statusInfo.status === 'waiting') this.setStatus({ status: 'prompting' });
    }
  }

  /** The turn outlived session/cancel by the grace period: stop the agent, and say why (§17.2). */
  private stopIgnoredCancel(): void {
    this.cancelTimer = undefined;
    if (!this.turnRunning) return;
    const conn = this.connection;
    const graceS = (this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS) / 1000;
    const reason = `${conn.label} did not end the turn within ${graceS} s of session/cancel and was stopped.`;
    this.stoppedAfterCancel = reason;
    conn.notice('error', reason, this.id);
    this.setStatus({ status: 'closed', reason, stderrTail: conn.stderrTail(20) });
    void conn.close();
  }

  private get turnRunning(): boolean {
    return this.statusInfo.status === 'prompting' || this.statusInfo.status === 'waiting';
  }

  /** A permission request that arrives after session/cancel: nobody is asked (§17.2). */
  private answerCancelled(requestId: JsonRpcId | undefined): RequestPermissionResponse {
    const conn = this.connection;
    conn.record({
      kind: 'permission-decided',
      t: conn.clock.now(),
      sessionId: this.id,
      ...(this.agentSessionId ? { agentSessionId: this.agentSessionId } : {}),
      requestId: requestId ?? null,
      outcome: 'cancelled',
      by: 'session-cancel',
    });
    return { outcome: { outcome: 'cancelled' } };
  }

  private async agentRequest(method: string, fields: Record<string, unknown>): Promise<unknown> {
    if (!this.agentSessionId) throw new SessionError('The session is not open', 'not_open');
    try {
      return await this.connection.request(method, { sessionId: this.agentSessionId, ...fields });
    } catch (err) {
      if (err instanceof MethodUnavailableError) throw new SessionError(err.message, 'not_advertised');
      throw new SessionError(`${this.connection.label}: ${method} failed: ${describeRpcError(err)}`);
    }
  }

  private knownToolCall(toolCallId: string): Partial<ToolCallUpdate> {
    const entry = this.live.toolCallEntry(toolCallId);
    if (!entry) return {};
    return {
      title: entry.title,
      kind: entry.toolKind as ToolCallUpdate['kind'],
      ...(entry.locations.length ? { locations: entry.locations } : {}),
      ...(entry.content.length ? { content: entry.content as ToolCallUpdate['content'] } : {}),
      ...(entry.rawInput !== undefined ? { rawInput: entry.rawInput } : {}),
    };
  }

  private bind(agentSessionId: string): void {
    this.agentSessionId = agentSessionId;
    this.connection.bindAgentSession(agentSessionId, this.id);
  }

  private setStatus(info: SessionStatusInfo): void {
    if (this.statusInfo.status === 'closed') return;
    if (this.statusInfo.status === 'crashed' && info.status !== 'closed') return;
    this.statusInfo = info;
    for (const l of this.statusListeners) l(info);
  }
}

export type { SessionStatus };
