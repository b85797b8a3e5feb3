/**
 * One agent connection: the agent process, its trace, the line tap in front of the ACP SDK, and
 * the client-side handlers. Every line in and out, every stderr line and every workbench event
 * becomes a trace record here — tagged with its session, written to the trace, then handed to the
 * session runtimes in the same synchronous step, so the trace and what the user sees never
 * disagree about order.
 */
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { InitializeResponse, ListSessionsResponse } from '@agentclientprotocol/sdk/unstable';
import { createTraceClock, type TraceClock } from '../../../common/trace/clock';
import { newId } from '../../../common/trace/ids';
import type { JsonObject } from '../../../common/trace/json';
import { describeLaunch } from '../../../common/trace/launch-spec';
import type { Lineage, TraceRecord } from '../../../common/trace/records';
import { TraceWriter } from '../history/trace-writer';
import { advertises, MethodUnavailableError, type SessionMethod } from './agent-capabilities';
import { AgentProcess, AgentSpawnError } from './agent-process';
import { authMethodsOf, describeAuthMethods, isAgentAuthMethod } from './auth-methods';
import { AgentStartError, describeExit, describeRpcError, exitWithin } from './agent-start-error';
import { clientCapabilities, DEFAULT_CAPABILITY_SWITCHES, type ClientCapabilitySwitches } from './client-capabilities';
import { installClientHandlers, type ClientRequestInterceptor, type SessionHandlers } from './client-handlers';
import { FsAccess } from './fs-access';
import { applyIngestHeapGrowth } from './heap-growth';
import { createMessageStream, type AgentMessageStream } from './message-stream';
import type { RootsProvider, SessionRoots } from './path-guard';
import { ProcessRegistry } from './process-registry';
import { loadSdk, type Sdk } from './sdk-runtime';
import { SessionRouter } from './session-router';
import { TerminalManager } from './terminals';

export const PROTOCOL_VERSION = 1;

export interface ConnectionOptions {
  command: string;
  args?: readonly string[];
  /** Where the agent process starts (sessions name their own cwd). */
  cwd: string;
  /** The agent's whole environment. */
  env: NodeJS.ProcessEnv;
  /** Env names whose values are secret (the secret store's): redacted in the trace header. */
  secretEnvNames?: readonly string[];
  /** Shown in errors and recorded in the trace header. */
  agent?: { id?: string; name?: string; label?: string };
  dataDir: string;
  switches?: Partial<ClientCapabilitySwitches>;
  lineage?: Lineage;
  host?: string;
  startupTimeoutMs?: number;
  maxLineBytes?: number;
  /** Grace periods when stopping the agent. */
  stop?: { stdinGraceMs?: number; termGraceMs?: number };
}

/** A session runtime attached to the connection: receives its records, answers its requests. */
export interface SessionReceiver extends SessionHandlers {
  receive(record: TraceRecord): void;
  roots(): SessionRoots;
}

/** Where a record's line lies in the trace file (bytes, the newline included). */
export interface TraceSpan {
  offset: number;
  length: number;
}

/**
 * A listener of every record of a connection: `line` is the record's line in the trace file
 * (1 = the header); `msgBytes` the agent's own bytes of an incoming wire line, when kept (a view of
 * the agent's reused read buffer: valid only during the call, copy what must live longer); `span`
 * where the line is in the file (absent when the trace was already closed and nothing was written).
 */
export type RecordListener = (record: TraceRecord, line: number, msgBytes?: Uint8Array, span?: TraceSpan) => void;

/** Agent methods that answered -32601: we do not ask again. */
const METHOD_NOT_FOUND = -32601;

/**
 * Trace backpressure: past this many bytes not yet written, the agent's stdout is not read until
 * the writer is down to the low mark. An agent faster than the disk then waits instead of the
 * workbench holding its output in memory (the trace must have every line, so nothing is dropped).
 * Per connection: 4 agents flooding a disk that falls behind hold ≈ 10 MiB (up to 64 MiB at the
 * 16 MiB mark used until issue #11's twentieth pass: a flood four times the benchmark's length
 * ended with 30 MiB of trace blocks in memory). A writer flushes from 1 MiB on (FLUSH_AT_BYTES), so
 * a disk that keeps up does not reach the mark; one that does not sets the pace either way.
 */
