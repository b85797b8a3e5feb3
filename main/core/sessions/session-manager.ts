/**
 * The live sessions of one core (Electron app or web host): starts agents for the UI, keeps their
 * runtimes, and turns their patches into batched `session/patches` events (≤ 1 per 4 ms per
 * session, patch-batcher.ts; a window gets them through its event coalescer, ≤ 1 message per 20 ms;
 * flushed at once on status changes — turn end, permission request, crash). Every UI
 * connected to the core sees the same sessions; the first answer to a permission request wins.
 */
import { readFile, writeFile, rm } from 'node:fs/promises';
import type { ContentBlock, PromptResponse } from '@agentclientprotocol/sdk/unstable';
import type { EventName, PayloadOf } from '../../../common/api/contract';
import { ApiError } from '../../../common/api/errors';
import type {
  AgentChoice,
  AgentView,
  DiffTextsResult,
  ElicitationAnswerParams,
  EntriesResult,
  FindResult,
  LiveSessionSummary,
  PermissionAnswerParams,
  PermissionAnswerResult,
  SessionSnapshot,
  StartSessionParams,
  UndoChangeResult,
} from '../../../common/api/session-api-types';
import { normalizeWindow, startWithinBytes, WINDOW_BYTES } from '../../../common/api/window';
import type { Lineage } from '../../../common/trace/records';
import type { Patch } from '../../../common/transcript/patches';
import { supersededContent } from '../../../common/transcript/superseded-content';
import { joinAppendedText } from '../../../common/transcript/joined-text';
import { windowEntry, windowPatches } from '../../../common/transcript/window-diffs';
import type { DiffContent } from '../../../common/transcript/acp-types';
import { switchesFromSettings } from '../agents/capability-switches';
import { resolveAgentLaunch } from '../agents/launch';
import type { Encryptor } from '../agents/secrets';
import { loadSettings } from '../agents/settings';
import { resolveInsideRoots } from '../acp/path-guard';
import { promptTitle } from '../history/prompt-title';
import type { WorkbenchPaths } from '../paths';
import { ConnectionQa } from '../qa/inspector/connection-qa';
import { SessionError, type AgentSession } from './agent-session';
import { ElicitationQueue } from './elicitation-queue';
import { PatchBatcher } from './patch-batcher';
import { PermissionBroker } from './permission-broker';
import { PASS, type ApprovePolicy, type Decider } from './permission-chain';
import { AlwaysMemory, standardPermissionChain } from './permission-policy';
import { PermissionQueue } from './permission-queue';
import { findInTranscript } from './transcript-find';
import { startAgentSession, type AgentLaunch, type StartSessionOptions } from './start-session';
import { reapplySettings } from './session-settings';
import { AgentAuth } from './agent-auth';
import type { PtyStatus } from '../agents/auth/pty';

type Emit = <E extends EventName>(name: E, payload: PayloadOf<E>) => void;

interface Live {
  session: AgentSession;
  params: StartSessionParams;
  launch: AgentLaunch;
  agent: AgentView;
  startedAt: number;
  seq: number;
  batcher: PatchBatcher<Patch>;
  undone: Set<string>;
  /** Inspector rows, live conformance findings, fault rules and manual answers of its connection. */
  qa: ConnectionQa;
  /** Set for the sessions of a compare run: their label within the run and lineage. */
  run?: { label: string; lineage: Lineage };
  /** A primed continuation: turns the first prompt into primer + prompt (once). */
  firstPrompt?: (prompt: ContentBlock[]) => ContentBlock[];
  /** Set for the sessions of a compare run: prompts from the pane go through the run (recorded, captured). */
  runPrompt?: (prompt: ContentBlock[]) => Promise<PromptResponse>;
  /** Set for a session continued from history (resume or fork): a restart continues it again. */
  continued?: true;
  /** The first prompt's words, the session's label until the user or the agent titles it (as history does). */
  promptTitle?: string;
}

/** Continues a recorded session into a new live one (the history API's resume). */
export type ResumeFromHistory = (sessionId: string) => Promise<LiveSessionSummary>;

