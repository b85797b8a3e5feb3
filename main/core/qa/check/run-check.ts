/**
 * `check`: a scripted session against an agent that exercises what a client relies on, then the
 * conformance report of its trace. The script: initialize, session/new, each advertised session
 * method (list, set_mode, set_config_option), a prompt, a prompt cancelled mid-turn (with its
 * permission requests held back for a moment, to see whether the agent waits for them), prompts
 * with content the agent advertised and content it did not, load / resume / fork / close / delete
 * when advertised, and probes of the session methods it did not advertise.
 *
 * Permission requests are rejected (the agent works in the user's folder: check changes nothing).
 * Every step has a time limit; a step that fails is noted and the script goes on where it can.
 */
import type { ContentBlock, InitializeResponse, PromptResponse } from '@agentclientprotocol/sdk/unstable';
import type { TraceRecord } from '../../../../common/trace/records';
import type { AgentConnection } from '../../acp/agent-connection';
import { advertises, type SessionMethod } from '../../acp/agent-capabilities';
import { describeRpcError } from '../../acp/agent-start-error';
import { AgentSession } from '../../sessions/agent-session';
import { PermissionBroker } from '../../sessions/permission-broker';
import { PermissionQueue } from '../../sessions/permission-queue';
import { CheckPermissions, sleep, withTimeout } from './check-support';
import { startAgentSession, type AgentLaunch } from '../../sessions/start-session';
import { DEFAULT_CANCEL_TIMEOUT_MS } from '../context';
import type { ConformanceReport } from '../engine';
import { conformanceReportFromFile } from '../report-file';
import { ADVERTISED_CONTENT_PROMPT, CANCEL_PROBE_PROMPT, contentBlock, DEFAULT_CHECK_PROMPT, GATED_CONTENT, UNADVERTISED_CONTENT_PROMPT } from './check-prompts';

export interface CheckOptions {
  launch: AgentLaunch;
  /** The session folder (the agent is told to work there; check changes nothing in it). */
  sessionCwd: string;
  dataDir: string;
  /** The first prompt; a harmless default otherwise. */
  prompt?: string;
  /** Time limit of one prompt turn (default 120 s). */
  turnTimeoutMs?: number;
  /** Cancel at the turn's first update or permission request, or after this long (default 3 s). */
  cancelAfterMs?: number;
  /** How long the agent may take to answer the prompt after session/cancel (default 5 s). */
  cancelTimeoutMs?: number;
  /** How long permission requests pending at the cancel stay unanswered (default 300 ms). */
  permissionHoldMs?: number;
  /** Time limit of every other request (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * Quiet time after each turn before the next step (default 200 ms), so updates an agent sends
   * after its answer are seen as such, not as part of the next turn.
   */
  settleMs?: number;
  startupTimeoutMs?: number;
  /** Each step as it ends. */
  onStep?: (step: CheckStep) => void;
}

export interface CheckStep {
  step: string;
  status: 'ok' | 'skipped' | 'failed';
  detail?: string;
}

export interface CheckResult {
  report: ConformanceReport;
  /** The trace file; null when the agent could not even be spawned... and no trace was written. */
  trace: string | null;
  steps: CheckStep[];
  /** Set when no session could be opened (spawn, initialize or session/new failed). */
  startError?: string;
}

const EMPTY_REPORT: ConformanceReport = { agent: null, protocolVersion: null, capabilities: null, findings: [], counts: { error: 0, warning: 0, info: 0 } };

