/**
 * The compare-run requests (issue #7) over CompareRuns (main/core/workspace), with the UI's
 * session manager as the host that starts the agents: run sessions are ordinary live sessions,
 * shown as panes, their permission requests answered in the UI. Every change of a run's record is
 * pushed as `run/updated` (and the list as `runs/changed`).
 */
import type { EventName, PayloadOf } from '../../../common/api/contract';
import { throttledProgress } from '../workspace/progress-throttle';
import {
  FILE_TEXT_LIMIT,
  PATCH_LIMIT,
  type ComparisonView,
  type CreateRunParams,
  type PickedFileView,
  type PromoteResultView,
  type RunAgentParams,
  type RunFileTextsView,
  type RunSummary,
} from '../../../common/api/compare-types';
import { MAX_RUN_AGENTS } from '../workspace/run-types';
import { ApiError } from '../../../common/api/errors';
import { redactArgs, isSecretEnvName } from '../../../common/trace/launch-spec';
import type { SessionManager } from '../sessions/session-manager';
import { CompareRuns, RunError, type CompareAgentSpec, type RunRecord, type RunStore } from '../workspace';
import { readObject } from '../workspace/workspace-diff';
import { runRecipe } from '../workspace/run-recipe';
import { buildCatalog } from '../agents/catalog/catalog';
import { loadSettings } from '../agents/settings';
import { runPlace } from '../workspace/workspaces';
import type { RequestHandlers } from './handlers';

type Emit = <E extends EventName>(name: E, payload: PayloadOf<E>) => void;

type CompareRequests = Pick<
  RequestHandlers,
  | 'runs/create'
  | 'runs/abort-create'
  | 'runs/list'
  | 'runs/get'
  | 'runs/recipe'
  | 'runs/comparison'
  | 'runs/file-texts'
  | 'runs/follow-up'
  | 'runs/reopen'
  | 'runs/verify'
  | 'runs/promote'
  | 'runs/discard'
  | 'runs/leftovers'
  | 'runs/export'
>;

export interface CompareService {
  runs: CompareRuns;
  handlers: CompareRequests;
  dispose(): Promise<void>;
}

function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null || value === '') throw new ApiError({ code: 'bad_params', message: `missing ${what}` });
  return value;
}

/** RunErrors carry words for the user; they cross as ApiErrors with a code the UI understands. */
function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof RunError) {
    const code = err.code === 'not_found' ? 'not_found' : err.code === 'invalid' || err.code === 'conflict' ? 'bad_params' : err.code === 'state' ? 'not_available' : 'internal';
    return new ApiError({ code, message: err.message });
  }
  return new ApiError({ code: 'internal', message: err instanceof Error ? err.message : String(err) });
}

const guarded =
  <P, R>(fn: (p: P) => Promise<R>) =>
  async (p: P): Promise<R> => {
    try {
      return await fn(p);
    } catch (err) {
      throw toApiError(err);
    }
  };

/** The run's first prompt as text (attachments named). */
function promptText(prompt: readonly unknown[]): string {
  return prompt
    .map((b) => {
      const block = b as { type?: string; text?: string; resource?: { uri?: string } };
      if (block.type === 'text') return block.text ?? '';
      if (block.type === 'resource') return `[${(block.resource?.uri ?? 'attachment').replace(/^.*\//, '')}]`;
      return `[${block.type ?? 'content'}]`;
    })
    .join(' ')
    .trim();
}

export function runSummary(store: RunStore, run: RunRecord, live: boolean): RunSummary {
  return {
    runId: run.id,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    status: run.status,
    project: run.source.cwd,
    isolation: run.source.isolation,
    prompt: promptText(run.prompts[0]?.prompt ?? []),
    policy: run.policy,
    verifyCommand: run.verifyCommand,
    agents: run.agents.map((a) => ({
      index: a.index,
      label: a.label,
      agentId: a.agentId,
      status: a.status,
      error: a.error,
      sessionId: a.sessionId,
      workspace: a.workspace,
      cwd: a.cwd,
      filesChanged: a.files.length,
      linesAdded: a.files.reduce((n, f) => n + (f.added ?? 0), 0),
      linesRemoved: a.files.reduce((n, f) => n + (f.removed ?? 0), 0),
    })),
    workspaces: store.hasWorkspaces(run),
    live,
    promoted: run.promoted,
    discardedAt: run.discardedAt,
    warnings: run.warnings,
    error: run.error,
  };
}