export const TRACE_HIGH_WATER_BYTES = 2 * 1024 * 1024;
export const TRACE_LOW_WATER_BYTES = 512 * 1024;

export class AgentConnection {
  /** Open holds on reading the agent's stdout (holdInput). */
  private inputHolds = 0;
  readonly id: string;
  readonly label: string;
  readonly switches: ClientCapabilitySwitches;
  init: InitializeResponse | undefined;
  private readonly router = new SessionRouter();
  private readonly receivers = new Map<string, SessionReceiver>();
  private readonly byAgentSession = new Map<string, SessionReceiver>();
  /** Connection-wide records so far, replayed to sessions attached later (stderr kept short). */
  private readonly shared: TraceRecord[] = [];
  private readonly unsupported = new Set<string>();
  private readonly uncheckedMethods: string[] = [];
  private readonly recordListeners = new Set<RecordListener>();
  /** Trace lines so far (line 1 is the header). */
  private traceLines = 1;
  /** A trace write failed and none has gone through since (traceFailed). */
  private traceFailing = false;
  /** QA fault rules and manual answers: asked first about every request from the agent (see client-handlers). */
  faults: ClientRequestInterceptor | undefined;
  private conn: acp.ClientConnection | undefined;
  private stream: AgentMessageStream | undefined;
  private closing: Promise<void> | undefined;
  readonly fs: FsAccess;
  readonly terminals: TerminalManager;
  readonly clock: TraceClock;

  private constructor(
    readonly options: ConnectionOptions,
    readonly process: AgentProcess,
    readonly trace: TraceWriter,
    clock: TraceClock,
    readonly registry: ProcessRegistry,
  ) {
    this.id = trace.path.replace(/^.*[/\\]/, '').replace(/\.jsonl$/, '');
    this.label = options.agent?.label ?? options.agent?.name ?? options.command;
    this.switches = { ...DEFAULT_CAPABILITY_SWITCHES, ...options.switches };
    this.clock = clock;
    const roots: RootsProvider = (agentSessionId) => this.byAgentSession.get(agentSessionId)?.roots();
    this.fs = new FsAccess({
      roots,
      onWrite: (w) =>
        this.record({
          kind: 'fs-write',
          t: this.clock.now(),
          agentSessionId: w.sessionId,
          path: w.path,
          oldText: w.oldText,
          newText: w.newText,
          ...(w.requestId !== undefined ? { requestId: w.requestId } : {}),
        }),
      // The wire answer says it too, but a refusal is a safety event the user should see as such.
      onRefusal: (r) => {
        if (r.reason === 'not_found') return; // a read of a missing file is ordinary, not a refusal
        this.record({
          kind: 'notice',
          t: this.clock.now(),
          agentSessionId: r.sessionId,
          severity: 'warning',
          message: `Refused ${r.method} for ${r.path}: ${r.message} (${r.reason})`,
        });
      },
    });
    this.terminals = new TerminalManager({
      roots,
      baseEnv: options.env,
      onProcessStarted: (pid, command) => this.registry.register({ pid, command, kind: 'terminal' }),
      onCreate: (t) =>
        this.record({ kind: 'terminal', t: this.clock.now(), agentSessionId: t.sessionId, terminalId: t.terminalId, action: 'created', command: t.command, args: t.args, cwd: t.cwd }),
      onExit: (terminalId, exit) => this.recordTerminal(terminalId, 'exited', exit),
      onRelease: (terminalId) => this.recordTerminal(terminalId, 'released'),
    });
  }

