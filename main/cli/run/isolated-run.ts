/**
 * `acp-workbench run --isolate`: a compare run around the ordinary per-agent runs. Before them,
 * the workspaces (main/core/workspace) and each agent's setup command; each agent then runs as
 * usual with its workspace as `--cwd`; after each, its workspace is captured (files, patch, figures
 * from its trace); at the end the verification command and one `comparison` event.
 */
import { relative, sep } from 'node:path';
import { isSecretEnvName, redactArgs } from '../../../common/trace/launch-spec';
import type { LaunchEnvVar } from '../../../common/trace/records';
import { readTraceFile } from '../../core/history/trace-reader';
import type { AgentLaunch } from '../../core/sessions/start-session';
import { buildComparison } from '../../core/workspace/comparison';
import { RunStore } from '../../core/workspace/run-store';
import type { Comparison, RunRecord } from '../../core/workspace/run-types';
import { agentStarted, captureAgent, prepareRun, setupAgent, verifyRun, type PrepareProgress } from '../../core/workspace/workspaces';
import { ExitCode } from '../exit-codes';
import type { AgentRunResult } from './run-agent';
import type { AgentRef, CompareEvent, RunEvent, RunSummary } from './run-events';
import type { RunOptions } from './run-options';

type Emit = (event: RunEvent | CompareEvent) => void;

export class IsolatedRun {
  private constructor(
    private readonly store: RunStore,
    private run: RunRecord,
    private readonly opts: RunOptions,
    private readonly env: NodeJS.ProcessEnv,
    private readonly emit: Emit,
  ) {}

  /** Make the run and its workspaces (throws a RunError when they cannot be made). */
  static async prepare(opts: RunOptions, launches: readonly AgentLaunch[], env: NodeJS.ProcessEnv, emit: Emit, onProgress?: (p: PrepareProgress) => void): Promise<IsolatedRun> {
    const store = new RunStore(opts.paths.dataDir);
    const extraEnv: LaunchEnvVar[] = Object.keys(opts.env)
      .sort()
      .map((name) => (isSecretEnvName(name) ? { name, redacted: true as const } : { name, value: opts.env[name]! }));
    const run = await prepareRun(store, {
      cwd: opts.cwd,
      agents: launches.map((l) => ({
        label: l.label,
        agentId: l.agentId,
        launch: { command: l.command, args: redactArgs(l.args), env: extraEnv },
        ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
        ...(opts.model !== undefined ? { model: opts.model } : {}),
        ...(opts.config.length ? { config: opts.config } : {}),
      })),
      prompt: [{ type: 'text', text: opts.prompt }],
      policy: opts.approve,
      setupCommand: opts.setupCommand ?? null,
      verifyCommand: opts.verifyCommand ?? null,
      links: opts.links,
      minAgents: 1,
      ...(onProgress ? { onProgress } : {}),
    });
    emit({
      type: 'run',
      runId: run.id,
      isolation: run.source.isolation,
      root: run.source.root,
      base: run.base,
      branch: run.source.branch,
      workspaces: store.runWorkspaces(run.id),
      warnings: run.warnings,
    });
    for (const a of run.agents) emit({ type: 'workspace', agent: { index: a.index, label: a.label }, path: a.workspace, cwd: a.cwd });
    return new IsolatedRun(store, run, opts, env, emit);
  }

  get runId(): string {
    return this.run.id;
  }

  /** Setup, then the agent's ordinary run in its workspace, then the capture of what it changed. */
  async runAgent(ref: AgentRef, launch: AgentLaunch, runInWorkspace: (launch: AgentLaunch, opts: RunOptions) => Promise<AgentRunResult>): Promise<AgentRunResult> {
    const agent = this.run.agents[ref.index]!;
    if (this.run.setupCommand) {
      const done = await setupAgent(this.store, this.run.id, ref.index, { ...this.env, ...this.opts.env });
      const s = done.setup!;
      this.emit({ type: 'setup', agent: ref, command: s.command, exitCode: s.exitCode, signal: s.signal, timedOut: s.timedOut, durationMs: s.durationMs, output: s.output });
      if (done.status === 'failed') {
        const message = done.error ?? 'the setup command failed';
        this.emit({ type: 'error', agent: ref, message });
        return { exitCode: ExitCode.agentStartFailed, summary: emptySummary(ref, message) };
      }
    }
    await agentStarted(this.store, this.run.id, ref.index);
    // The agent starts in its workspace unless its catalog entry names a folder of its own.
    const inWorkspace: AgentLaunch = { ...launch, cwd: launch.cwd === undefined || launch.cwd === this.opts.cwd ? agent.cwd : launch.cwd };
    const result = await runInWorkspace(inWorkspace, { ...this.opts, cwd: agent.cwd });
    const s = result.summary;
    const records = s.trace ? (await readTraceFile(s.trace).catch(() => undefined))?.records : undefined;
    await captureAgent(this.store, this.run.id, ref.index, {
      ...(records ? { records } : {}),
      sessionId: s.id,
      agentSessionId: s.agentSessionId,
      trace: s.trace,
      error: s.error,
    });
    const relPaths = s.filesChanged.map((p) => relative(agent.workspace, p).split(sep).join('/'));
    return { ...result, summary: { ...s, relPaths } };
  }

  /** The verification command in every workspace, then the comparison (also emitted). */
  async finish(): Promise<Comparison> {
    this.run = this.run.verifyCommand
      ? await verifyRun(this.store, this.run.id, { env: { ...this.env, ...this.opts.env } })
      : await this.store.read(this.run.id);
    const comparison = buildComparison(this.run);
    this.emit(comparison);
    return comparison;
  }
}

function emptySummary(ref: AgentRef, error: string): RunSummary {
  return {
    type: 'summary',
    agent: ref,
    id: null,
    agentSessionId: null,
    stopReason: null,
    error,
    updates: 0,
    toolCalls: 0,
    permissionRequests: 0,
    filesChanged: [],
    firstUpdateMs: null,
    durationMs: null,
    usage: null,
    trace: null,
    relPaths: [],
  };
}
