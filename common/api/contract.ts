/**
 * The API between the UI and the core, declared once.
 *
 * Requests go UI → core and each has a typed result; events go core → UI with a typed payload.
 * Electron IPC, the preload, the WebSocket bridge and the renderer client all derive their types
 * (and, through `requestNames` / `eventNames`, their runtime channel lists) from this file.
 *
 * The contract is ranged: a large collection (transcript entries, inspector messages, history) is
 * fetched by windows (`WindowQuery` → `Window<T>`) and then followed by patch events; it is never
 * shipped whole in one message.
 */
import type { AppInfo, PingParams, PingResult } from './app-types';
import type { CoreNotice } from './events-types';
import type {
  CatalogAgentView,
  CustomAgentInputView,
  ElicitationAnswerParams,
  SessionElicitationsEvent,
  EntriesParams,
  EntriesResult,
  FileTextParams,
  LiveSessionSummary,
  PermissionAnswerParams,
  PermissionAnswerResult,
  PromptParams,
  SessionIdParams,
  SessionPatchesEvent,
  SessionSnapshot,
  SessionStatusEvent,
  StartSessionParams,
  UndoChangeParams,
  DiffTextsParams,
  DiffTextsResult,
  FindParams,
  FindResult,
  UndoChangeResult,
} from './session-api-types';
import type {
  ComparisonParams,
  ComparisonView,
  CreateRunParams,
  ExportParams,
  ExportResult,
  FollowUpParams,
  PromoteParams,
  PromoteResultView,
  RunFileTextsParams,
  RunCreateProgress,
  RunFileTextsView,
  RunIdParams,
  RunRecipeView,
  RunSummary,
  VerifyParams,
} from './compare-types';
import type * as Auth from './auth-types';
import type * as Qa from './qa-types';
import type * as H from './history-types';
import type * as S from './settings-types';
import type { Window } from './window';

/** A phantom-typed marker: carries types only; the runtime value is an empty object. */
export interface RequestSpec<P, R> {
  readonly __params?: P;
  readonly __result?: R;
}
export interface EventSpec<T> {
  readonly __payload?: T;
}
const request = <P, R>(): RequestSpec<P, R> => ({});
const event = <T>(): EventSpec<T> => ({});