  /** Spawn the agent and open its trace. Fails with an AgentStartError that names the agent. */
  static async start(options: ConnectionOptions): Promise<AgentConnection> {
    // Every process that reads agents' output keeps its old generation close to what is alive.
    applyIngestHeapGrowth();
    const connectionId = newId();
    const clock = createTraceClock();
    const args = options.args ?? [];
    const switches = { ...DEFAULT_CAPABILITY_SWITCHES, ...options.switches };
    // The connection is made after its trace: a failed write reaches it once it exists.
    let made: AgentConnection | undefined;
    const trace = await TraceWriter.open(join(options.dataDir, 'traces', `${connectionId}.jsonl`), {
      kind: 'header',
      format: 'acp-workbench-trace',
      version: 1,
      connectionId,
      startedAt: clock.startedAt,
      startedAtMs: clock.startedAtMs,
      workbench: { version: __WORKBENCH_VERSION__, ...(options.host ? { host: options.host } : {}) },
      ...(options.agent ? { agent: { ...(options.agent.id ? { id: options.agent.id } : {}), ...(options.agent.name ? { name: options.agent.name } : {}) } } : {}),
      launch: describeLaunch({ command: options.command, args, cwd: options.cwd, env: options.env, ...(options.secretEnvNames ? { secretNames: options.secretEnvNames } : {}) }),
      clientCapabilities: clientCapabilities(switches) as unknown as JsonObject,
      ...(options.lineage ? { lineage: options.lineage } : {}),
    }, { onError: (err) => made?.traceFailed(err), onRecovered: () => made?.traceRecovered() });
    const registry = new ProcessRegistry(options.dataDir);
    const child = new AgentProcess({ command: options.command, args, env: options.env, cwd: options.cwd }, { registry });
    const connection = new AgentConnection(options, child, trace, clock, registry);
    made = connection;
    connection.wire();
    // The SDK evaluates (the first time) while the agent's own process starts (sdk-runtime.ts);
    // once loaded, the client app connects at the next microtask, before the spawn is confirmed.
    const sdkConnected = loadSdk().then((sdk) => connection.connectSdk(sdk));
    sdkConnected.catch(() => undefined); // awaited below, unless the spawn failed
    try {
      await child.spawned;
    } catch (err) {
      const message = err instanceof AgentSpawnError ? err.message : String(err);
      connection.record({ kind: 'spawn', t: clock.now(), error: { message, ...(err instanceof AgentSpawnError && err.code ? { code: err.code } : {}) } });
      await trace.close();
      throw new AgentStartError(connection.label, 'spawn', message);
    }
    connection.record({ kind: 'spawn', t: clock.now(), ...(child.pid !== undefined ? { pid: child.pid } : {}) });
    try {
      await sdkConnected;
    } catch (err) {
      await connection.close();
      throw err;
    }
    return connection;
  }

