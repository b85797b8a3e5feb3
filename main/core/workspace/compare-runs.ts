/**
 * Compare runs as a service for the UI (and tests): one prompt to N agents, each in its own
 * workspace, all started at once; follow-ups to all or some; the comparison; promote; discard;
 * the list of runs and the leftovers of earlier ones. Sessions are started through a host (the
 * UI's session manager, or `directSessionHost` here), so they are ordinary live sessions.
 */
import type { ContentBlock, PromptResponse } from '@agentclientprotocol/sdk/unstable';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { RunCreateProgress } from '../../../common/api/compare-types';
import type { Lineage, TraceRecord } from '../../../common/trace/records';
import { resolveAgentLaunch } from '../agents/launch';
import { readTraceFile } from '../history/trace-reader';
import type { AgentSession } from '../sessions/agent-session';
import type { ApprovePolicy } from '../sessions/permission-chain';
import { PermissionBroker } from '../sessions/permission-broker';
import { AlwaysMemory, standardPermissionChain } from '../sessions/permission-policy';
import { PermissionQueue } from '../sessions/permission-queue';
import { applyConfig, applyMode, applyModel } from '../sessions/session-settings';
import { startAgentSession, type AgentLaunch } from '../sessions/start-session';
import { buildComparison, comparisonMarkdown } from './comparison';
import { promote, type PromoteChoice } from './promote';
import { RunError, RunStore } from './run-store';
import type { AgentFigures, Comparison, PromoteResult, RunAgentRecord, RunRecord } from './run-types';
import {
  agentStarted,
  captureAgent,
  discardRun,
  followUpStarted,
  prepareRun,
  setupAgent,
  verifyRun,
  type PrepareRunParams,
  type RunAgentInput,
} from './workspaces';

/** An agent of a run: a catalog id, or an ad-hoc command (`command` set). */
export interface CompareAgentSpec extends RunAgentInput {
  command?: string;
  args?: string[];
  /** Variables added to the agent's environment. */
  env?: Record<string, string>;
}

export interface CreateRunParams extends Omit<PrepareRunParams, 'agents' | 'prompt' | 'policy' | 'onProgress'> {
  /** Told of each step: the workspaces made (prepareRun's steps), the setup command, each agent started. */
  onProgress?: (progress: Omit<RunCreateProgress, 'startId'>) => void;
  agents: CompareAgentSpec[];
  prompt: ContentBlock[];
  policy: ApprovePolicy;
  /** Names each agent's start `<startId>#<index>` (RunSessionRequest.startId), so a host can stop it. */
  startId?: string;
  /** Asked before each agent starts: true when the creation was stopped (that agent is then not started). */
  stopped?: () => boolean;
}

export interface RunSessionRequest {
  runId: string;
  index: number;
  /** The label within the run (`#2` when repeated). */
  label: string;
  agent: CompareAgentSpec;
  /** The agent's session cwd: its workspace. */
  cwd: string;
  lineage: Lineage;
  policy: ApprovePolicy;
  /** The name of this agent's start, when the run's creation has one (`<startId>#<index>`). */
  startId?: string;
  /**
   * How a prompt typed in this agent's own pane goes through the run: recorded as a follow-up to
   * this agent alone and its workspace captured after the turn, so the comparison includes it.
   */
  promptFromPane: (prompt: ContentBlock[]) => Promise<PromptResponse>;
}

/** Starts (spawn, initialize, session/new) the session of one agent of a run. */
export interface RunSessionHost {
  start(request: RunSessionRequest): Promise<AgentSession>;
}