/** A session continued from history (main/core/history/continue): its launch and how it opens. */
export interface ContinuedStart {
  launch: AgentLaunch;
  start: Partial<StartSessionOptions>;
  firstPrompt?: (prompt: ContentBlock[]) => ContentBlock[];
}

/** What starting a compare run's agent session takes (CompareRuns' RunSessionRequest fits it). */
export interface RunSessionStart {
  label: string;
  agent: { agentId: string; command?: string; args?: string[]; env?: Record<string, string> };
  /** The agent's workspace. */
  cwd: string;
  lineage: Lineage;
  policy: ApprovePolicy;
  /** A prompt typed in the pane goes through the run (CompareRuns records and captures it). */
  promptFromPane?: (prompt: ContentBlock[]) => Promise<PromptResponse>;
  /** Names the start, so `abortStart` can stop it (StartSessionParams.startId). */
  startId?: string;
}

export interface SessionManagerOptions {
  paths: WorkbenchPaths;
  host: string;
  emit: Emit;
  env?: NodeJS.ProcessEnv;
  /** Decrypts the agents' stored secrets (the Electron shell's safeStorage); default: plain. */
  encryptor?: Encryptor;
  /** The PTY for terminal logins (tests swap it); default: @lydell/node-pty. */
  pty?: () => Promise<PtyStatus>;
}

export class SessionManager {
  private readonly live = new Map<string, Live>();
  /** Starts under way that were given a `startId`: the session once it exists, and whether the user stopped it. */
  private readonly starting = new Map<string, { live?: Live; aborted: boolean }>();
  readonly queue = new PermissionQueue();
  readonly elicitations = new ElicitationQueue();
  private readonly memory = new AlwaysMemory();
  private resumeFromHistory: ResumeFromHistory | undefined;
  /** The broker's QA slot: each session's fault rules and manual mode decide its permission requests first. */
  private readonly qaRules: Decider[] = [{ name: 'qa-rules', decide: (input) => this.live.get(input.sessionId)?.qa.faults.decidePermission(input) ?? PASS }];
  readonly broker = new PermissionBroker({ deciders: standardPermissionChain({ memory: this.memory, qaRules: () => this.qaRules }), queue: this.queue, memory: this.memory });

  /** Agent logins: methods, authenticate, terminal logins (and the session start after one). */
  readonly auth: AgentAuth;

  constructor(private readonly options: SessionManagerOptions) {
    this.auth = new AgentAuth({
      dataDir: options.paths.dataDir,
      host: options.host,
      emit: options.emit,
      resolve: (choice, cwd) => this.resolveLaunch(choice, cwd),
      startSession: (params) => this.start(params),
      sessionParams: (sessionId) => this.startParams(sessionId),
      restartSession: (sessionId, onOpened) => this.restart(sessionId, undefined, onOpened),
      ...(options.pty ? { pty: options.pty } : {}),
    });
    this.elicitations.onChange((sessionId) => {
      const live = this.live.get(sessionId);
      if (!live) return;
      live.batcher.flushNow();
      this.options.emit('session/elicitations', { sessionId, pending: this.elicitations.list(sessionId) });
      this.options.emit('session/status', { sessionId, status: live.session.status, waiting: this.waiting(sessionId) });
    });
  }

  async start(params: StartSessionParams): Promise<LiveSessionSummary> {
    return this.summary(await this.open(params));
  }

  /**
   * Start the session of one agent of a compare run (CompareRuns' RunSessionHost): an ordinary
   * live session — a pane, permission requests answered in the UI — in the agent's workspace, with
   * the run's label and `lineage.runId` in its trace.
   */
  async startRunSession(req: RunSessionStart): Promise<AgentSession> {
    const { agent } = req;
    const choice: AgentChoice = agent.command
      ? { command: agent.command, args: agent.args ?? [], ...(agent.env ? { env: agent.env } : {}), label: req.label }
      : { agentId: agent.agentId };
    const live = await this.open({ agent: choice, cwd: req.cwd, policy: req.policy, ...(req.startId !== undefined ? { startId: req.startId } : {}) }, { label: req.label, lineage: req.lineage });
    if (req.promptFromPane) live.runPrompt = req.promptFromPane;
    return live.session;
  }