export async function runCheck(options: CheckOptions): Promise<CheckResult> {
  const steps: CheckStep[] = [];
  const note = (step: string, status: CheckStep['status'], detail?: string) => {
    const s: CheckStep = { step, status, ...(detail !== undefined ? { detail } : {}) };
    steps.push(s);
    options.onStep?.(s);
  };
  const cancelTimeoutMs = options.cancelTimeoutMs ?? DEFAULT_CANCEL_TIMEOUT_MS;
  const queue = new PermissionQueue();
  const permissions = new CheckPermissions(queue);
  const broker = new PermissionBroker({ deciders: [], queue });
  let connection: AgentConnection | undefined;
  let initialized = false;
  let session: AgentSession;
  try {
    session = await startAgentSession({
      launch: options.launch,
      sessionCwd: options.sessionCwd,
      dataDir: options.dataDir,
      broker,
      policy: 'none',
      interactive: true,
      host: 'cli',
      ...(options.startupTimeoutMs !== undefined ? { startupTimeoutMs: options.startupTimeoutMs } : {}),
      onConnection: (c) => (connection = c),
      onInitialized: (init) => {
        initialized = true;
        note('initialize', 'ok', describeInit(init));
      },
    });
    note('session/new', 'ok', session.agentSessionId);
  } catch (err) {
    permissions.dispose();
    const message = err instanceof Error ? err.message : String(err);
    note(initialized ? 'session/new' : 'initialize', 'failed', message);
    if (!connection) return { report: EMPTY_REPORT, trace: null, steps, startError: message };
    const trace = (connection as AgentConnection).trace.path;
    return { report: await reportOf(trace, cancelTimeoutMs), trace, steps, startError: message };
  }
  const conn = session.connection;
  try {
    await new CheckScript(options, session, permissions, note, cancelTimeoutMs).run();
  } finally {
    permissions.dispose();
    await conn.close();
  }
  return { report: await reportOf(conn.trace.path, cancelTimeoutMs), trace: conn.trace.path, steps };
}

async function reportOf(trace: string, cancelTimeoutMs: number): Promise<ConformanceReport> {
  const { corrupt: _corrupt, ...report } = await conformanceReportFromFile(trace, { cancelTimeoutMs });
  return report;
}

function describeInit(init: InitializeResponse): string {
  const info = init.agentInfo;
  return `${info ? `${info.name} ${info.version}` : 'an agent without agentInfo'}, protocol ${String(init.protocolVersion)}`;
}

type Note = (step: string, status: CheckStep['status'], detail?: string) => void;

class CheckScript {
  private readonly conn: AgentConnection;
  private readonly init: InitializeResponse;
  private readonly agentSessionId: string;
  private readonly turnTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  /** A turn never ended: no more prompts (the agent is busy with it). */
  private stuck = false;