  /** `initialize` with protocol version 1 and exactly the capabilities we implement. */
  async initialize(): Promise<InitializeResponse> {
    const timeoutMs = this.options.startupTimeoutMs ?? 60_000;
    const request = this.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: clientCapabilities(this.switches),
      clientInfo: { name: 'acp-workbench', title: 'ACP Workbench', version: __WORKBENCH_VERSION__ },
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AgentStartError(this.label, 'timeout', `no answer to initialize within ${timeoutMs / 1000} s`, this.process.stderrTail(20))), timeoutMs);
    });
    const exited = this.process.exited.then((exit) => {
      throw new AgentStartError(this.label, 'exited', describeExit(exit), this.process.stderrTail(20));
    });
    try {
      const init = await Promise.race([request, timeout, exited]);
      if (init.protocolVersion !== PROTOCOL_VERSION) {
        this.notice('error', `The agent answered protocol version ${String(init.protocolVersion)}; the workbench speaks ${PROTOCOL_VERSION}. Disconnected.`);
        void this.close();
        throw new AgentStartError(this.label, 'protocol-version', `it answered version ${String(init.protocolVersion)}, the workbench speaks ${PROTOCOL_VERSION}`);
      }
      this.init = init;
      return init;
    } catch (err) {
      if (err instanceof AgentStartError) throw err;
      // A dying agent closes stdout a moment before its exit status is known, and the SDK then
      // rejects with a bare "connection closed": wait for the exit so the error says how it died.
      const exit = typeof (err as { code?: unknown }).code === 'number' ? undefined : await exitWithin(this.process, 2000);
      if (exit) throw new AgentStartError(this.label, 'exited', describeExit(exit), this.process.stderrTail(20));
      throw new AgentStartError(this.label, 'initialize', describeRpcError(err), this.process.stderrTail(20));
    } finally {
      clearTimeout(timer);
    }
  }

  /** The SDK's context for calling agent methods (typed for the methods of the spec). */
  get agent(): acp.ClientContext {
    if (!this.conn) throw new Error('connection not wired');
    return this.conn.agent;
  }

  get closed(): Promise<void> {
    return this.conn!.closed;
  }

  /** close() was called: an exit from now on is expected, not a crash. */
  get stopping(): boolean {
    return this.closing !== undefined;
  }

  isUnsupported(method: string): boolean {
    return this.unsupported.has(method);
  }

  /** Send a request; a -32601 answer is remembered, and the method is refused from then on. */
  async request<R = unknown>(method: string, params: unknown, options?: acp.SendRequestOptions): Promise<R> {
    if (this.unsupported.has(method)) throw new MethodUnavailableError(this.label, method, 'unsupported');
    try {
      return await this.agent.request<R>(method, params, options);
    } catch (err) {
      if ((err as { code?: number }).code === METHOD_NOT_FOUND) this.unsupported.add(method);
      throw err;
    }
  }

  /**
   * Send what the agent did not advertise (used only by `check` and the raw request composer);
   * the wire record says so.
   */
  requestUnchecked<R = unknown>(method: string, params: unknown, options: { again?: boolean } = {}): Promise<R> {
    // `again` (the composer): send even a method the agent already answered -32601.
    if (this.unsupported.has(method) && !options.again) return Promise.reject(new MethodUnavailableError(this.label, method, 'unsupported'));
    this.uncheckedMethods.push(method);
    return options.again ? this.agent.request<R>(method, params) : this.request<R>(method, params);
  }

  /**
   * `authenticate` with one of the agent's `agent`-type methods. Terminal-type methods are a login
   * the user runs in a terminal (then the agent is restarted); they are never sent here.
   */
  async authenticate(methodId: string): Promise<void> {
    const methods = authMethodsOf(this.init);
    const method = methods.find((m) => m.id === methodId);
    if (!method) throw new Error(`${this.label} has no authentication method "${methodId}"; it offers: ${describeAuthMethods(methods)}`);
    if (!isAgentAuthMethod(method)) {
      throw new Error(`${this.label}: "${methodId}" is a ${String((method as { type?: unknown }).type)} login, run outside the connection; it cannot be sent to authenticate`);
    }
    await this.request('authenticate', { methodId });
  }

  /** `session/list` (one page), only when advertised. */
  async listSessions(params: { cwd?: string; cursor?: string } = {}): Promise<ListSessionsResponse> {
    this.requireAdvertised('session/list');
    return this.request<ListSessionsResponse>('session/list', params);
  }

  /** `session/delete` of an agent session id, only when advertised. */
  async deleteSession(agentSessionId: string): Promise<void> {
    this.requireAdvertised('session/delete');
    await this.request('session/delete', { sessionId: agentSessionId });
  }

  requireAdvertised(method: SessionMethod): void {
    if (!this.init) throw new Error(`${this.label} is not initialized`);
    if (!advertises(this.init, method)) throw new MethodUnavailableError(this.label, method, 'not_advertised');
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.agent.notify(method, params);
  }

  /** A session runtime wants its records: it gets the connection-wide ones so far, then its own. */
  attach(sessionId: string, receiver: SessionReceiver): { dispose(): void } {
    this.receivers.set(sessionId, receiver);
    for (const r of this.shared) receiver.receive(r);
    return { dispose: () => void this.receivers.delete(sessionId) };
  }

  /** The next session/new|load|resume|fork we send opens this workbench session. */
  expectOpening(sessionId: string): void {
    this.router.expectOpening(sessionId);
  }

  /** Bind an agent session id to its runtime (for fs roots and client requests). */
  bindAgentSession(agentSessionId: string, sessionId: string): void {
    this.router.bind(agentSessionId, sessionId);
    const receiver = this.receivers.get(sessionId);
    if (receiver) this.byAgentSession.set(agentSessionId, receiver);
  }

  receiverForAgentSession(agentSessionId: string): SessionReceiver | undefined {
    const known = this.byAgentSession.get(agentSessionId);
    if (known) return known;
    const sessionId = this.router.sessionOf(agentSessionId);
    const receiver = sessionId !== undefined ? this.receivers.get(sessionId) : undefined;
    if (receiver) this.byAgentSession.set(agentSessionId, receiver);
    return receiver;
  }

  /**
   * Write a workbench event (or any record) to the trace and to the sessions it concerns.
   * `msgBytes`: for a wire record, the UTF-8 JSON text of `msg` (see TraceWriter.append).
   */
  record(record: TraceRecord, msgBytes?: Uint8Array): void {
    const route = this.router.route(record);
    const offset = this.trace.bytesAppended;
    if (!this.trace.closed) this.trace.append(record, msgBytes);
    const line = ++this.traceLines;
    if (this.recordListeners.size) {
      const length = this.trace.bytesAppended - offset;
      this.tellRecordListeners(record, line, msgBytes, length > 0 ? { offset, length } : undefined);
    }
    if (route.to === 'held') return;
    if (route.to === 'all') {
      this.keepShared(record);
      for (const receiver of this.receivers.values()) receiver.receive(record);
      return;
    }
    const receiver = this.receivers.get(route.sessionId);
    if (!receiver) return;
    for (const r of route.before ?? []) receiver.receive(r);
    receiver.receive(record);
  }

  /**
   * Every record of the connection from now on, in order, right after it is written to the trace
   * (the inspector and the live conformance report). A listener that throws does not stop the
   * others, nor the wire.
   */
  onRecord(listener: RecordListener): { dispose(): void } {
    this.recordListeners.add(listener);
    return { dispose: () => void this.recordListeners.delete(listener) };
  }

  /**
   * The trace could not be written (disk full, folder gone or not writable): said once in every
   * session of the connection, with what happens meanwhile and what to do. The writer keeps the
   * lines and tries again by itself; the agent is paused at the backpressure mark.
   */
  private traceFailed(err: Error): void {
    if (this.traceFailing) return;
    this.traceFailing = true;
    this.notice(
      'error',
      `The session's record cannot be written (${err.message}) to ${this.trace.path}. What the agent sends is kept in memory and written as soon as the disk takes it; ` +
        `once ${TRACE_HIGH_WATER_BYTES / (1024 * 1024)} MiB wait, the agent is paused. Free some disk space or make the folder writable: nothing is lost meanwhile.`,
    );
  }

  private traceRecovered(): void {
    if (!this.traceFailing) return;
    this.traceFailing = false;
    this.notice('info', "The session's record is written again: everything the agent sent meanwhile is in it, and the agent goes on.");
  }

  notice(severity: 'info' | 'warning' | 'error', message: string, sessionId?: string): void {
    this.record({ kind: 'notice', t: this.clock.now(), severity, message, ...(sessionId ? { sessionId } : {}) });
  }

  /**
   * Stop reading the agent's stdout until the returned release is called: backpressure from
   * whoever consumes its output (the trace writer, `run`'s stdout). Holds nest; reading resumes
   * when the last one is released. The agent's writes then block in its own pipe, nothing is lost.
   */
  holdInput(): () => void {
    if (this.inputHolds++ === 0) this.process.pauseStdout();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.inputHolds === 0) this.process.resumeStdout();
    };
  }

  stderrTail(lines = 20): string[] {
    return this.process.stderrTail(lines);
  }

  /**
   * Stop the agent (stdin EOF, SIGTERM, SIGKILL to its group), its terminals, and close the trace.
   * Resolves once the process registry's file no longer lists them, so nothing is written in the
   * data folder afterwards (one removed right after a close raced with that write).
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.terminals.disposeAll();
      const exit = await this.process.stop(this.options.stop ?? {});
      this.conn?.close();
      this.stream?.dispose();
      void exit;
      await this.trace.close();
      await this.registry.flushed();
    })();
    return this.closing;
  }

  /** Terminal ends carry the output so far, so a rebuilt transcript shows what the user saw. */
  private recordTerminal(terminalId: string, action: 'exited' | 'released', exit?: { exitCode: number | null; signal: string | null }): void {
    const snap = this.terminals.snapshot(terminalId);
    this.record({
      kind: 'terminal',
      t: this.clock.now(),
      ...(snap ? { agentSessionId: snap.info.sessionId, output: snap.output, truncated: snap.truncated } : {}),
      terminalId,
      action,
      ...(exit ? { exitCode: exit.exitCode, signal: exit.signal } : {}),
    });
  }

  private tellRecordListeners(record: TraceRecord, line: number, msgBytes: Uint8Array | undefined, span: TraceSpan | undefined): void {
    for (const listener of this.recordListeners) {
      try {
        listener(record, line, msgBytes, span);
      } catch {
        // An observer's bug must not stop the wire or the sessions.
      }
    }
  }

  private keepShared(record: TraceRecord): void {
    if (record.kind === 'stderr') {
      const stderrCount = this.shared.reduce((n, r) => n + (r.kind === 'stderr' ? 1 : 0), 0);
      if (stderrCount >= 50) {
        const first = this.shared.findIndex((r) => r.kind === 'stderr');
        this.shared.splice(first, 1);
      }
    }
    this.shared.push(record);
  }

  private wire(): void {
    const now = () => this.clock.now();
    this.stream = createMessageStream(this.process, {
      ...(this.options.maxLineBytes !== undefined ? { maxLineBytes: this.options.maxLineBytes } : {}),
      observer: {
        // The line's own bytes go to the trace as `msg`: the same JSON value, and the writer then
        // does not serialize every (often 16 KiB) message a second time. Not when they are not
        // UTF-8: the trace holds the decoded (replacement-character) text then.
        incoming: (message, _len, info, line) =>
          this.record(
            {
              kind: 'wire',
              t: now(),
              dir: 'in',
              msg: message as JsonObject,
              ...(info.problem ? { problem: info.problem } : {}),
              ...(info.invalidUtf8 ? { invalidUtf8: true } : {}),
            },
            info.invalidUtf8 ? undefined : line,
          ),
        outgoing: (message) => {
          const msg = message as unknown as JsonObject;
          const unchecked = typeof msg.method === 'string' && this.uncheckedMethods[0] === msg.method;
          if (unchecked) this.uncheckedMethods.shift();
          this.record({ kind: 'wire', t: now(), dir: 'out', msg, ...(unchecked ? { unchecked: true } : {}) });
        },
        noise: (line) => this.record({ kind: 'noise', t: now(), dir: 'in', ...(typeof line === 'string' ? { text: line } : { base64: line.base64 }) }),
        oversize: (line) => this.record({ kind: 'oversize', t: now(), dir: 'in', length: line.length, sha256: line.sha256, head: line.head }),
      },
      // session/update is the hot path and needs no answer: the reducer takes it from the trace
      // record; the SDK's validation is skipped (conformance validates separately).
      consume: (message, info) => info.shape === 'notification' && message.method === 'session/update',
    });
    // After the tap's listener: each chunk is in the trace writer by now.
    let paused = false;
    this.process.onStdout(() => {
      if (paused || this.trace.pendingBytes <= TRACE_HIGH_WATER_BYTES) return;
      paused = true;
      const release = this.holdInput();
      void this.trace.whenBelow(TRACE_LOW_WATER_BYTES).then(() => {
        paused = false;
        release();
      });
    });
    this.process.onStderrLine((text) => this.record({ kind: 'stderr', t: now(), text }));
    this.process.onExit((exit) => {
      this.terminals.disposeAll();
      this.record({ kind: 'exit', t: now(), code: exit.code, signal: exit.signal, ...(this.closing ? { expected: true } : {}) });
      this.trace.flushSoon();
    });
  }

  /**
   * The SDK's client app on the wired stream. Messages the agent sent before (it may write as soon
   * as it runs) wait in the stream's queue; they are in the trace already.
   */
  private connectSdk(sdk: Sdk): void {
    const app = sdk.client({ name: 'acp-workbench' });
    installClientHandlers(app, this);
    this.conn = app.connect(this.stream!.stream);
  }
}