  /** Open a live session (a pane) for a resume or fork from history. */
  async startContinued(params: StartSessionParams, continued: ContinuedStart): Promise<LiveSessionSummary> {
    const live = await this.open(params, undefined, continued);
    live.continued = true;
    if (continued.firstPrompt) live.firstPrompt = continued.firstPrompt;
    return this.summary(live);
  }

  /**
   * Resume a recorded session of a compare run into a live pane (a run reopened after a restart):
   * prompts typed in the pane go through the run.
   */
  async resumeForRun(sessionId: string, run: NonNullable<Live['run']>, promptFromPane: (prompt: ContentBlock[]) => Promise<PromptResponse>): Promise<AgentSession> {
    if (!this.resumeFromHistory) throw new ApiError({ code: 'not_available', message: 'resuming recorded sessions is not available in this core' });
    const live = this.get((await this.resumeFromHistory(sessionId)).sessionId);
    live.run = run;
    live.runPrompt = promptFromPane;
    return live.session;
  }

  /** How a restart continues a session that was itself continued from history (set by the history API). */
  setResumeFromHistory(resume: ResumeFromHistory): void {
    this.resumeFromHistory = resume;
  }

  /**
   * Stop the start named `startId` while it is under way: its agent is closed (a hung `initialize`
   * need not be waited out) and the start fails with `cancelled`. A start that has ended is left alone.
   */
  async abortStart(startId: string): Promise<void> {
    const start = this.starting.get(startId);
    if (!start || start.aborted) return;
    start.aborted = true;
    if (start.live) await this.stopStarting(start.live);
  }

  private async stopStarting(live: Live): Promise<void> {
    await live.session.connection.close().catch(() => undefined);
  }

  private async open(params: StartSessionParams, run?: Live['run'], continued?: ContinuedStart): Promise<Live> {
    const start = params.startId !== undefined ? { aborted: false } : undefined;
    if (params.startId !== undefined) {
      if (this.starting.has(params.startId)) throw new ApiError({ code: 'bad_params', message: `a start named "${params.startId}" is already under way` });
      this.starting.set(params.startId, start!);
    }
    try {
      const live = await this.openNamed(params, start, run, continued);
      if (start?.aborted) {
        // Stopped just as it opened: the user asked for no session.
        await this.close(live.session.id);
        throw stoppedByUser();
      }
      return live;
    } finally {
      if (params.startId !== undefined) this.starting.delete(params.startId);
    }
  }

