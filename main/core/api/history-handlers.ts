/**
 * The `history/*` requests: the history browser over HistoryStore, resume and fork into live panes
 * (main/core/history/continue + SessionManager.startContinued), lineage, and the sessions an agent
 * lists itself (session/list, paged by its cursor) merged with ours.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import type { EventName, PayloadOf } from '../../../common/api/contract';
import { ApiError } from '../../../common/api/errors';
import type * as H from '../../../common/api/history-types';
import { defaultDistDir } from '../agents/catalog/demo';
import type { AgentChoice, StartSessionParams } from '../../../common/api/session-api-types';
import { sliceWindow } from '../../../common/api/window';
import type { Transcript } from '../../../common/transcript/model';
import { advertises } from '../acp/agent-capabilities';
import { AgentConnection } from '../acp/agent-connection';
import { switchesFromSettings } from '../agents/capability-switches';
import { resolveAgentLaunch } from '../agents/launch';
import { SecretStore, type Encryptor } from '../agents/secrets';
import { ContinueError, planContinuation, type ContinueKind } from '../history/continue/continue-session';
import { sessionRecords, userMessages } from '../history/continue/lineage-records';
import { launchFromTrace } from '../history/continue/recorded-launch';
import { lineageTree } from '../history/continue/lineage-tree';
import { fileDiffs } from '../../../common/transcript/file-diffs';
import { rebuildTranscript } from '../../../common/transcript/rebuild';
import { HistoryError, HistoryStore } from '../history/history-store';
import { dismiss, dismissedPath, OFFER_WINDOW_MS, readDismissed, sessionsToOffer } from '../history/interrupted-offers';
import type { HistoryEntry, HistoryFilter } from '../history/history-types';
import type { WorkbenchPaths } from '../paths';
import type { SessionManager } from '../sessions/session-manager';
import type { AgentLaunch } from '../sessions/start-session';
import type { RequestHandlers } from './handlers';

type HistoryRequests = Pick<RequestHandlers, Extract<keyof RequestHandlers, `history/${string}`>>;
type Emit = <E extends EventName>(name: E, payload: PayloadOf<E>) => void;

export function historyView(e: HistoryEntry): H.HistorySessionView {
  const tokens = Object.values(e.usage.tokens).reduce((a, b) => a + b, 0);
  const l = e.lineage;
  return {
    id: e.id,
    origin: 'workbench',
    ...(e.agentSessionId ? { agentSessionId: e.agentSessionId } : {}),
    agent: e.agent,
    ...(e.cwd ? { cwd: e.cwd } : {}),
    title: e.title,
    tags: e.tags,
    createdMs: e.createdMs,
    updatedMs: e.updatedMs,
    turns: e.turns,
    status: e.status,
    ...(e.lastStopReason !== undefined ? { lastStopReason: e.lastStopReason } : {}),
    ...(tokens ? { tokens } : {}),
    ...(e.usage.cost ? { cost: e.usage.cost } : {}),
    filesChanged: e.filesChanged.length,
    ...(l && (l.parentSessionId || l.relation)
      ? { lineage: { ...(l.parentSessionId ? { parentSessionId: l.parentSessionId } : {}), ...(l.relation ? { relation: l.relation } : {}), ...(l.by ? { by: l.by } : {}), ...(l.forkPoint?.beforeMessage !== undefined ? { beforeMessage: l.forkPoint.beforeMessage } : {}) } }
      : {}),
  };
}

function filterOf(p: H.HistoryFilterParams): HistoryFilter {
  return {
    ...(p.agent ? { agent: p.agent } : {}),
    ...(p.cwd ? { cwd: p.cwd } : {}),
    ...(p.since !== undefined ? { since: p.since } : {}),
    ...(p.status ? { status: p.status } : {}),
    ...(p.tag ? { tag: p.tag } : {}),
    ...(p.hasChanges !== undefined ? { hasChanges: p.hasChanges } : {}),
  };
}

function apiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HistoryError) return new ApiError({ code: err.code === 'not-found' ? 'not_found' : 'bad_params', message: err.message });
  if (err instanceof ContinueError) return new ApiError({ code: 'bad_params', message: err.message });
  const e = err as Error & { fix?: string; problem?: string };
  return new ApiError({ code: 'internal', message: (e.fix ? e.problem : undefined) ?? e.message ?? String(err), ...(e.fix ? { hint: e.fix } : {}) });
}

const guard =
  <P, R>(fn: (p: P) => Promise<R>) =>
  async (p: P): Promise<R> => {
    try {
      return await fn(p);
    } catch (err) {
      throw apiError(err);
    }
  };

export function historyHandlers(paths: WorkbenchPaths, sessions: SessionManager, emit: Emit, env: NodeJS.ProcessEnv = process.env, encryptor?: Encryptor): HistoryRequests & { dispose(): Promise<void> } {
  let storePromise: Promise<HistoryStore> | undefined;
  let lastRefresh = 0;
  const store = async (fresh: boolean | 'throttled' = false): Promise<HistoryStore> => {
    // A long catch-up (a rebuild, a big first look) is shown as it goes: the list waits for it.
    storePromise ??= HistoryStore.open(paths.dataDir, { onProgress: (p) => emit('history/progress', p) });
    const s = await storePromise;
    // A scrolling list asks for many windows: those catch up with the traces at most once a second.
    if (fresh === true || (fresh === 'throttled' && Date.now() - lastRefresh > 1000)) {
      lastRefresh = Date.now();
      await s.refresh();
    }
    return s;
  };
  /**
   * The store once it knows `id`: a session recorded a moment ago — the window asks for it right after
   * its turn (an export from the palette, a preview) — may not be indexed yet, so an id it does not
   * know makes it catch up with the traces first (a CI run's export failed with "no session" so).
   */
  const storeKnowing = async (id: string | undefined): Promise<HistoryStore> => {
    const s = await store();
    const found = typeof id === 'string' ? s.resolve(id) : undefined;
    if (found && 'error' in found && found.error === 'not-found') await s.refresh();
    return s;
  };
  /** Transcripts of the sessions previewed last (the preview fetches windows of one). */
  const transcripts = new Map<string, Promise<Transcript>>();
  const transcriptOf = (id: string): Promise<Transcript> => {
    let t = transcripts.get(id);
    if (!t) {
      t = store().then(async (s) => rebuildTranscript((await sessionRecords(s, id)).records));
      t.catch(() => transcripts.delete(id));
      transcripts.set(id, t);
      while (transcripts.size > 4) transcripts.delete(transcripts.keys().next().value!);
    }
    return t;
  };
  const changed = (reason: H.HistoryChangedEvent['reason'], id?: string) => emit('history/changed', { reason, ...(id ? { id } : {}) });

  const launchOf = async (choice: AgentChoice, cwd: string): Promise<AgentLaunch> => {
    if ('command' in choice) {
      return { command: choice.command, args: choice.args ?? [], env: { ...env, ...choice.env }, cwd, label: choice.label ?? choice.command.replace(/^.*[/\\]/, ''), agentId: [choice.command, ...(choice.args ?? [])].join(' ') };
    }
    const { launch, capabilities } = await resolveAgentLaunch({ agentId: choice.agentId, configDir: paths.configDir, dataDir: paths.dataDir, sessionCwd: cwd, processEnv: env, ...(encryptor ? { encryptor } : {}) });
    return { command: launch.command, args: launch.args, env: launch.env, cwd: launch.cwd, label: launch.agentName, agentId: launch.agentId, switches: switchesFromSettings(capabilities) };
  };

  /** A short-lived connection to ask an agent something (session/list, session/delete). */
  const withAgent = async <T>(launch: AgentLaunch, cwd: string, body: (conn: AgentConnection) => Promise<T>): Promise<T> => {
    const conn = await AgentConnection.start({ command: launch.command, args: launch.args, cwd: launch.cwd ?? cwd, env: launch.env, agent: { id: launch.agentId, name: launch.label, label: launch.label }, dataDir: paths.dataDir, host: 'history' });
    try {
      await conn.initialize();
      return await body(conn);
    } finally {
      await conn.close();
    }
  };

  const continueInto = async (kind: ContinueKind, p: H.HistoryContinueParams): Promise<H.HistoryContinueResult> => {
    if (!p?.id) throw new ApiError({ code: 'bad_params', message: 'missing id' });
    const s = await store(true);
    const secrets = await SecretStore.open(paths.dataDir, encryptor).catch(() => undefined);
    const parentCwd = s.require(p.id).cwd ?? '/';
    const agent = p.agent ? await launchOf(p.agent, parentCwd) : undefined;
    const plan = await planContinuation({
      store: s,
      id: p.id,
      kind,
      ...(p.beforeMessage !== undefined ? { beforeMessage: p.beforeMessage } : {}),
      ...(agent ? { agent } : {}),
      ...(p.env ? { env: p.env } : {}),
      ...(secrets ? { secrets } : {}),
      processEnv: env,
    });
    const params: StartSessionParams = { agent: { command: plan.launch.command, args: [...plan.launch.args], label: plan.launch.label }, cwd: plan.sessionCwd, policy: 'ask' };
    const live = await sessions.startContinued(params, { launch: plan.launch, start: plan.startOptions(), firstPrompt: (blocks: ContentBlock[]) => plan.firstPromptBlocks(blocks) });
    if (p.prompt?.trim()) void sessions.prompt(live.sessionId, [{ type: 'text', text: p.prompt }]).catch(() => undefined);
    changed('continued', live.sessionId);
    return { live, by: plan.by ?? 'primed', parent: plan.parent.id, warnings: plan.warnings };
  };

  sessions.setResumeFromHistory(async (sessionId) => (await continueInto('resume', { id: sessionId })).live);

  return {
    'history/list': guard(async (p) => {
      const s = await store(p?.offset ? 'throttled' : true);
      const filter = filterOf(p ?? {});
      const offset = Math.max(0, p?.offset ?? 0);
      const limit = Math.min(500, Math.max(0, p?.limit ?? 100));
      return { items: s.list({ ...filter, offset, limit }).map(historyView), offset, total: s.count(filter) };
    }),
    'history/interrupted': guard(async () => {
      const s = await store(true);
      const now = Date.now();
      const recent = s.list({ since: now - OFFER_WINDOW_MS, offset: 0, limit: 500 }).map(historyView);
      return sessionsToOffer(recent, await readDismissed(dismissedPath(s.paths.dir)), now);
    }),
    'history/dismiss-interrupted': guard(async (p) => {
      if (!Array.isArray(p?.ids) || p.ids.some((id) => typeof id !== 'string')) throw new ApiError({ code: 'bad_params', message: 'ids must be a list of session ids' });
      const s = await store();
      await dismiss(dismissedPath(s.paths.dir), p.ids);
    }),
    'history/search': guard(async (p) => {
      const s = await store();
      const r = await s.search(p.query ?? '', { ...filterOf(p), limit: Math.min(200, p.limit ?? 50), offset: p.offset ?? 0, prefixLast: true });
      return { query: r.query, total: r.total, hits: r.hits.map((h) => ({ session: historyView(h.entry), snippets: h.snippets })) };
    }),
    'history/preview': guard(async (p) => {
      const s = await storeKnowing(p.id);
      const entry = s.require(p.id);
      transcripts.delete(entry.id); // fresh: it may still be running
      const t = await transcriptOf(entry.id);
      const records = (await sessionRecords(s, entry.id)).records;
      const messages = userMessages(records).map((m) => ({ index: m.index, entryId: m.entryId, text: m.text.slice(0, 300) }));
      return { session: historyView(entry), entryCount: t.ids.length, messages };
    }),
    'history/entries': guard(async (p) => {
      const t = await transcriptOf((await storeKnowing(p.id)).require(p.id).id);
      const w = sliceWindow(t.ids, { offset: p.offset ?? 0, limit: p.limit });
      return { ...w, items: w.items.map((id) => t.entries[id]!) };
    }),
    'history/changes': guard(async (p) => {
      const t = await transcriptOf((await storeKnowing(p.id)).require(p.id).id);
      return { files: fileDiffs(t) };
    }),
    'history/rename': guard(async (p) => {
      const e = await (await storeKnowing(p.id)).rename(p.id, p.title?.trim() ? p.title.trim() : null);
      changed('meta', e.id);
      return historyView(e);
    }),
    'history/tag': guard(async (p) => {
      const e = await (await storeKnowing(p.id)).tag(p.id, { ...(p.add ? { add: p.add } : {}), ...(p.remove ? { remove: p.remove } : {}) });
      changed('meta', e.id);
      return historyView(e);
    }),
    'history/delete': guard(async (p) => {
      const s = await storeKnowing(p.id);
      const entry = s.require(p.id);
      let agentSide: H.HistoryDeleteResult['agentSide'] = 'not-asked';
      if (p.agentSide && entry.agentSessionId) {
        try {
          const { launch } = launchFromTrace(entry, (await sessionRecords(s, entry.id)).header, { processEnv: env, ...((await SecretStore.open(paths.dataDir, encryptor).catch(() => undefined)) ? { secrets: await SecretStore.open(paths.dataDir, encryptor) } : {}) });
          agentSide = await withAgent(launch, entry.cwd ?? '/', async (conn) => {
            if (!conn.init || !advertises(conn.init, 'session/delete')) return 'not-advertised' as const;
            await conn.deleteSession(entry.agentSessionId!);
            return 'deleted' as const;
          });
        } catch (err) {
          agentSide = { error: (err as Error).message };
        }
      }
      await s.delete(entry.id);
      transcripts.delete(entry.id);
      changed('deleted', entry.id);
      return { id: entry.id, agentSide };
    }),
    'history/export': guard(async (p) => {
      const r = await (await storeKnowing(p.id)).export(p.id, p.format);
      const mimeType = p.format === 'md' ? 'text/markdown' : p.format === 'json' ? 'application/json' : 'application/x-ndjson';
      return { fileName: `session-${p.id.slice(0, 12)}.${p.format}`, mimeType, text: r.text };
    }),
    'history/import': guard(async (p) => {
      const dir = await mkdtemp(join(tmpdir(), 'acpwb-import-'));
      try {
        const file = join(dir, (p.fileName || 'import.jsonl').replace(/[^\w.-]/g, '_'));
        await writeFile(file, p.text ?? '');
        const r = await (await store()).importTrace(file);
        changed('imported');
        return { sessions: r.traces.flatMap((t) => t.sessions) };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }),
    'history/resume': guard((p) => continueInto('resume', p)),
    'history/fork': guard((p) => continueInto('fork', p)),
    'history/tree': guard(async (p) => lineageTree(await store(true), p.id)),
    'history/agent-sessions': guard(async (p) => {
      const launch = await launchOf(p.agent, p.cwd);
      const page = await withAgent(launch, p.cwd, async (conn) => {
        if (!conn.init || !advertises(conn.init, 'session/list')) throw new ApiError({ code: 'bad_params', message: `${launch.label} does not advertise session/list (agentCapabilities.sessionCapabilities.list)` });
        return conn.listSessions({ cwd: p.cwd, ...(p.cursor ? { cursor: p.cursor } : {}) });
      });
      const s = await store(true);
      const ours = new Map<string, HistoryEntry>();
      for (const e of s.list({ cwd: p.cwd })) if (e.agentSessionId) ours.set(e.agentSessionId, e);
      const items = page.sessions.map((info): H.HistorySessionView => {
        const mine = ours.get(info.sessionId);
        if (mine) return historyView(mine);
        const at = info.updatedAt ? Date.parse(info.updatedAt) : 0;
        return { id: `agent:${info.sessionId}`, origin: 'agent', agentSessionId: info.sessionId, agent: { label: launch.label }, cwd: info.cwd ?? p.cwd, title: info.title ?? info.sessionId, tags: [], createdMs: at, updatedMs: at, turns: 0, status: 'ended', filesChanged: 0 };
      });
      return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }),
    'history/open-agent-session': guard(async (p) => {
      const launch = await launchOf(p.agent, p.cwd);
      return sessions.startContinued(
        { agent: p.agent, cwd: p.cwd, policy: 'ask' },
        {
          launch,
          start: {
            openWith: async (session, init) => {
              const how = advertises(init, 'session/resume') ? 'resume' : advertises(init, 'session/load') ? 'load' : undefined;
              if (!how) throw new ApiError({ code: 'bad_params', message: `${launch.label} can neither resume nor load sessions` });
              await session.open(how, p.agentSessionId);
              session.connection.notice('info', `Opened the agent's session ${p.agentSessionId} with session/${how}.`, session.id);
            },
          },
        },
      );
    }),
    'history/replay-as-agent': guard(async (p) => {
      const entry = (await storeKnowing(p.id)).require(p.id);
      // The replay speaks as the recorded agent; a scratch folder keeps it away from real files,
      // and `replay` rebases the recorded cwd onto it.
      const cwd = join(paths.dataDir, 'replays', `${entry.id}-${Date.now()}`);
      await mkdir(cwd, { recursive: true });
      return sessions.start({
        agent: {
          command: process.execPath,
          args: [join(defaultDistDir(), 'cli', 'acp-workbench.cjs'), 'replay', entry.trace.path, '--session', entry.id],
          // Inside Electron, process.execPath is Electron itself: run it as plain Node.
          env: { ELECTRON_RUN_AS_NODE: '1' },
          label: `replay of ${entry.title || entry.id}`,
        },
        cwd,
        policy: 'ask',
      });
    }),
    dispose: async () => {
      if (storePromise) await (await storePromise).close();
    },
  };
}