/** What the run record keeps of an agent chosen in the UI (no secrets: secret-looking values by name only). */
function agentSpec(p: RunAgentParams, i: number): CompareAgentSpec {
  const a = p?.agent as { agentId?: string; command?: string; args?: string[]; env?: Record<string, string>; label?: string } | undefined;
  if (!a || (typeof a.agentId !== 'string' && typeof a.command !== 'string')) throw new ApiError({ code: 'bad_params', message: `agent ${i + 1} needs an agent id or a command` });
  const options = {
    ...(p.mode?.trim() ? { mode: p.mode.trim() } : {}),
    ...(p.model?.trim() ? { model: p.model.trim() } : {}),
    ...(p.config?.length ? { config: p.config.map(([id, v]) => [String(id), String(v)] as [string, string]) } : {}),
  };
  if (typeof a.command === 'string') {
    if (!a.command.trim()) throw new ApiError({ code: 'bad_params', message: `agent ${i + 1}: the command is empty` });
    const args = (a.args ?? []).map(String);
    const env = a.env ?? {};
    return {
      label: p.label?.trim() || a.label?.trim() || a.command.replace(/^.*[/\\]/, ''),
      agentId: [a.command, ...args].join(' '),
      command: a.command,
      args,
      ...(Object.keys(env).length ? { env } : {}),
      launch: {
        command: a.command,
        args: redactArgs(args),
        env: Object.keys(env)
          .sort()
          .map((name) => (isSecretEnvName(name) ? { name, redacted: true as const } : { name, value: env[name]! })),
      },
      ...options,
    };
  }
  return { label: p.label?.trim() || a.agentId!, agentId: a.agentId!, ...options };
}

function checkCreate(p: CreateRunParams | undefined): CreateRunParams {
  need(p?.cwd, 'cwd');
  if (!Array.isArray(p!.agents)) throw new ApiError({ code: 'bad_params', message: 'missing agents' });
  if (!Array.isArray(p!.prompt) || p!.prompt.length === 0) throw new ApiError({ code: 'bad_params', message: 'the prompt is empty' });
  if (!['ask', 'all', 'reads', 'none'].includes(p!.policy)) throw new ApiError({ code: 'bad_params', message: `unknown permission policy "${String(p!.policy)}"` });
  return p!;
}

const cut = (text: string, limit: number) => (text.length > limit ? { text: text.slice(0, limit), truncated: true } : { text, truncated: false });

