/**
 * The life of a compare run's workspaces, step by step, each step recorded in run.json: prepare
 * (snapshot + one worktree or copy per agent + links), the setup command, capturing what an agent
 * changed (after each turn), the verification command, and discard. The CLI and the CompareRuns
 * service (compare-runs.ts) are both built from these steps.
 */
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { mkdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { RunCreateProgress } from '../../../common/api/compare-types';
import { newId } from '../../../common/trace/ids';
import type { TraceRecord } from '../../../common/trace/records';
import { copyFolder, DEFAULT_MAX_COPY_FILE_BYTES, describeSkipped } from './copy-folder';
import { addFigures, agentFigures } from './figures';
import { atDir, runGit, type GitPlace } from './git';
import { RunError, type RunStore } from './run-store';
import { MAX_RUN_AGENTS, RUN_FORMAT_VERSION, type AgentFigures, type RunAgentRecord, type RunLaunchInfo, type RunRecord } from './run-types';
import { runShellCommand, type CommandResult } from './shell-command';
import { findRepo, snapshotWorkingTree } from './snapshot';
import { captureWorkspace, changedFiles, copyIndexFile, patchBetween, workspacePlace } from './workspace-diff';

export interface RunAgentInput {
  /** Shown in panes, events and folder names; repeated labels get `#2`, `#3`. */
  label: string;
  /** Catalog id, or the command of an ad-hoc agent. */
  agentId: string;
  /** How it is launched, for the record (without secrets). */
  launch?: RunLaunchInfo | null;
  mode?: string;
  model?: string;
  config?: Array<[string, string]>;
}

export interface PrepareRunParams {
  /** The project folder. */
  cwd: string;
  agents: RunAgentInput[];
  /** The first prompt (ACP content blocks). */
  prompt: unknown[];
  /** The permission policy of the run (`ask`, `all`, `reads`, `none`). */
  policy: string;
  setupCommand?: string | null;
  verifyCommand?: string | null;
  /** Folders (relative to `cwd`) linked into every workspace instead of copied, e.g. `node_modules`. */
  links?: string[];
  /** Copy workspaces: larger files are not copied (default 10 MiB). */
  maxCopyFileBytes?: number;
  /** At least this many agents (the UI asks for 2; the CLI allows 1). */
  minAgents?: number;
  /** Told of each step of making the workspaces (a copy: of each file copied). */
  onProgress?: (progress: PrepareProgress) => void;
}

/** A step of `prepareRun` (RunCreateProgress without the start's name and the later steps). */
export type PrepareProgress = Omit<RunCreateProgress, 'startId' | 'started'> & { step: 'snapshot' | 'workspace' | 'capture' };

const now = () => new Date().toISOString();

/** Number repeated labels: `a`, `a#2`, `a#3`. */
export function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return labels.map((l) => {
    const n = (seen.get(l) ?? 0) + 1;
    seen.set(l, n);
    return n > 1 ? `${l}#${n}` : l;
  });
}

/** Where git runs for an agent of the run. */
export function agentPlace(store: RunStore, run: RunRecord, agent: RunAgentRecord): GitPlace {
  return workspacePlace(run.source.isolation, agent.workspace, run.gitDir ? { gitDir: run.gitDir, indexFile: copyIndexFile(store.runDir(run.id), agent.index) } : undefined);
}

/** Where git runs for commits of the run when no workspace is needed (diffs between stored commits). */
export function runPlace(run: RunRecord): GitPlace {
  return run.gitDir ? { args: ['--git-dir', run.gitDir] } : atDir(run.source.root);
}

function checkParams(params: PrepareRunParams): void {
  const min = params.minAgents ?? 1;
  if (params.agents.length < min || params.agents.length > MAX_RUN_AGENTS) {
    throw new RunError(`a compare run takes ${min} to ${MAX_RUN_AGENTS} agents, not ${params.agents.length}`, 'invalid');
  }
  if (!isAbsolute(params.cwd)) throw new RunError(`the project folder must be an absolute path: ${params.cwd}`, 'invalid');
  if (!existsSync(params.cwd) || !statSync(params.cwd).isDirectory()) throw new RunError(`the project folder ${params.cwd} does not exist`, 'invalid');
  for (const link of params.links ?? []) {
    if (isAbsolute(link) || link.split(/[\\/]/).includes('..') || link === '' || link === '.') {
      throw new RunError(`a linked folder must be a path inside the project folder, got "${link}"`, 'invalid');
    }
  }
}