/** A host that starts agents itself (CLI-like: its own permission broker, nobody to ask). */
export function directSessionHost(options: { dataDir: string; configDir?: string; env?: NodeJS.ProcessEnv; broker?: PermissionBroker; interactive?: boolean; host?: string }): RunSessionHost {
  const memory = new AlwaysMemory();
  const broker = options.broker ?? new PermissionBroker({ deciders: standardPermissionChain({ memory }), queue: new PermissionQueue(), memory });
  const env = options.env ?? process.env;
  return {
    async start(req) {
      let launch: AgentLaunch;
      if (req.agent.command) {
        launch = { command: req.agent.command, args: req.agent.args ?? [], env: { ...env, ...req.agent.env }, cwd: req.cwd, label: req.label, agentId: req.agent.agentId };
      } else {
        if (!options.configDir) throw new RunError(`agent ${req.agent.agentId} needs the settings folder to be launched`, 'invalid');
        const { launch: l } = await resolveAgentLaunch({ agentId: req.agent.agentId, configDir: options.configDir, dataDir: options.dataDir, sessionCwd: req.cwd, processEnv: env });
        launch = { command: l.command, args: l.args, env: { ...l.env, ...req.agent.env }, cwd: l.cwd, label: req.label, agentId: l.agentId };
      }
      return startAgentSession({
        launch,
        sessionCwd: req.cwd,
        dataDir: options.dataDir,
        broker,
        policy: req.policy,
        interactive: options.interactive ?? false,
        lineage: req.lineage,
        host: options.host ?? 'compare',
      });
    },
  };
}

interface LiveRun {
  sessions: Array<AgentSession | undefined>;
  /** Settles when every turn of the latest prompt has ended and been captured (and verified). */
  settled: Promise<RunRecord>;
  /** Reopened after a restart: each agent's figures from its earlier session, added to the new one's. */
  prior?: Array<AgentFigures | null>;
}

/**
 * Resumes one agent's recorded session in its workspace (a run reopened after a restart); prompts
 * typed in its pane are to go through `promptFromPane`, like a started run session's.
 */
export type ResumeRunSession = (agent: RunAgentRecord, promptFromPane: RunSessionRequest['promptFromPane']) => Promise<AgentSession>;

export interface CompareRunsOptions {
  dataDir: string;
  configDir?: string;
  host?: RunSessionHost;
  /** Environment of setup and verification commands (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export class CompareRuns {
  readonly store: RunStore;
  private readonly host: RunSessionHost;
  private readonly live = new Map<string, LiveRun>();

  constructor(private readonly options: CompareRunsOptions) {
    this.store = new RunStore(options.dataDir);
    this.host = options.host ?? directSessionHost({ dataDir: options.dataDir, ...(options.configDir ? { configDir: options.configDir } : {}) });
  }

  /**
   * Make the workspaces, run the setup command in each, start every agent's session and send the
   * prompt to all at once. Resolves when the prompts are sent; `settled(runId)` when the turns end.
   */
  async createRun(params: CreateRunParams): Promise<RunRecord> {
    const run = await prepareRun(this.store, { ...params, minAgents: params.minAgents ?? 2 });
    const sessions: Array<AgentSession | undefined> = run.agents.map(() => undefined);
    const of = run.agents.length;
    let ready = 0;
    if (run.setupCommand) params.onProgress?.({ step: 'setup', of });
    else params.onProgress?.({ step: 'start', of, started: 0 });
    const started = await Promise.all(
      run.agents.map(async (agent, index) => {
        const setup = await setupAgent(this.store, run.id, index, this.options.env);
        if (setup.status === 'failed') return;
        if (run.setupCommand) params.onProgress?.({ step: 'start', of, started: ready });
        try {
          if (params.stopped?.()) throw new Error('not started: the run was stopped while it was being created');
          const session = await this.host.start({
            ...(params.startId !== undefined ? { startId: `${params.startId}#${index}` } : {}),
            runId: run.id,
            index,
            label: agent.label,
            agent: params.agents[index]!,
            cwd: agent.cwd,
            lineage: { runId: run.id },
            policy: params.policy,
            promptFromPane: (prompt) => this.promptOne(run.id, index, prompt),
          });
          sessions[index] = session;
          await agentStarted(this.store, run.id, index, { sessionId: session.id, agentSessionId: session.agentSessionId ?? null, trace: session.connection.trace.path });
          const spec = params.agents[index]!;
          if (spec.mode !== undefined) await applyMode(session, spec.mode);
          if (spec.model !== undefined) await applyModel(session, spec.model);
          for (const [id, value] of spec.config ?? []) await applyConfig(session, id, value);
          params.onProgress?.({ step: 'start', of, started: ++ready });
          return session;
        } catch (err) {
          await captureAgent(this.store, run.id, index, { ...(await this.recordsOf(sessions[index])), error: err instanceof Error ? err.message : String(err) });
          return;
        }
      }),
    );
    const live: LiveRun = { sessions, settled: Promise.resolve(run) };
    this.live.set(run.id, live);
    live.settled = this.turns(run.id, params.prompt, started.map((s, i) => (s ? i : -1)).filter((i) => i >= 0), true);
    return this.store.read(run.id);
  }