export function compareService(options: { dataDir: string; configDir: string; sessions: SessionManager; emit: Emit; env?: NodeJS.ProcessEnv }): CompareService {
  const { sessions, emit } = options;
  const runs = new CompareRuns({
    dataDir: options.dataDir,
    configDir: options.configDir,
    host: { start: (req) => sessions.startRunSession(req) },
    ...(options.env ? { env: options.env } : {}),
  });
  const store = runs.store;
  /** Creations under way that were given a `startId` → whether the user stopped them. */
  const creating = new Map<string, boolean>();
  // Runs created by this core and not discarded: CompareRuns keeps their sessions for follow-ups.
  const liveRuns = new Set<string>();
  const isLive = (run: RunRecord) => {
    if (!liveRuns.has(run.id)) return false;
    const open = new Set(sessions.list().map((s) => s.sessionId));
    return run.agents.some((a) => a.sessionId !== null && open.has(a.sessionId));
  };
  const summary = (run: RunRecord) => runSummary(store, run, isLive(run));

  // RunStore has no change hook: every write of a run record is a change the UI should see.
  let listTimer: ReturnType<typeof setTimeout> | undefined;
  const emitList = () => {
    clearTimeout(listTimer);
    listTimer = setTimeout(() => {
      void runs.list().then(
        (list) => emit('runs/changed', list.map(summary)),
        () => undefined,
      );
    }, 50);
  };
  const write = store.write.bind(store);
  store.write = async (record: RunRecord) => {
    await write(record);
    emit('run/updated', summary(record));
    emitList();
  };

  const comparison = async (runId: string, withPatches: boolean): Promise<ComparisonView> => {
    const c: ComparisonView = await runs.comparison(runId, { withPatches });
    if (!withPatches) return c;
    return {
      ...c,
      agents: c.agents.map((a) => {
        if (a.patch === undefined) return a;
        const { text, truncated } = cut(a.patch, PATCH_LIMIT);
        return { ...a, patch: text, ...(truncated ? { patchTruncated: true } : {}) };
      }),
    };
  };

  const fileTexts = async (runId: string, path: string): Promise<RunFileTextsView> => {
    const run = await runs.get(runId);
    const place = runPlace(run);
    const read = async (id: string | null): Promise<{ text: string | null; tooLarge: boolean }> => {
      if (!id) return { text: null, tooLarge: false };
      const bytes = await readObject(place, id);
      return bytes.length > FILE_TEXT_LIMIT ? { text: null, tooLarge: true } : { text: bytes.toString('utf8'), tooLarge: false };
    };
    const agents: RunFileTextsView['agents'] = [];
    for (const a of run.agents) {
      const f = a.files.find((x) => x.path === path);
      if (!f) continue;
      if (f.binary) {
        agents.push({ index: a.index, label: a.label, status: f.status, oldText: null, newText: null, binary: true, tooLarge: false });
        continue;
      }
      const [before, after] = await Promise.all([read(f.oldId), read(f.newId)]);
      agents.push({ index: a.index, label: a.label, status: f.status, oldText: before.text, newText: after.text, binary: false, tooLarge: before.tooLarge || after.tooLarge });
    }
    return { path, agents };
  };

  const handlers: CompareRequests = {
    'runs/abort-create': guarded(async (p) => {
      const startId = need(p?.startId, 'startId');
      if (!creating.has(startId)) return;
      creating.set(startId, true);
      // Agents already starting are stopped; the next ones are not started (`stopped`).
      await Promise.all(Array.from({ length: MAX_RUN_AGENTS }, (_, i) => sessions.abortStart(`${startId}#${i}`)));
    }),
    'runs/create': guarded(async (p) => {
      const params = checkCreate(p);
      const startId = params.startId;
      if (startId !== undefined) {
        if (creating.has(startId)) throw new ApiError({ code: 'bad_params', message: `a run named "${startId}" is already being created` });
        creating.set(startId, false);
      }
      const stopped = () => startId !== undefined && creating.get(startId) === true;
      let created: RunRecord;
      let wasStopped = false;
      try {
        created = await runs.createRun({
          ...(startId !== undefined ? { startId, stopped, onProgress: throttledProgress((p) => emit('run/create-progress', { startId, ...p })) } : {}),
        cwd: params.cwd,
        agents: params.agents.map(agentSpec),
        prompt: params.prompt as Parameters<CompareRuns['createRun']>[0]['prompt'],
        policy: params.policy,
        minAgents: 2,
        ...(params.setupCommand?.trim() ? { setupCommand: params.setupCommand.trim() } : {}),
        ...(params.verifyCommand?.trim() ? { verifyCommand: params.verifyCommand.trim() } : {}),
        });
      } finally {
        wasStopped = stopped();
        if (startId !== undefined) creating.delete(startId);
      }
      if (wasStopped) {
        // The user asked for no run: what was started is closed and the workspaces removed (once the
        // closed sessions' turns are captured; a capture that hangs is not waited for past 10 s).
        await Promise.all(created.agents.map((a) => (a.sessionId ? sessions.close(a.sessionId).catch(() => undefined) : undefined)));
        await Promise.race([runs.settled(created.id).catch(() => undefined), new Promise((r) => setTimeout(r, 10_000).unref())]);
        await runs.discard(created.id).catch(() => undefined);
        throw new ApiError({ code: 'cancelled', message: 'The compare run was stopped while it was being created; its workspaces were removed.' });
      }
      liveRuns.add(created.id);
      // The turns run on; a failure there is recorded in the run (its agents' errors).
      void runs.settled(created.id).catch(() => undefined);
      const result = summary(created);
      emit('run/updated', result);
      emitList();
      return result;
    }),
    'runs/list': guarded(async () => (await runs.list()).map(summary)),
    'runs/get': guarded(async (p) => summary(await runs.get(need(p?.runId, 'runId')))),
    'runs/recipe': guarded(async (p) => {
      const run = await runs.get(need(p?.runId, 'runId'));
      const { settings } = await loadSettings(options.configDir);
      return runRecipe(run, new Set(buildCatalog(settings).filter((a) => !a.disabled).map((a) => a.id)));
    }),
    'runs/comparison': guarded((p) => comparison(need(p?.runId, 'runId'), p.withPatches === true)),
    'runs/file-texts': guarded((p) => fileTexts(need(p?.runId, 'runId'), need(p.path, 'path'))),
    'runs/follow-up': guarded(async (p) => {
      const runId = need(p?.runId, 'runId');
      if (!Array.isArray(p.prompt) || p.prompt.length === 0) throw new ApiError({ code: 'bad_params', message: 'the prompt is empty' });
      return summary(await runs.followUp(runId, p.prompt as Parameters<CompareRuns['followUp']>[1], p.indexes));
    }),
    'runs/reopen': guarded(async (p) => {
      const id = await store.resolveId(need(p?.runId, 'runId'));
      const run = await runs.reopen(id, (agent, promptFromPane) => sessions.resumeForRun(agent.sessionId!, { label: agent.label, lineage: { runId: id } }, promptFromPane));
      liveRuns.add(id);
      const result = summary(run);
      emit('run/updated', result);
      emitList();
      return result;
    }),
    'runs/verify': guarded(async (p) => summary(await runs.verify(need(p?.runId, 'runId'), p.command?.trim() || undefined))),
    'runs/promote': guarded(async (p): Promise<PromoteResultView> => {
      const runId = need(p?.runId, 'runId');
      if ('files' in p && Array.isArray(p.files)) return runs.promote(runId, p.files.map((f: PickedFileView) => ({ agentIndex: Number(f.agentIndex), path: String(f.path) })));
      if ('agentIndex' in p && Number.isInteger(p.agentIndex)) return runs.promote(runId, p.agentIndex);
      throw new ApiError({ code: 'bad_params', message: 'promote needs agentIndex or files' });
    }),
    'runs/discard': guarded(async (p) => {
      const id = await store.resolveId(need(p?.runId, 'runId'));
      const run = await store.read(id);
      // Its sessions close through the session manager, so their panes say so.
      await Promise.all(run.agents.map((a) => (a.sessionId ? sessions.close(a.sessionId).catch(() => undefined) : undefined)));
      liveRuns.delete(id);
      return summary(await runs.discard(id));
    }),
    'runs/leftovers': guarded(async () => (await runs.leftovers()).map(summary)),
    'runs/export': guarded(async (p) => {
      const runId = await store.resolveId(need(p?.runId, 'runId'));
      if (p.format === 'md') return { fileName: `compare-run-${runId}.md`, mimeType: 'text/markdown', text: await runs.markdown(runId) };
      if (p.format === 'json') return { fileName: `compare-run-${runId}.json`, mimeType: 'application/json', text: `${JSON.stringify(await runs.comparison(runId, { withPatches: true }), null, 2)}\n` };
      throw new ApiError({ code: 'bad_params', message: `unknown export format "${String(p.format)}" (md or json)` });
    }),
  };

  return {
    runs,
    handlers,
    dispose: async () => {
      clearTimeout(listTimer);
      await runs.dispose();
    },
  };
}