  private async openNamed(params: StartSessionParams, start: { live?: Live; aborted: boolean } | undefined, run?: Live['run'], continued?: ContinuedStart): Promise<Live> {
    const launch = continued?.launch ?? (await this.resolveLaunch(params.agent, params.cwd));
    if (run) launch.label = run.label;
    // Settings are read per start, so MCP servers added in settings.json apply to the next session.
    const { settings } = await loadSettings(this.options.paths.configDir);
    let live: Live | undefined;
    // auth.terminal is a promise to run terminal logins: made only where a PTY works (and settings allow it).
    const terminalAuth = (await this.auth.availability()).available && launch.switches?.terminalAuth !== false;
    try {
      const session = await startAgentSession({
        launch,
        mcpServerSettings: settings.mcpServers,
        sessionCwd: params.cwd,
        dataDir: this.options.paths.dataDir,
        broker: this.broker,
        elicitations: this.elicitations,
        policy: (params.policy ?? settings.permissionPolicy) as ApprovePolicy,
        interactive: true,
        host: this.options.host,
        // A window can show forms and confirm URLs, so elicitation is advertised here (not in the CLI).
        switches: { elicitationForm: true, elicitationUrl: true, terminalAuth, ...params.switches },
        ...(params.authMethodId ? { authenticate: params.authMethodId } : {}),
        ...(run ? { lineage: run.lineage } : {}),
        ...continued?.start,
        onSession: (s) => {
          live = this.track(s, params, launch, run);
          if (start) {
            start.live = live;
            if (start.aborted) void this.stopStarting(live);
          }
        },
      });
      void session;
    } catch (err) {
      if (live) {
        // It was listed as starting: the UI drops it again (else a failed start stays in the sidebar).
        this.forget(live.session.id);
        this.emitList();
      }
      if (start?.aborted) throw stoppedByUser();
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof SessionError && err.code === 'auth_required') {
        this.auth.remember(launch.agentId, err.authMethods);
        const data = await this.auth.view(launch, err.authMethods, params.cwd);
        throw new ApiError({ code: 'auth_required', message, hint: 'Log in with one of its methods; the session then starts.', data });
      }
      throw new ApiError({ code: 'agent_failed', message, hint: 'Check the command and its environment, then retry.' });
    }
    live!.agent = agentView(live!.session, launch);
    this.emitList();
    return live!;
  }

  list(): LiveSessionSummary[] {
    return [...this.live.values()].map((l) => this.summary(l));
  }

  snapshot(sessionId: string): SessionSnapshot {
    const live = this.get(sessionId);
    live.batcher.flushNow(); // everything in the transcript is then covered by `seq`
    const t = live.session.live;
    return {
      ...this.summary(live),
      session: t.session,
      fileChanges: t.fileWrites.map((c) => (live.undone.has(c.id) ? { ...c, error: 'undone by the user' } : c)),
      terminals: { ...t.terminals },
      seq: live.seq,
      elicitations: this.elicitations.list(sessionId),
    };
  }

  /** Entries [offset, offset + limit); `fromEnd`: at most `WINDOW_BYTES` of them, the last ones (see EntriesParams). */
  entries(sessionId: string, offset: number, limit: number, fromEnd = false): EntriesResult {
    const live = this.get(sessionId);
    live.batcher.flushNow();
    const t = live.session.live;
    const { offset: asked, limit: count } = normalizeWindow({ offset, limit });
    const end = Math.min(t.entryCount, asked + count);
    const from = fromEnd ? startWithinBytes(asked, end, WINDOW_BYTES, (i) => t.sizeAt(i)) : asked;
    // Large diffs go as previews; their texts come by `diffTexts` (window-diffs.ts).
    return { items: t.window(from, Math.max(0, end - from)).map(windowEntry), offset: from, total: t.entryCount, seq: live.seq };
  }

  /** The entries whose visible text holds `query` (transcript-find.ts). */
  find(sessionId: string, query: string): Promise<FindResult> {
    const live = this.get(sessionId);
    live.batcher.flushNow();
    return findInTranscript(live.session.live, query);
  }

  /** The full diff a window got as a preview: the `index`th content item of tool call `entryId`. */
  diffTexts(sessionId: string, entryId: string, index: number): DiffTextsResult {
    const live = this.get(sessionId);
    if (typeof entryId !== 'string' || !Number.isSafeInteger(index) || index < 0) throw new ApiError({ code: 'bad_params', message: 'entryId must be a string and index a whole number ≥ 0' });
    const entry = live.session.live.entry(entryId);
    if (entry?.kind !== 'tool_call') throw new ApiError({ code: 'not_found', message: `No tool call ${entryId} in this session` });
    const item = entry.content[index];
    if (item?.type !== 'diff' || typeof item.path !== 'string' || typeof item.newText !== 'string') {
      throw new ApiError({ code: 'not_found', message: `No diff at content item ${index} of tool call ${entryId}`, hint: 'The tool call may have changed since: its new content is on its way.' });
    }
    return { diff: item as DiffContent };
  }

  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<{ stopReason: string }> {
    const live = this.get(sessionId);
    const first = live.firstPrompt;
    live.firstPrompt = undefined;
    if (live.promptTitle === undefined) {
      live.promptTitle = promptTitle(prompt);
      if (live.promptTitle !== undefined) this.emitList();
    }
    try {
      const blocks = first ? first(prompt) : prompt;
      const response = await (live.runPrompt ? live.runPrompt(blocks) : live.session.prompt(blocks));
      return { stopReason: response.stopReason };
    } catch (err) {
      throw toApiError(err);
    }
  }

  async cancel(sessionId: string): Promise<void> {
    const live = this.get(sessionId);
    await live.session.cancel('user');
    live.qa.faults.cancelPermissions(); // held for a manual answer: cancelled too, as the protocol asks
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.get(sessionId).session.setMode(modeId).catch((e: unknown) => Promise.reject(toApiError(e)));
  }

  async setConfig(sessionId: string, configId: string, value: string | boolean): Promise<void> {
    await this.get(sessionId).session.setConfigOption(configId, value).catch((e: unknown) => Promise.reject(toApiError(e)));
  }

  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.get(sessionId).session.setModel(modelId).catch((e: unknown) => Promise.reject(toApiError(e)));
  }

  answerElicitation(p: ElicitationAnswerParams): { answered: boolean } {
    this.get(p.sessionId);
    return { answered: this.elicitations.answer(p.key, p.answer) };
  }

  answerPermission(p: PermissionAnswerParams): PermissionAnswerResult {
    this.get(p.sessionId);
    const key = `${p.sessionId}:${String(p.requestId)}`;
    const outcome = p.optionId === null ? ({ outcome: 'cancelled' } as const) : ({ outcome: 'selected', optionId: p.optionId } as const);
    const status = this.queue.resolve(key, outcome, 'user').status;
    // Held by a QA manual rule rather than the queue: the card answers it like the JSON editor would.
    if (status === 'unknown' && this.get(p.sessionId).qa.faults.answerHeldPermission(p.requestId, outcome)) return { status: 'resolved' };
    return { status };
  }

  /**
   * Start the session's agent again in a new session, then close the old one. When the start fails
   * (e.g. the agent now wants a login) the old session stays, so its pane can show why and offer
   * the agent's login methods; `authMethodId` sends `authenticate` before the session opens.
   * A session continued from history is instead resumed from its own recording (its conversation
   * carries on in the new session, a child in the lineage), after the old one is closed so its
   * trace is complete.
   */
  async restart(sessionId: string, authMethodId?: string, onOpened?: (fresh: LiveSessionSummary) => void): Promise<LiveSessionSummary> {
    const live = this.get(sessionId);
    const desired = live.session.desired;
    if (live.continued && this.resumeFromHistory) {
      await this.close(sessionId);
      const resumed = await this.resumeFromHistory(sessionId);
      onOpened?.(resumed);
      await reapplySettings(this.get(resumed.sessionId).session, desired);
      return resumed;
    }
    const fresh = await this.open(authMethodId ? { ...live.params, authMethodId } : live.params, live.run);
    // Said before the old session goes, so a view of the old one can hand over to the new one.
    onOpened?.(this.summary(fresh));
    await this.close(sessionId);
    await reapplySettings(fresh.session, desired);
    return this.summary(fresh);
  }

  /** What a live session was started with (its agent choice and folder). */
  startParams(sessionId: string): StartSessionParams {
    return this.get(sessionId).params;
  }

  /**
   * The user's title for a live session (null or blank: back to the agent's, else its first prompt):
   * a `session-meta` record in its trace, which its transcript (the pane's header), History (the
   * trace's fold) and the session list (the sidebar) take from there.
   */
  rename(sessionId: string, title: string | null): void {
    const live = this.get(sessionId);
    const clean = title?.replace(/\s+/g, ' ').trim() || null;
    const conn = live.session.connection;
    conn.record({ kind: 'session-meta', t: conn.clock.now(), sessionId, title: clean });
    live.batcher.flushNow();
    this.emitList();
  }

  async close(sessionId: string): Promise<void> {
    const live = this.live.get(sessionId);
    if (!live) return;
    await live.session.close();
    await live.session.connection.close();
    this.forget(sessionId);
    this.emitList();
  }

  async fileText(sessionId: string, path: string): Promise<{ text: string | null }> {
    const live = this.get(sessionId);
    const resolved = await resolveInsideRoots(path, live.session.roots()).catch((err: Error) => {
      throw new ApiError({ code: 'bad_params', message: err.message });
    });
    try {
      return { text: await readFile(resolved.real, 'utf8') };
    } catch {
      return { text: null };
    }
  }

  /** Put a file back as it was before the agent's change, unless someone changed it since. */
  async undoChange(sessionId: string, changeId: string): Promise<UndoChangeResult> {
    const live = this.get(sessionId);
    const change = live.session.live.fileChanges().find((c) => c.id === changeId);
    if (!change) throw new ApiError({ code: 'not_found', message: `No change ${changeId} in this session` });
    if (live.undone.has(changeId)) return { undone: false, reason: 'This change was already undone.' };
    if (change.oldText === undefined) return { undone: false, reason: 'The text before this change is not known, so it cannot be restored.' };
    const resolved = await resolveInsideRoots(change.path, live.session.roots());
    const now = await readFile(resolved.real, 'utf8').catch(() => null);
    if (now !== change.newText) {
      return { undone: false, reason: `${change.path} changed after the agent wrote it; undoing would lose those changes.` };
    }
    if (change.oldText === null) await rm(resolved.real);
    else await writeFile(resolved.real, change.oldText);
    live.undone.add(changeId);
    live.session.connection.notice('info', `Undid the agent's change to ${change.path}.`, sessionId);
    return { undone: true };
  }

  async dispose(): Promise<void> {
    await this.auth.dispose();
    await Promise.all([...this.live.keys()].map((id) => this.close(id)));
  }

  private track(session: AgentSession, params: StartSessionParams, launch: AgentLaunch, run?: Live['run']): Live {
    const live: Live = {
      session,
      params,
      launch,
      ...(run ? { run } : {}),
      agent: agentView(session, launch),
      startedAt: Date.now(),
      seq: 0,
      undone: new Set(),
      qa: new ConnectionQa(session.connection, session.id, {
        appended: (all) => this.options.emit('inspector/appended', { sessionId: session.id, all }),
        findingsChanged: (counts) => this.options.emit('qa/findings-changed', { sessionId: session.id, counts }),
        manualChanged: (pending) => this.options.emit('qa/manual-changed', { sessionId: session.id, pending }),
      }),
      batcher: new PatchBatcher<Patch>({
        // A tool call's diff sent again when it completes replaces the one sent when it opened: the
        // windows get the one that counts (superseded-content.ts).
        coalesce: supersededContent(),
        deliver: (patches) => {
          live.seq++;
          // Large diffs go as previews; their texts come by `diffTexts` (window-diffs.ts). A run of
          // streamed text to one entry goes as one patch (joined-text.ts).
          this.options.emit('session/patches', { sessionId: session.id, seq: live.seq, patches: windowPatches(joinAppendedText(patches)) });
        },
      }),
    };
    this.live.set(session.id, live);
    this.emitList(); // the UI shows the session starting
    session.onPatches((patches) => live.batcher.push(patches));
    session.onStatus((status) => {
      live.batcher.flushNow();
      this.options.emit('session/status', { sessionId: session.id, status, waiting: this.waiting(session.id) });
    });
    this.queue.onAsked((p) => {
      if (p.sessionId !== session.id) return;
      live.batcher.flushNow();
      this.options.emit('session/status', { sessionId: session.id, status: session.status, waiting: this.waiting(session.id) });
    });
    return live;
  }

  /** Every live session's pending patches emitted now (a window's delivery is leaving: `CoreApi.release`). */
  releasePatches(): void {
    for (const live of this.live.values()) live.batcher.flushNow();
  }

  /** The QA side of a live session (inspector, findings, faults) with what the QA requests need. */
  qaOf(sessionId: string): { qa: ConnectionQa; session: AgentSession; cwd: string } {
    const live = this.get(sessionId);
    return { qa: live.qa, session: live.session, cwd: live.params.cwd };
  }

  private forget(sessionId: string): void {
    this.live.get(sessionId)?.qa.dispose();
    this.live.get(sessionId)?.batcher.dispose();
    this.live.delete(sessionId);
  }

  private waiting(sessionId: string): number {
    return this.queue.pending().filter((p) => p.sessionId === sessionId).length + this.elicitations.list(sessionId).length;
  }

  private summary(live: Live): LiveSessionSummary {
    const t = live.session.live;
    return {
      sessionId: live.session.id,
      agent: live.agent,
      cwd: live.params.cwd,
      status: live.session.status,
      title: t.session.userTitle ?? t.session.title ?? null,
      ...(live.promptTitle !== undefined ? { firstPrompt: live.promptTitle } : {}),
      waiting: this.waiting(live.session.id),
      entryCount: t.entryCount,
      trace: live.session.connection.trace.path,
      startedAt: live.startedAt,
      ...(live.run?.lineage.runId ? { run: { runId: live.run.lineage.runId, label: live.run.label } } : {}),
    };
  }

  private get(sessionId: string): Live {
    const live = this.live.get(sessionId);
    if (!live) throw new ApiError({ code: 'not_found', message: `No live session ${sessionId}`, hint: 'It may have been closed; open it from history.' });
    return live;
  }

  private emitList(): void {
    this.options.emit('sessions/changed', this.list());
  }

  /** What the app runs for an agent choice (catalog id, or a command line with its env). */
  async resolveLaunch(choice: AgentChoice, cwd: string): Promise<AgentLaunch> {
    const env = this.options.env ?? process.env;
    if ('command' in choice) {
      const label = choice.label ?? choice.command.replace(/^.*[/\\]/, '');
      return { command: choice.command, args: choice.args ?? [], env: { ...env, ...choice.env }, cwd, label, agentId: [choice.command, ...(choice.args ?? [])].join(' ') };
    }
    try {
      const { launch, capabilities } = await resolveAgentLaunch({ agentId: choice.agentId, configDir: this.options.paths.configDir, dataDir: this.options.paths.dataDir, sessionCwd: cwd, processEnv: env, ...(this.options.encryptor ? { encryptor: this.options.encryptor } : {}) });
      return {
        command: launch.command,
        args: launch.args,
        env: launch.env,
        cwd: launch.cwd,
        label: launch.agentName,
        agentId: launch.agentId,
        switches: switchesFromSettings(capabilities),
        ...(launch.secretEnvNames ? { secretEnvNames: launch.secretEnvNames } : {}),
      };
    } catch (err) {
      const e = err as Error & { fix?: string; problem?: string };
      throw new ApiError({ code: 'agent_failed', message: e.fix ? (e.problem ?? e.message) : e.message, ...(e.fix ? { hint: e.fix } : {}) });
    }
  }
}

function agentView(session: AgentSession, launch: AgentLaunch): AgentView {
  const init = session.connection.init;
  const p = (init?.agentCapabilities?.promptCapabilities ?? {}) as Record<string, unknown>;
  return {
    label: launch.label,
    agentId: launch.agentId,
    ...(init?.agentInfo?.title || init?.agentInfo?.name ? { name: String(init.agentInfo.title ?? init.agentInfo.name) } : {}),
    ...(init?.agentInfo?.version ? { version: init.agentInfo.version } : {}),
    ...(typeof init?.protocolVersion === 'number' ? { protocolVersion: init.protocolVersion } : {}),
    promptCapabilities: { image: p.image === true, audio: p.audio === true, embeddedContext: p.embeddedContext === true },
    command: [launch.command, ...launch.args].join(' '),
  };
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof SessionError) {
    const code = err.code === 'not_advertised' ? 'bad_params' : err.code === 'crashed' ? 'agent_failed' : 'internal';
    return new ApiError({ code, message: err.message });
  }
  return new ApiError({ code: 'internal', message: err instanceof Error ? err.message : String(err) });
}

function stoppedByUser(): ApiError {
  return new ApiError({ code: 'cancelled', message: 'The start was stopped: the agent was closed before its session opened.' });
}