  /** The run once every turn of its latest prompt has ended and its workspaces were captured. */
  settled(runId: string): Promise<RunRecord> {
    return this.live.get(runId)?.settled ?? this.store.read(runId);
  }

  /** Send a follow-up prompt to all agents of a live run, or to those listed; resolves when their turns end. */
  async followUp(runId: string, prompt: ContentBlock[], indexes?: readonly number[]): Promise<RunRecord> {
    const live = this.live.get(runId);
    if (!live) throw new RunError(`run ${runId} has no live sessions (reopen its sessions to continue them)`, 'state');
    await live.settled;
    const targets = (indexes ?? live.sessions.map((_, i) => i)).filter((i) => live.sessions[i]);
    if (targets.length === 0) throw new RunError('none of those agents has a live session', 'state');
    await followUpStarted(this.store, runId, prompt, targets);
    live.settled = this.turns(runId, prompt, targets, false);
    return live.settled;
  }

  /**
   * A prompt to one agent of a live run from its own pane: a follow-up to that agent alone; the
   * others' turns are not waited for, and the run settles once every turn has ended.
   */
  async promptOne(runId: string, index: number, prompt: ContentBlock[]): Promise<PromptResponse> {
    const live = this.live.get(runId);
    const session = live?.sessions[index];
    if (!live || !session) throw new RunError(`run ${runId} has no live session for agent ${index}`, 'state');
    await followUpStarted(this.store, runId, prompt, [index]);
    const turn = (async () => {
      try {
        const response = await session.prompt(prompt);
        await captureAgent(this.store, runId, index, { ...(await this.recordsOf(session, live.prior !== undefined)), error: null, priorFigures: live.prior?.[index] ?? null });
        return response;
      } catch (err) {
        await captureAgent(this.store, runId, index, { ...(await this.recordsOf(session, live.prior !== undefined)), error: err instanceof Error ? err.message : String(err), priorFigures: live.prior?.[index] ?? null });
        throw err;
      }
    })();
    const before = live.settled;
    live.settled = Promise.allSettled([before, turn]).then(() => this.store.read(runId));
    return turn;
  }

  /**
   * Make a run of an earlier workbench live again: each agent's session resumed from history in its
   * workspace (`resume`), so follow-ups and pane prompts work and the comparison keeps counting.
   * An agent that was mid-turn when the workbench stopped is captured as interrupted first.
   */
  async reopen(runId: string, resume: ResumeRunSession): Promise<RunRecord> {
    const id = await this.store.resolveId(runId);
    if (this.live.has(id)) return this.store.read(id);
    let run = await this.store.read(id);
    if (run.status === 'discarded') throw new RunError(`run ${id} was discarded: its workspaces are gone`, 'state');
    const missing = run.agents.filter((a) => !existsSync(a.workspace));
    if (missing.length === run.agents.length) throw new RunError(`run ${id} has no workspaces left on disk`, 'state');
    for (const a of run.agents) {
      if (a.status === 'running' || a.status === 'setup' || a.status === 'pending') await captureAgent(this.store, id, a.index, { error: 'interrupted: the workbench stopped during its turn' });
    }
    run = await this.store.read(id);
    const live: LiveRun = { sessions: [], settled: Promise.resolve(run), prior: run.agents.map((a) => a.figures) };
    this.live.set(id, live);
    await Promise.all(
      run.agents.map(async (agent) => {
        if (!agent.sessionId || !existsSync(agent.workspace)) return;
        try {
          const session = await resume(agent, (prompt) => this.promptOne(id, agent.index, prompt));
          live.sessions[agent.index] = session;
          await agentStarted(this.store, id, agent.index, { sessionId: session.id, agentSessionId: session.agentSessionId ?? null, trace: session.connection.trace.path });
          await captureAgent(this.store, id, agent.index, { priorFigures: live.prior![agent.index] ?? null });
        } catch (err) {
          await captureAgent(this.store, id, agent.index, { error: `could not be reopened: ${err instanceof Error ? err.message : String(err)}` });
        }
      }),
    );
    if (!live.sessions.some(Boolean)) {
      this.live.delete(id);
      const failed = (await this.store.read(id)).agents.map((a) => `${a.label}: ${a.error ?? 'no recorded session'}`).join('; ');
      throw new RunError(`none of the run's agents could be reopened (${failed})`, 'state');
    }
    return this.store.read(id);
  }