/**
 * Make a run: its record, the snapshot (git) or the copies (plain folder), one workspace per
 * agent, the links. On failure nothing is left but a run marked `failed`.
 */
export async function prepareRun(store: RunStore, params: PrepareRunParams): Promise<RunRecord> {
  checkParams(params);
  const cwd = realpathSync(params.cwd);
  const id = newId();
  const labels = uniqueLabels(params.agents.map((a) => a.label));
  const repo = await findRepo(cwd);
  const runDir = store.runDir(id);
  const record: RunRecord = {
    version: RUN_FORMAT_VERSION,
    id,
    createdAt: now(),
    updatedAt: now(),
    status: 'preparing',
    source: repo
      ? { cwd, root: repo.root, subdir: repo.subdir, isolation: 'worktree', head: repo.head, branch: repo.branch }
      : { cwd, root: cwd, subdir: '', isolation: 'copy', head: null, branch: null },
    base: '',
    gitDir: repo ? null : join(runDir, 'base.git'),
    prompts: [{ at: now(), prompt: params.prompt, agents: params.agents.map((_, i) => i) }],
    policy: params.policy,
    setupCommand: params.setupCommand ?? null,
    verifyCommand: params.verifyCommand ?? null,
    links: (params.links ?? []).map((l) => toSlash(join(repo?.subdir ?? '', l))),
    skipped: [],
    warnings: [],
    agents: params.agents.map((a, index) => {
      const workspace = store.agentWorkspace(id, index, labels[index]!);
      return {
        index,
        label: labels[index]!,
        agentId: a.agentId,
        launch: a.launch ?? null,
        ...(a.mode !== undefined ? { mode: a.mode } : {}),
        ...(a.model !== undefined ? { model: a.model } : {}),
        ...(a.config?.length ? { config: a.config } : {}),
        workspace,
        cwd: repo?.subdir ? join(workspace, ...repo.subdir.split('/')) : workspace,
        base: '',
        result: null,
        status: 'pending',
        error: null,
        sessionId: null,
        agentSessionId: null,
        trace: null,
        setup: null,
        verify: null,
        figures: null,
        files: [],
        patchFile: null,
      };
    }),
    promoted: null,
    discardedAt: null,
    error: null,
  };
  await store.write(record);
  await mkdir(store.runWorkspaces(id), { recursive: true });
  try {
    // A data folder inside the project (--data-dir ./data) must not end up in its own workspaces.
    const dataInside = relative(record.source.root, realpathSync(store.dataDir));
    const excluded = dataInside && !dataInside.startsWith('..') && !isAbsolute(dataInside) ? [toSlash(dataInside)] : [];
    if (repo) {
      const of = record.agents.length;
      params.onProgress?.({ step: 'snapshot', of });
      record.base = await snapshotWorkingTree(repo.root, repo.head, join(runDir, 'snapshot.index'), excluded);
      // One at a time: `worktree add` takes a lock on the repository's worktree list.
      for (const agent of record.agents) {
        params.onProgress?.({ step: 'workspace', agent: agent.index + 1, of });
        await runGit(atDir(repo.root), ['worktree', 'add', '--detach', '--quiet', agent.workspace, record.base]);
      }
    } else {
      const of = record.agents.length;
      for (const agent of record.agents) {
        const copied = { step: 'workspace' as const, agent: agent.index + 1, of, files: 0, bytes: 0 };
        params.onProgress?.({ ...copied });
        const onFile = (bytes: number) => {
          copied.files++;
          copied.bytes += bytes;
          params.onProgress?.({ ...copied });
        };
        const skipped = await copyFolder(cwd, agent.workspace, { maxFileBytes: params.maxCopyFileBytes ?? DEFAULT_MAX_COPY_FILE_BYTES, skip: excluded, onFile });
        if (agent.index === 0) record.skipped = skipped;
      }
      if (record.skipped.length) record.warnings.push(describeSkipped(record.skipped));
      await runGit({ args: [] }, ['init', '--bare', '--quiet', record.gitDir!]);
      // Folders never copied stay out of the comparison when an agent recreates them (npm install).
      await writeFile(join(record.gitDir!, 'info', 'exclude'), 'node_modules/\n.git\n');
      await mkdir(join(runDir, 'index'), { recursive: true });
      const first = record.agents[0]!;
      params.onProgress?.({ step: 'capture', of });
      record.base = await captureWorkspace(agentPlace(store, record, first), null, record.links, 'acp-workbench: copy of the project folder');
    }
    for (const agent of record.agents) {
      agent.base = record.base;
      record.warnings.push(...(await makeLinks(record, agent)));
    }
    record.status = 'running';
    await store.write(record);
    return record;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    record.status = 'failed';
    record.error = `the workspaces could not be made: ${message}`;
    await removeWorkspaces(store, record).catch(() => undefined);
    await store.write(record);
    throw new RunError(record.error, 'workspace');
  }
}