  constructor(
    private readonly options: CheckOptions,
    private readonly session: AgentSession,
    private readonly permissions: CheckPermissions,
    private readonly note: Note,
    private readonly cancelTimeoutMs: number,
  ) {
    this.conn = session.connection;
    this.init = this.conn.init!;
    this.agentSessionId = session.agentSessionId!;
    this.turnTimeoutMs = options.turnTimeoutMs ?? 120_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  private advertised(method: SessionMethod): boolean {
    return advertises(this.init, method);
  }

  async run(): Promise<void> {
    const cwd = this.options.sessionCwd;
    if (this.advertised('session/list')) await this.step('session/list', async () => `${(await this.conn.listSessions({ cwd })).sessions.length} session(s)`);
    await this.settings();
    await this.prompt('session/prompt', [{ type: 'text', text: this.options.prompt ?? DEFAULT_CHECK_PROMPT }]);
    await this.cancelProbe();
    await this.contentProbes();
    await this.reopen();
    await this.closeAndDelete();
    await this.unadvertisedProbes();
  }

  /** Runs one step with a time limit; false when it failed or was skipped. */
  private async step(name: string, fn: () => Promise<string | void>, timeoutMs = this.requestTimeoutMs): Promise<boolean> {
    const exit = this.conn.process.exitInfo;
    if (exit) {
      this.note(name, 'skipped', `the agent is not running (${exit.signal ? `signal ${exit.signal}` : `exit code ${String(exit.code)}`})`);
      return false;
    }
    try {
      const detail = await withTimeout(fn(), timeoutMs);
      this.note(name, 'ok', detail ?? undefined);
      return true;
    } catch (err) {
      this.note(name, 'failed', describeRpcError(err));
      return false;
    }
  }

  /** set_mode / set_config_option to their current values: harmless, and proves they answer. */
  private async settings(): Promise<void> {
    const state = this.session.transcript.session;
    const mode = state.modes?.currentModeId;
    if (mode) await this.step('session/set_mode', () => this.session.setMode(mode));
    const option = state.configOptions?.[0] as { id: string; currentValue?: unknown } | undefined;
    if (option && (typeof option.currentValue === 'string' || typeof option.currentValue === 'boolean')) {
      const value = option.currentValue;
      await this.step('session/set_config_option', () => this.session.setConfigOption(option.id, value));
    }
  }

  /** A turn with a time limit; a turn that overruns is cancelled, and one that ignores that makes the script stop prompting. */
  private async prompt(name: string, blocks: ContentBlock[]): Promise<void> {
    if (this.stuck) return this.note(name, 'skipped', 'an earlier turn never ended');
    if (this.conn.process.exitInfo) return this.note(name, 'skipped', 'the agent is not running');
    const answer = this.session.prompt(blocks);
    answer.catch(() => undefined); // judged below; never an unhandled rejection
    const ok = await this.step(name, async () => `stopReason ${(await answer).stopReason}`, this.turnTimeoutMs);
    await this.settle();
    if (ok || !(await this.overran(answer))) return;
    await this.session.cancel('timeout');
    await this.settlesWithin(answer, this.cancelTimeoutMs);
  }

  /** The turn is still running (no answer yet): true, and the script is marked stuck unless it ends within the cancel time limit. */
  private async overran(answer: Promise<unknown>): Promise<boolean> {
    const settled = await this.settlesWithin(answer, 0);
    if (settled) return false;
    this.stuck = true;
    return true;
  }

  private settle(): Promise<void> {
    return sleep(this.options.settleMs ?? 200);
  }

  private async settlesWithin(answer: Promise<unknown>, ms: number): Promise<boolean> {
    let settled = false;
    void answer.then(
      () => (settled = true),
      () => (settled = true),
    );
    await Promise.race([answer.catch(() => undefined), sleep(ms)]);
    await Promise.resolve();
    if (settled) this.stuck = false;
    return settled;
  }

  /**
   * A turn cancelled at its first update or permission request. Requests pending at the cancel are
   * held for a moment (a conformant agent waits for their `cancelled` answers before it ends the
   * turn), then answered; the agent then has `cancelTimeoutMs` to answer the prompt.
   */
  private async cancelProbe(): Promise<void> {
    const name = 'session/cancel';
    if (this.stuck) return this.note(name, 'skipped', 'an earlier turn never ended');
    if (this.conn.process.exitInfo) return this.note(name, 'skipped', 'the agent is not running');
    this.permissions.phase = 'hold';
    let activity!: () => void;
    const active = new Promise<'active'>((resolve) => (activity = () => resolve('active')));
    const subscription = this.session.onRecord((r: TraceRecord) => {
      if (r.kind === 'wire' && r.dir === 'in' && (r.msg.method === 'session/update' || r.msg.method === 'session/request_permission')) activity();
    });
    const answer: Promise<PromptResponse> = this.session.prompt([{ type: 'text', text: CANCEL_PROBE_PROMPT }]);
    answer.catch(() => undefined);
    try {
      const first = await Promise.race([
        answer.then(
          () => 'answered' as const,
          () => 'answered' as const,
        ),
        active,
        sleep(this.options.cancelAfterMs ?? 3_000).then(() => 'waited' as const),
      ]);
      subscription.dispose();
      if (first === 'answered') {
        this.note(name, 'skipped', 'the turn ended before session/cancel could be sent');
        return;
      }
      this.conn.record({ kind: 'cancel', t: this.conn.clock.now(), sessionId: this.session.id, agentSessionId: this.agentSessionId, by: 'check' });
      await this.conn.notify('session/cancel', { sessionId: this.agentSessionId }).catch(() => undefined);
      const hold = this.options.permissionHoldMs ?? 300;
      await Promise.race([answer.catch(() => undefined), sleep(hold)]);
      this.permissions.release(this.session.id);
      // A little over the limit, so a late answer is still seen (and judged by the time rule).
      if (await this.settlesWithin(answer, Math.max(0, this.cancelTimeoutMs - hold) + 500)) {
        const outcome = await answer.then(
          (r) => `stopReason ${r.stopReason}`,
          (err: unknown) => `answered with an error: ${describeRpcError(err)}`,
        );
        this.note(name, 'ok', outcome);
        await this.settle();
      } else {
        this.stuck = true;
        this.note(name, 'failed', `the prompt was not answered within ${this.cancelTimeoutMs / 1000} s of session/cancel`);
      }
    } finally {
      subscription.dispose();
      this.permissions.phase = 'reject';
    }
  }

  /** Content the agent advertised must be accepted; content it did not is sent anyway (unchecked) to see what it does. */
  private async contentProbes(): Promise<void> {
    const caps = (this.init.agentCapabilities?.promptCapabilities ?? {}) as Record<string, unknown>;
    const cwd = this.options.sessionCwd;
    const advertised = GATED_CONTENT.filter((g) => caps[g.capability] === true).map((g) => g.type);
    const unadvertised = GATED_CONTENT.filter((g) => caps[g.capability] !== true).map((g) => g.type);
    if (advertised.length) {
      await this.prompt(`prompt with ${advertised.join(', ')} content`, [{ type: 'text', text: ADVERTISED_CONTENT_PROMPT }, ...advertised.map((t) => contentBlock(t, cwd))]);
    }
    if (!unadvertised.length) return;
    const name = `prompt with unadvertised ${unadvertised.join(', ')} content`;
    if (this.stuck) return this.note(name, 'skipped', 'an earlier turn never ended');
    const prompt = [{ type: 'text', text: UNADVERTISED_CONTENT_PROMPT }, ...unadvertised.map((t) => contentBlock(t, cwd))];
    if (this.conn.process.exitInfo) return this.note(name, 'skipped', 'the agent is not running');
    const answer = this.conn.requestUnchecked<PromptResponse>('session/prompt', { sessionId: this.agentSessionId, prompt });
    answer.catch(() => undefined);
    const ok = await this.step(
      name,
      () =>
        answer.then(
          (r) => `accepted (stopReason ${r.stopReason})`,
          (err: unknown) => `refused: ${describeRpcError(err)}`,
        ),
      this.turnTimeoutMs,
    );
    await this.settle();
    if (!ok && (await this.overran(answer))) {
      await this.session.cancel('timeout');
      await this.settlesWithin(answer, this.cancelTimeoutMs);
    }
  }

  /** load, resume and fork of the session, when advertised, each into a new workbench session. */
  private async reopen(): Promise<void> {
    for (const how of ['load', 'resume', 'fork'] as const) {
      if (!this.advertised(`session/${how}`)) continue;
      const other = new AgentSession({
        connection: this.conn,
        cwd: this.options.sessionCwd,
        broker: this.session.options.broker,
        agentId: this.options.launch.agentId,
        policy: 'none',
        interactive: true,
      });
      const ok = await this.step(`session/${how}`, async () => {
        await other.open(how, this.agentSessionId);
        return how === 'fork' ? other.agentSessionId : undefined;
      });
      if (ok && how === 'fork' && other.agentSessionId && this.advertised('session/close')) {
        const forked = other.agentSessionId;
        await this.step('session/close (fork)', () => this.conn.request('session/close', { sessionId: forked }).then(() => undefined));
      }
    }
  }

  private async closeAndDelete(): Promise<void> {
    const sessionId = this.agentSessionId;
    if (this.advertised('session/close')) await this.step('session/close', () => this.conn.request('session/close', { sessionId }).then(() => undefined));
    if (this.advertised('session/delete')) await this.step('session/delete', () => this.conn.deleteSession(sessionId));
  }

  /** Session methods the agent did not advertise, sent anyway: -32601 is the honest answer. */
  private async unadvertisedProbes(): Promise<void> {
    const sessionId = this.agentSessionId;
    const cwd = this.options.sessionCwd;
    const probes: Array<[SessionMethod, Record<string, unknown>]> = [
      ['session/list', { cwd }],
      ['session/load', { sessionId, cwd, mcpServers: [] }],
      ['session/resume', { sessionId, cwd, mcpServers: [] }],
      ['session/fork', { sessionId, cwd, mcpServers: [] }],
      ['session/close', { sessionId }],
      ['session/delete', { sessionId }],
    ];
    for (const [method, params] of probes) {
      if (this.advertised(method)) continue;
      await this.step(`probe ${method} (not advertised)`, () =>
        this.conn.requestUnchecked(method, params).then(
          () => 'answered',
          (err: unknown) => `answered ${describeRpcError(err)}`,
        ),
      );
    }
  }
}