/** Every request the UI may send. Later issues add theirs here. */
export const requests = {
  /** Name, version and runtime of the core the UI is talking to. */
  'app/info': request<void, AppInfo>(),
  /** A round-trip check through whatever transport is in use. */
  'app/ping': request<PingParams, PingResult>(),
  /** The host's native folder picker (AppInfo.canPickFolder), starting at `start`: the folder chosen, or null when cancelled. */
  'app/pick-folder': request<{ start?: string }, { path: string | null }>(),
  /** Folders completing a project folder being typed (main/core/fs/folder-completions.ts). */
  'fs/folders': request<{ partial: string }, { folders: string[] }>(),
  /** Agents the user can start (catalog, custom, demo). */
  'agents/catalog': request<void, CatalogAgentView[]>(),
  /** Custom agents in the settings file: add, change, duplicate, remove. */
  'agents/add-custom': request<CustomAgentInputView, CatalogAgentView>(),
  'agents/edit-custom': request<{ id: string } & CustomAgentInputView, CatalogAgentView>(),
  'agents/duplicate-custom': request<{ id: string }, CatalogAgentView>(),
  'agents/remove-custom': request<{ id: string }, void>(),
  /** A scratch folder for the demo agent (created when missing). */
  'agents/demo-workspace': request<void, { path: string }>(),
  /** The settings screen: settings.json's effective values, where it is and its problems. */
  'settings/get': request<void, S.SettingsView>(),
  /** A partial change, validated per field; written atomically, keeping keys the workbench does not know. */
  'settings/update': request<S.SettingsUpdateParams, S.SettingsUpdateResult>(),
  /** Secret names per agent and how they are stored; values never come back. */
  'secrets/list': request<S.SecretsListParams, S.SecretsListResult>(),
  'secrets/set': request<S.SecretSetParams, S.SecretsListResult>(),
  'secrets/delete': request<S.SecretDeleteParams, S.SecretsListResult>(),
  /** Authentication (common/api/auth-types.ts): the methods an agent offers (it is started, initialized and stopped). */
  'agents/auth-methods': request<Auth.AgentAuthParams, Auth.AgentAuthView>(),
  /** `authenticate` with an agent-type method on a fresh connection (for agents that keep the login). */
  'agents/authenticate': request<Auth.AuthenticateParams, void>(),
  /** Run a terminal-type login in a PTY; output and exit come as `auth/terminal-*` events. */
  'auth/terminal-start': request<Auth.TerminalLoginStartParams, Auth.TerminalLoginView>(),
  'auth/terminal-input': request<Auth.TerminalLoginInputParams, void>(),
  'auth/terminal-resize': request<Auth.TerminalLoginResizeParams, void>(),
  'auth/terminal-kill': request<Auth.TerminalLoginIdParams, void>(),
  /** Start an agent and open a session; answers once the session is open (progress by status events). */
  'sessions/start': request<StartSessionParams, LiveSessionSummary>(),
  /** The live sessions of this core. */
  /**
   * Stop a `sessions/start` still under way (the one given this `startId`): its agent is stopped and
   * the start fails with `cancelled`. Nothing happens when that start has already ended.
   */
  'sessions/abort-start': request<{ startId: string }, void>(),
  'sessions/live': request<void, LiveSessionSummary[]>(),
  /** A session's state without its entries. */
  'session/snapshot': request<SessionIdParams, SessionSnapshot>(),
  /** A window of a session's transcript entries. */
  'session/entries': request<EntriesParams, EntriesResult>(),
  /** Send a prompt; answers when the turn ends. */
  'session/prompt': request<PromptParams, { stopReason: string }>(),
  'session/cancel': request<SessionIdParams, void>(),
  'session/set-mode': request<SessionIdParams & { modeId: string }, void>(),
  'session/set-config': request<SessionIdParams & { configId: string; value: string | boolean }, void>(),
  'session/set-model': request<SessionIdParams & { modelId: string }, void>(),
  /** Answer a pending permission request; the first answer from any window wins. */
  'session/answer-permission': request<PermissionAnswerParams, PermissionAnswerResult>(),
  /** Answer a pending elicitation request (form or URL); false when it was already answered. */
  'session/answer-elicitation': request<ElicitationAnswerParams, { answered: boolean }>(),
  /** Start the same agent again in a new session (after a crash); a session continued from history is resumed from its own recording. */
  'session/restart': request<SessionIdParams & { authMethodId?: string }, LiveSessionSummary>(),
  'session/close': request<SessionIdParams, void>(),
  /** The user's title for a live session; null clears it (the agent's title, else the first prompt, names it again). */
  'session/rename': request<{ sessionId: string; title: string | null }, void>(),
  /** The current text of a file in the session's roots (for diffs against disk). */
  'session/file-text': request<FileTextParams, { text: string | null }>(),
  /** The full texts of a diff a window got as a preview (a large diff: common/transcript/window-diffs.ts). */
  'session/diff-texts': request<DiffTextsParams, DiffTextsResult>(),
  /** The entries whose visible text holds the words (find in the transcript). */
  'session/find': request<FindParams, FindResult>(),
  /** Put a file the agent changed back as it was; refused when the file changed since. */
  'session/undo-change': request<UndoChangeParams, UndoChangeResult>(),
  // The history browser (common/api/history-types.ts).
  'history/list': request<H.HistoryListParams, Window<H.HistorySessionView>>(),
  'history/search': request<H.HistorySearchParams, H.HistorySearchResult>(),
  'history/preview': request<H.HistoryIdParams, H.HistoryPreview>(),
  'history/entries': request<H.HistoryEntriesParams, H.HistoryEntriesResult>(),
  'history/changes': request<H.HistoryIdParams, H.HistoryChangesResult>(),
  'history/rename': request<H.HistoryIdParams & { title: string | null }, H.HistorySessionView>(),
  'history/tag': request<H.HistoryIdParams & { add?: string[]; remove?: string[] }, H.HistorySessionView>(),
  'history/delete': request<H.HistoryDeleteParams, H.HistoryDeleteResult>(),
  'history/export': request<H.HistoryExportParams, H.HistoryExportResult>(),
  'history/import': request<H.HistoryImportParams, H.HistoryImportResult>(),
  'history/resume': request<H.HistoryContinueParams, H.HistoryContinueResult>(),
  'history/fork': request<H.HistoryContinueParams, H.HistoryContinueResult>(),
  'history/tree': request<H.HistoryIdParams, H.LineageTreeView>(),
  'history/agent-sessions': request<H.AgentSessionsParams, H.AgentSessionsResult>(),
  'history/open-agent-session': request<H.OpenAgentSessionParams, LiveSessionSummary>(),
  /** Start the recorded agent of a session as a fake agent (`acp-workbench replay`) in a scratch folder. */
  'history/replay-as-agent': request<H.HistoryIdParams, LiveSessionSummary>(),
  /** Sessions the workbench was running when it last stopped without closing them (recent, not dismissed, not resumed since). */
  'history/interrupted': request<void, H.HistorySessionView[]>(),
  /** Do not offer these interrupted sessions again (they stay in history). */
  'history/dismiss-interrupted': request<{ ids: string[] }, void>(),
  /** Inspector (issue #9): a window of a connection's messages, filtered and searched; one message in full; the filtered messages as JSONL. */
  'inspector/window': request<Qa.InspectorWindowParams, Qa.InspectorWindowResult>(),
  'inspector/message': request<Qa.InspectorMessageParams, Qa.InspectorMessage>(),
  'inspector/export': request<Qa.InspectorExportParams, Qa.InspectorExportResult>(),
  /** QA: live conformance findings; fault rules and manual answers; the raw request composer. */
  'qa/findings': request<Qa.QaStateParams, Qa.FindingsResult>(),
  'qa/state': request<Qa.QaStateParams, Qa.QaState>(),
  'qa/set-rules': request<Qa.SetFaultRulesParams, Qa.FaultRule[]>(),
  'qa/manual-answer': request<Qa.ManualAnswerParams, { answered: boolean }>(),
  'qa/raw-request': request<Qa.RawRequestParams, Qa.RawRequestResult>(),
  'qa/templates': request<Qa.QaStateParams, Qa.ComposerTemplate[]>(),
  /** Compare runs: make the workspaces, start every agent (live sessions) and send the prompt; answers once the prompts are sent. */
  /**
   * Stop a `runs/create` still under way (the one given this `startId`): agents still starting are
   * stopped, none is started after, and the run is discarded once its creation ends; that
   * `runs/create` fails with `cancelled`. Nothing happens when it has already ended.
   */
  'runs/abort-create': request<{ startId: string }, void>(),
  'runs/create': request<CreateRunParams, RunSummary>(),
  /** Every compare run, newest first (history: runs stay listed after discard). */
  'runs/list': request<void, RunSummary[]>(),
  'runs/get': request<RunIdParams, RunSummary>(),
  /** The params a run was made from, for a new run like it (the New compare run dialog prefilled). */
  'runs/recipe': request<RunIdParams, RunRecipeView>(),
  /** Per-agent figures, files changed, files changed differently, verification (patches when asked). */
  'runs/comparison': request<ComparisonParams, ComparisonView>(),
  /** One path's texts before/after per agent that changed it, for the side-by-side diffs. */
  'runs/file-texts': request<RunFileTextsParams, RunFileTextsView>(),
  /** A follow-up prompt to all or some agents of a live run; answers when their turns end. */
  'runs/follow-up': request<FollowUpParams, RunSummary>(),
  /** Make a run of an earlier workbench live again: each agent's session resumed in its workspace. */
  'runs/reopen': request<RunIdParams, RunSummary>(),
  /** Run the verification command in every workspace. */
  'runs/verify': request<VerifyParams, RunSummary>(),
  /** Apply one agent's changes, or picked files, to the project folder; nothing is written when any path conflicts. */
  'runs/promote': request<PromoteParams, PromoteResultView>(),
  /** Stop the run's agents and remove its workspaces (the comparison stays). */
  'runs/discard': request<RunIdParams, RunSummary>(),
  /** Runs of earlier sessions neither promoted nor discarded whose workspaces are still on disk. */
  'runs/leftovers': request<void, RunSummary[]>(),
  /** The comparison as Markdown or JSON (with the patches), for a download. */
  'runs/export': request<ExportParams, ExportResult>(),
} as const;