const toSlash = (p: string) => p.split(sep).join('/');

/** Symbolic links (junctions on Windows) from the workspace to the user's own folders. */
async function makeLinks(run: RunRecord, agent: RunAgentRecord): Promise<string[]> {
  const warnings: string[] = [];
  for (const link of run.links) {
    const target = join(run.source.root, ...link.split('/'));
    const at = join(agent.workspace, ...link.split('/'));
    if (!existsSync(target)) {
      warnings.push(`not linked into ${agent.label}'s workspace: ${link} does not exist in the project folder`);
      continue;
    }
    if (existsSync(at)) {
      warnings.push(`not linked into ${agent.label}'s workspace: ${link} is already there`);
      continue;
    }
    await mkdir(dirname(at), { recursive: true });
    await symlink(target, at, process.platform === 'win32' ? 'junction' : undefined);
  }
  return warnings;
}

/**
 * Run the setup command in an agent's workspace (before its prompt). What it changes becomes the
 * agent's base, so only the agent's own changes are compared. A failing command fails the agent.
 */
export async function setupAgent(store: RunStore, runId: string, index: number, env?: NodeJS.ProcessEnv): Promise<RunAgentRecord> {
  const run = await store.read(runId);
  const agent = run.agents[index];
  if (!agent) throw new RunError(`run ${runId} has no agent ${index}`, 'invalid');
  if (!run.setupCommand) return agent;
  await store.update(runId, (r) => void (r.agents[index]!.status = 'setup'));
  const result = await runShellCommand(run.setupCommand, { cwd: agent.cwd, ...(env ? { env } : {}) });
  const ok = result.exitCode === 0;
  const base = ok ? await captureWorkspace(agentPlace(store, run, agent), run.base, run.links, `acp-workbench: ${agent.label} after the setup command`) : agent.base;
  const updated = await store.update(runId, (r) => {
    const a = r.agents[index]!;
    a.setup = result;
    a.base = base;
    if (!ok) {
      a.status = 'failed';
      a.error = `the setup command failed (${result.error ?? (result.timedOut ? 'time limit' : `exit ${result.exitCode}`)}) in ${a.cwd}`;
      settle(r);
    }
  });
  return updated.agents[index]!;
}

/** The agent is being started, or its session is open (then its ids are recorded). */
export async function agentStarted(store: RunStore, runId: string, index: number, session?: { sessionId: string; agentSessionId?: string | null; trace?: string | null }): Promise<void> {
  await store.update(runId, (r) => {
    const a = r.agents[index]!;
    a.status = 'running';
    if (!session) return;
    a.sessionId = session.sessionId;
    a.agentSessionId = session.agentSessionId ?? null;
    a.trace = session.trace ?? a.trace;
  });
}

export interface TurnOutcome {
  /** The session's trace records (all of the connection's are fine), for the figures. */
  records?: readonly TraceRecord[];
  sessionId?: string | null;
  agentSessionId?: string | null;
  trace?: string | null;
  /** Why the agent failed (start-up, turn error); null when its turn ended normally. */
  error?: string | null;
  /** Figures of the agent's earlier session in this run (reopened after a restart), added to this one's. */
  priorFigures?: AgentFigures | null;
}

/**
 * After an agent's turn (or its failure): capture its workspace, list what changed against its
 * base, store the patch and the figures. The run becomes `ready` when no agent is left running.
 */