  /** The agent's live session, for the UI's panes. */
  session(runId: string, index: number): AgentSession | undefined {
    return this.live.get(runId)?.sessions[index];
  }

  private async turns(runId: string, prompt: ContentBlock[], indexes: readonly number[], first: boolean): Promise<RunRecord> {
    const live = this.live.get(runId)!;
    await Promise.all(
      indexes.map(async (i) => {
        const session = live.sessions[i]!;
        let error: string | null = null;
        try {
          await session.prompt(prompt);
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
        await captureAgent(this.store, runId, i, { ...(await this.recordsOf(session, live.prior !== undefined)), error, priorFigures: live.prior?.[i] ?? null });
      }),
    );
    let run = await this.store.read(runId);
    if (first && run.verifyCommand) run = await verifyRun(this.store, runId, { ...(this.options.env ? { env: this.options.env } : {}) });
    return run;
  }

  /** The session's records, from its trace (the truth; the same path reopening a run takes). */
  private async recordsOf(session: AgentSession | undefined, fromFirstPrompt = false): Promise<{ records?: TraceRecord[]; sessionId?: string; trace?: string }> {
    if (!session) return {};
    const trace = session.connection.trace;
    if (!trace.closed) await trace.flush();
    const parsed = await readTraceFile(trace.path);
    // A resumed session's trace starts with the agent replaying the earlier conversation: counted already.
    const first = fromFirstPrompt ? parsed.records.findIndex(isPromptSent) : 0;
    const records = first < 0 ? [] : parsed.records.slice(first);
    return { records, sessionId: session.id, trace: trace.path };
  }

  /** Run the verification command (the run's, or this one) in every workspace. */
  async verify(runId: string, command?: string): Promise<RunRecord> {
    await this.settled(runId);
    return verifyRun(this.store, runId, { ...(command ? { command } : {}), ...(this.options.env ? { env: this.options.env } : {}) });
  }

  async get(runId: string): Promise<RunRecord> {
    return this.store.read(await this.store.resolveId(runId));
  }

  async comparison(runId: string, options: { withPatches?: boolean } = {}): Promise<Comparison> {
    const run = await this.get(runId);
    return buildComparison(run, options.withPatches ? await readPatches(run) : undefined);
  }

  async markdown(runId: string): Promise<string> {
    return comparisonMarkdown(await this.comparison(runId, { withPatches: true }));
  }

  async promote(runId: string, choice: PromoteChoice): Promise<PromoteResult> {
    return promote(this.store, await this.store.resolveId(runId), choice);
  }

  /** Stop the run's agents (the sessions stay in history). */
  async close(runId: string): Promise<void> {
    const live = this.live.get(runId);
    if (!live) return;
    this.live.delete(runId);
    await Promise.all(live.sessions.map((s) => s?.connection.close()));
  }

  /** Stop the run's agents and remove every workspace; the record, figures and patches stay. */
  async discard(runId: string): Promise<RunRecord> {
    const id = await this.store.resolveId(runId);
    await this.close(id);
    return discardRun(this.store, id);
  }

  list(): Promise<RunRecord[]> {
    return this.store.list();
  }

  /** Runs of earlier sessions (not live here) that still have workspaces on disk and were neither promoted nor discarded. */
  async leftovers(): Promise<RunRecord[]> {
    return (await this.store.leftovers()).filter((r) => !this.live.has(r.id));
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.close(id)));
  }
}

function isPromptSent(r: TraceRecord): boolean {
  return r.kind === 'wire' && r.dir === 'out' && (r.msg as { method?: unknown }).method === 'session/prompt';
}

/** Each agent's stored patch text (agents without one are left out). */
export async function readPatches(run: RunRecord): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const a of run.agents) {
    if (!a.patchFile) continue;
    try {
      out.set(a.index, await readFile(a.patchFile, 'utf8'));
    } catch {
      // removed by hand
    }
  }
  return out;
}