/** Every event the core may push. Later issues add theirs here. */
export const events = {
  /** Something the user should see that is not the answer to a request. */
  'app/notice': event<CoreNotice>(),
  /** The desktop app's menu: run the command palette's action `command` in this window (sent to the focused window alone). */
  'app/command': event<{ command: string }>(),
  /** settings.json was changed through the API (every window refreshes; the theme applies at once). */
  'settings/changed': event<S.SettingsChangedEvent>(),
  /** Secrets were set or deleted (names only). */
  'secrets/changed': event<S.SecretsListResult>(),
  /**
   * Patches of a session's transcript, batched per session (≤ 1 per 16 ms); every event for one
   * window then travels in at most one message per frame (main/core/api/event-coalescer.ts).
   */
  'session/patches': event<SessionPatchesEvent>(),
  'session/status': event<SessionStatusEvent>(),
  /** The elicitation requests a session waits on changed. */
  'session/elicitations': event<SessionElicitationsEvent>(),
  /** The list of live sessions changed (started, closed). */
  'sessions/changed': event<LiveSessionSummary[]>(),
  /** History changed through the API (rename, tag, delete, import, resume, fork): browsers refresh. */
  'history/changed': event<H.HistoryChangedEvent>(),
  /** A long catch-up of the history index (a rebuild, a big first look): how far it has come. */
  'history/progress': event<H.HistoryIndexProgress>(),
  /** Inspector rows were appended to a session's connection (≤ 1 per 100 ms per session). */
  'inspector/appended': event<Qa.InspectorAppendedEvent>(),
  /** A session's live conformance findings changed (≤ 1 per 100 ms). */
  'qa/findings-changed': event<Qa.FindingsChangedEvent>(),
  /** The agent requests held for a manual answer changed. */
  'qa/manual-changed': event<Qa.ManualChangedEvent>(),
  /** Output of a terminal login, as the PTY wrote it. */
  'auth/terminal-output': event<Auth.TerminalLoginOutputEvent>(),
  /** A terminal login ended. */
  'auth/terminal-exit': event<Auth.TerminalLoginExitEvent>(),
  /** After a terminal login that exited 0: the session start it was asked to retry succeeded or failed. */
  'auth/terminal-retried': event<Auth.TerminalLoginRetriedEvent>(),
  /** The list of compare runs changed (created, discarded, status). */
  'runs/changed': event<RunSummary[]>(),
  /** A compare run changed (an agent finished, verification, promote...). */
  'run/updated': event<RunSummary>(),
  'run/create-progress': event<RunCreateProgress>(),
} as const;

export type Requests = typeof requests;
export type Events = typeof events;
export type RequestName = keyof Requests;
export type EventName = keyof Events;
export type ParamsOf<N extends RequestName> = Requests[N] extends RequestSpec<infer P, unknown> ? P : never;
export type ResultOf<N extends RequestName> = Requests[N] extends RequestSpec<unknown, infer R> ? R : never;
export type PayloadOf<E extends EventName> = Events[E] extends EventSpec<infer T> ? T : never;

export const requestNames = Object.keys(requests) as RequestName[];
export const eventNames = Object.keys(events) as EventName[];

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