export async function captureAgent(store: RunStore, runId: string, index: number, outcome: TurnOutcome = {}): Promise<RunAgentRecord> {
  const run = await store.read(runId);
  const agent = run.agents[index];
  if (!agent) throw new RunError(`run ${runId} has no agent ${index}`, 'invalid');
  const sessionId = outcome.sessionId ?? agent.sessionId;
  const fresh = outcome.records && sessionId ? agentFigures(outcome.records, sessionId) : agent.figures;
  const figures = outcome.priorFigures && fresh && fresh !== agent.figures ? addFigures(outcome.priorFigures, fresh) : fresh;
  let result = agent.result;
  let files = agent.files;
  let patchFile = agent.patchFile;
  let captureError: string | null = null;
  if (existsSync(agent.workspace)) {
    try {
      const place = agentPlace(store, run, agent);
      result = await captureWorkspace(place, agent.base, run.links, `acp-workbench: ${agent.label}'s changes`);
      files = await changedFiles(place, agent.base, result);
      patchFile = store.patchFile(runId, index);
      await mkdir(dirname(patchFile), { recursive: true });
      await writeFile(patchFile, await patchBetween(place, agent.base, result));
    } catch (err) {
      captureError = `the workspace could not be compared: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  const updated = await store.update(runId, (r) => {
    const a = r.agents[index]!;
    a.result = result;
    a.files = files;
    a.patchFile = patchFile;
    a.figures = figures;
    if (sessionId) a.sessionId = sessionId;
    if (outcome.agentSessionId) a.agentSessionId = outcome.agentSessionId;
    if (outcome.trace) a.trace = outcome.trace;
    const error = outcome.error ?? captureError;
    a.error = error ?? null;
    a.status = error ? 'failed' : 'done';
    settle(r);
  });
  return updated.agents[index]!;
}

/** A running run whose agents have all finished is `ready`. */
function settle(r: RunRecord): void {
  if (r.status === 'running' && r.agents.every((a) => a.status === 'done' || a.status === 'failed')) r.status = 'ready';
}

/** Mark agents as running again for a follow-up prompt. */
export async function followUpStarted(store: RunStore, runId: string, prompt: unknown[], indexes: readonly number[]): Promise<void> {
  await store.update(runId, (r) => {
    r.prompts.push({ at: now(), prompt, agents: [...indexes] });
    for (const i of indexes) r.agents[i]!.status = 'running';
    if (r.status === 'ready') r.status = 'running';
  });
}

/**
 * Run the verification command in each agent's workspace (one after the other: test suites often
 * share ports and caches), recording exit code and output per agent.
 */
export async function verifyRun(store: RunStore, runId: string, options: { command?: string; indexes?: readonly number[]; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<RunRecord> {
  const run = await store.read(runId);
  const command = options.command ?? run.verifyCommand;
  if (!command) throw new RunError(`run ${runId} has no verification command`, 'invalid');
  const results = new Map<number, CommandResult>();
  for (const agent of run.agents) {
    if (options.indexes && !options.indexes.includes(agent.index)) continue;
    if (!existsSync(agent.cwd)) continue;
    results.set(agent.index, await runShellCommand(command, { cwd: agent.cwd, ...(options.env ? { env: options.env } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) }));
  }
  return store.update(runId, (r) => {
    if (options.command) r.verifyCommand = options.command;
    for (const [i, result] of results) r.agents[i]!.verify = result;
  });
}

/** Remove the workspaces (worktrees through git, so its metadata goes too) and the private git dir. */
async function removeWorkspaces(store: RunStore, run: RunRecord): Promise<void> {
  for (const agent of run.agents) {
    // Links first: removing a workspace must never reach into the user's own folders.
    for (const link of run.links) {
      const at = join(agent.workspace, ...link.split('/'));
      try {
        if (lstatSync(at).isSymbolicLink()) await unlink(at);
      } catch {
        // not there
      }
    }
    // `worktree remove` also drops git's metadata of a worktree whose folder is already gone. No
    // `worktree prune`: it would also forget the user's own worktrees on unmounted drives.
    if (run.source.isolation === 'worktree' && existsSync(run.source.root)) {
      await runGit(atDir(run.source.root), ['worktree', 'remove', '--force', '--force', agent.workspace]).catch(() => undefined);
    }
    await rm(agent.workspace, { recursive: true, force: true });
  }
  await rm(store.runWorkspaces(run.id), { recursive: true, force: true });
  if (run.gitDir) await rm(run.gitDir, { recursive: true, force: true });
  await rm(join(store.runDir(run.id), 'index'), { recursive: true, force: true });
}

/** Remove every workspace of a run; the record, figures and patches stay (history). */
export async function discardRun(store: RunStore, runId: string): Promise<RunRecord> {
  const run = await store.read(runId);
  await removeWorkspaces(store, run);
  return store.update(runId, (r) => {
    r.status = 'discarded';
    r.discardedAt = now();
    for (const a of r.agents) if (a.status === 'running' || a.status === 'pending' || a.status === 'setup') a.status = 'failed';
  });
}

/** Paths of an agent's workspace files, relative to the workspace root (`/`-separated). */
export function relativeToWorkspace(agent: RunAgentRecord, paths: readonly string[]): string[] {
  return paths.map((p) => toSlash(relative(agent.workspace, p)));
}
