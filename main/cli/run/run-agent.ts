/**
 * One agent of `acp-workbench run`: start it, open a session, apply --mode/--model/--config, send
 * the prompt, honour --cancel-after and --timeout, and report events and a summary. Never throws:
 * every failure becomes an `error` event, an exit code and a summary with `error` set.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import type { TraceRecord } from '../../../common/trace/records';
import type { AgentSession } from '../../core/sessions/agent-session';
import { SessionError } from '../../core/sessions/agent-session';
import type { PermissionBroker } from '../../core/sessions/permission-broker';
import { applyConfig, applyMode, applyModel } from '../../core/sessions/session-settings';
import { SessionStats } from '../../core/sessions/session-stats';
import { startAgentSession, type AgentLaunch, type StartSessionOptions } from '../../core/sessions/start-session';
import { ExitCode } from '../exit-codes';
import type { AgentRef, RunEvent, RunSummary } from './run-events';
import type { RunOptions } from './run-options';

export interface AgentRunResult {
  exitCode: ExitCode;
  summary: RunSummary;
}

/** How long an agent gets to answer session/cancel after --timeout before it is stopped. */
const CANCEL_GRACE_MS = 5_000;

export async function runOneAgent(
  ref: AgentRef,
  launch: AgentLaunch,
  opts: RunOptions,
  broker: PermissionBroker,
  interactive: boolean,
  /** `line`: with an `update` event, the agent's line it came from, when at hand (for json-events.ts). */
  emit: (event: RunEvent, line?: Buffer) => void,
  custom?: {
    /** `sessions resume|fork`: how the session is started and what its first prompt carries. */
    start?: (options: StartSessionOptions) => Promise<AgentSession>;
    prompt?: (text: string) => ContentBlock[];
    /**
     * Whether the output is full (a promise that resolves when it drained): the agent's stdout is
     * then not read until it does, so a slow consumer of `run --json` slows the agent down instead
     * of the events piling up in memory.
     */
    outputFull?: () => Promise<void> | undefined;
  },
): Promise<AgentRunResult> {
  const stats = new SessionStats();
  let session: AgentSession | undefined;
  let trace: string | null = null;
  const summary = (fields: Partial<RunSummary>): RunSummary => {
    const f = stats.figures();
    return {
      type: 'summary',
      agent: ref,
      id: session?.id ?? null,
      agentSessionId: session?.agentSessionId ?? null,
      stopReason: f.stopReason,
      error: null,
      updates: f.updates,
      toolCalls: f.toolCalls,
      permissionRequests: f.permissionRequests,
      filesChanged: session ? session.live.changedPaths() : [],
      firstUpdateMs: f.firstUpdateMs,
      durationMs: f.durationMs,
      usage: f.usage,
      trace,
      ...fields,
    };
  };

  emit({ type: 'starting', agent: ref, command: launch.command, args: [...launch.args] });
  // Events of the session wait for its `session` event (updates may come before the session/new
  // answer), so a consumer always knows which session an update belongs to.
  let held: Array<[RunEvent, Buffer | undefined]> | undefined = [];
  const emitSessionEvent = (event: RunEvent, line?: Buffer) =>
    held ? held.push([event, line && Buffer.from(line)]) : emit(event, line); // a held line is copied: it may be a view of a chunk
  const permissionTools = new Map<string, string>();
  // The agent's own bytes of the record being delivered: the connection's record listeners hear
  // of a record (with its line) just before the session does.
  const lineOf: { record: TraceRecord; line: Uint8Array | undefined } = { record: undefined as unknown as TraceRecord, line: undefined };
  let lineTap: { dispose(): void } | undefined;
  try {
    session = await (custom?.start ?? startAgentSession)({
      launch,
      ...(opts.mcpServerSettings?.length ? { mcpServerSettings: opts.mcpServerSettings } : {}),
      sessionCwd: opts.cwd,
      dataDir: opts.paths.dataDir,
      broker,
      policy: opts.approve,
      interactive,
      ...(opts.allowSensitive ? { allowSensitiveFiles: true } : {}),
      host: 'cli',
      onConnection: (connection) => {
        trace = connection.trace.path;
        lineTap = connection.onRecord((record, _n, msgBytes) => {
          lineOf.record = record;
          lineOf.line = msgBytes;
        });
      },
      // Subscribe before initialize: updates sent before the session/new answer count too.
      onSession: (s) => {
        let holding = false;
        s.onRecord((record) => {
          stats.add(record);
          forwardRecord(record, lineOf.record === record ? lineOf.line : undefined, ref, emitSessionEvent, permissionTools);
          const full = custom?.outputFull?.();
          if (!full || holding) return;
          holding = true;
          const release = s.connection.holdInput();
          void full.then(() => {
            holding = false;
            release();
          });
        });
      },
      onInitialized: (init) =>
        emit({
          type: 'initialized',
          agent: ref,
          protocolVersion: init.protocolVersion,
          agentInfo: init.agentInfo ?? null,
          agentCapabilities: init.agentCapabilities ?? null,
          authMethods: init.authMethods ?? [],
        }),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    emit({ type: 'error', agent: ref, message });
    lineTap?.dispose();
    return { exitCode: ExitCode.agentStartFailed, summary: summary({ error: message }) };
  }

  const conn = session.connection;
  emit({ type: 'session', agent: ref, id: session.id, agentSessionId: session.agentSessionId ?? null, trace: conn.trace.path });
  for (const [event, line] of held.splice(0)) emit(event, line);
  held = undefined;

  try {
    if (opts.mode !== undefined) await applyMode(session, opts.mode);
    if (opts.model !== undefined) await applyModel(session, opts.model);
    for (const [id, value] of opts.config) await applyConfig(session, id, value);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    emit({ type: 'error', agent: ref, message });
    await conn.close();
    const done = summary({ error: message });
    session.live.dispose();
    lineTap?.dispose();
    return { exitCode: err instanceof SessionError && err.code === 'not_advertised' ? ExitCode.usage : ExitCode.turnFailed, summary: done };
  }

  const timers: Array<ReturnType<typeof setTimeout>> = [];
  let timedOut = false;
  if (opts.cancelAfterMs !== undefined) timers.push(setTimeout(() => void session!.cancel('cancel-after'), opts.cancelAfterMs));
  if (opts.timeoutMs !== undefined) {
    timers.push(
      setTimeout(() => {
        timedOut = true;
        void session!.cancel('timeout');
        timers.push(setTimeout(() => void conn.close(), CANCEL_GRACE_MS));
      }, opts.timeoutMs),
    );
  }
  const prompt: ContentBlock[] = custom?.prompt ? custom.prompt(opts.prompt) : [{ type: 'text', text: opts.prompt }];
  let exitCode: ExitCode = ExitCode.ok;
  let error: string | null = null;
  try {
    const response = await session.prompt(prompt);
    emit({ type: 'turn_end', agent: ref, stopReason: response.stopReason });
    if (timedOut) {
      error = `the turn did not finish within ${opts.timeoutMs! / 1000} s; it was cancelled`;
      emit({ type: 'error', agent: ref, message: error });
      exitCode = ExitCode.turnFailed;
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
    if (timedOut) error = `the turn did not finish within ${opts.timeoutMs! / 1000} s and the agent did not answer the cancel; it was stopped`;
    const tail = session.status.stderrTail ?? conn.stderrTail(20);
    emit({ type: 'error', agent: ref, message: error, ...(tail.length ? { stderrTail: tail } : {}) });
    exitCode = ExitCode.turnFailed;
  } finally {
    for (const t of timers) clearTimeout(t);
  }
  await conn.close();
  const done = summary({ error });
  session.live.dispose(); // the spill file: the trace has everything
  lineTap?.dispose();
  return { exitCode, summary: done };
}

/** `toolCalls` remembers each permission request's tool call id (by request id) for its decision event. */
function forwardRecord(
  record: TraceRecord,
  line: Uint8Array | undefined,
  ref: AgentRef,
  emit: (e: RunEvent, line?: Buffer) => void,
  toolCalls: Map<string, string>,
): void {
  if (record.kind === 'wire' && record.dir === 'in' && record.msg.method === 'session/update') {
    const params = record.msg.params as { update?: unknown } | undefined;
    const bytes = line === undefined || Buffer.isBuffer(line) ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength);
    emit({ type: 'update', agent: ref, update: params?.update ?? null }, bytes);
  } else if (record.kind === 'wire' && record.dir === 'in' && record.msg.method === 'session/request_permission') {
    const toolCallId = (record.msg.params as { toolCall?: { toolCallId?: unknown } } | undefined)?.toolCall?.toolCallId;
    if (typeof toolCallId === 'string') toolCalls.set(JSON.stringify(record.msg.id), toolCallId);
  } else if (record.kind === 'permission-asked' && record.toolCallId !== undefined) {
    // The workbench's own requests (a sensitive file read through fs) name their tool call here.
    toolCalls.set(JSON.stringify(record.requestId), record.toolCallId);
  } else if (record.kind === 'permission-decided') {
    const key = JSON.stringify(record.requestId);
    const toolCallId = toolCalls.get(key) ?? null;
    toolCalls.delete(key);
    emit({ type: 'permission', agent: ref, requestId: record.requestId, toolCallId, outcome: record.outcome, optionId: record.optionId ?? null, by: record.by });
  } else if (record.kind === 'cancel') {
    emit({ type: 'cancel', agent: ref, by: record.by ?? 'user' });
  } else if (record.kind === 'notice') {
    emit({ type: 'notice', agent: ref, message: record.message });
  }
}
