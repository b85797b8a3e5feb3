/**
 * Types of the session requests and events of the API contract: starting agents, the live
 * sessions of this core, their transcripts (by windows, then patches), prompts, permissions.
 */
import type { ContentBlock, DiffContent } from '../transcript/acp-types';
import type { Entry, FileChange, SessionState, TerminalInfo } from '../transcript/model';
import type { Patch } from '../transcript/patches';
import type { Window, WindowQuery } from './window';
import type { SessionStatusInfo } from './session-types';
import type { ElicitationAnswer, ElicitationView } from './elicitation-types';

/** Which agent to start: one of the catalog, or a command line. */
export type AgentChoice = { agentId: string } | { command: string; args?: string[]; env?: Record<string, string>; label?: string };

export interface CapabilitySwitchesView {
  readTextFile: boolean;
  writeTextFile: boolean;
  terminal: boolean;
  /** `session.configOptions.boolean` (boolean config options as toggles). */
  booleanConfigOptions?: boolean;
  /** Elicitation forms and URLs (on by default in the app). */
  elicitationForm?: boolean;
  elicitationUrl?: boolean;
}

export interface StartSessionParams {
  agent: AgentChoice;
  /** Absolute project folder. */
  cwd: string;
  policy?: 'ask' | 'all' | 'reads' | 'none';
  switches?: Partial<CapabilitySwitchesView>;
  /** Send `authenticate` with this agent-type method after `initialize`, before opening the session. */
  authMethodId?: string;
  /** A name the caller gives this start, so that `sessions/abort-start` can stop it while it is under way. */
  startId?: string;
}

/** What the agent told us about itself in `initialize`. */
export interface AgentView {
  label: string;
  agentId: string;
  name?: string;
  version?: string;
  protocolVersion?: number;
  /** The prompt content the agent accepts (text and resource links always). */
  promptCapabilities: { image: boolean; audio: boolean; embeddedContext: boolean };
  command: string;
}

export interface LiveSessionSummary {
  sessionId: string;
  agent: AgentView;
  cwd: string;
  status: SessionStatusInfo;
  /** The title the user or the agent gave the session (null: none yet). */
  title: string | null;
  /** The first prompt's words (history's rule, prompt-title.ts): what the sidebar names an untitled session by. */
  firstPrompt?: string;
  /** Permission requests of this session waiting for the user. */
  waiting: number;
  entryCount: number;
  trace: string | null;
  startedAt: number;
  /** For the sessions of a compare run: the run and this agent's label in it. */
  run?: { runId: string; label: string };
}

/** Everything about a session but its entries, which come by windows. */
export interface SessionSnapshot extends LiveSessionSummary {
  session: SessionState;
  fileChanges: FileChange[];
  terminals: Record<string, TerminalInfo>;
  /** How many patch batches this session has emitted so far: patches after this number follow. */
  seq: number;
  /** Elicitation requests waiting for the user. */
  elicitations: ElicitationView[];
}

export interface SessionElicitationsEvent {
  sessionId: string;
  pending: ElicitationView[];
}

export interface ElicitationAnswerParams {
  sessionId: string;
  key: string;
  answer: ElicitationAnswer;
}

export interface EntriesParams extends WindowQuery {
  sessionId: string;
  /**
   * Keep the end of the window when it is cut: past `WINDOW_BYTES` of entries the answer starts
   * later than `offset` (its `offset` says where) and ends where asked. For clients paging backwards;
   * without it the window is cut by count only, as asked.
   */
  fromEnd?: boolean;
}
export type EntriesResult = Window<Entry> & { seq: number };

export interface PromptParams {
  sessionId: string;
  prompt: ContentBlock[];
}

export interface PermissionAnswerParams {
  sessionId: string;
  /** The agent's request id of the permission request (from the tool call's permission record). */
  requestId: string | number | null;
  /** The option chosen; null answers `cancelled`. */
  optionId: string | null;
}

export interface PermissionAnswerResult {
  status: 'resolved' | 'already_resolved' | 'invalid_option' | 'unknown';
}

/** A batch of patches of one session, in order; `seq` counts batches per session. */
export interface SessionPatchesEvent {
  sessionId: string;
  seq: number;
  patches: Patch[];
}

export interface SessionStatusEvent {
  sessionId: string;
  status: SessionStatusInfo;
  waiting: number;
}

export interface SessionIdParams {
  sessionId: string;
}

export interface FileTextParams {
  sessionId: string;
  path: string;
}

/** A diff of a tool call: the `index`th item of its content. */
export interface DiffTextsParams {
  sessionId: string;
  entryId: string;
  index: number;
}

export interface DiffTextsResult {
  /** The content item as the core holds it: the diff the agent sent, texts and all. */
  diff: DiffContent;
}

export interface UndoChangeParams {
  sessionId: string;
  changeId: string;
}

export interface UndoChangeResult {
  undone: boolean;
  /** Why it was refused (the file changed since the agent wrote it, ...). */
  reason?: string;
}

export interface CatalogAgentView {
  id: string;
  name: string;
  description: string;
  source: string;
  demo: boolean;
  /** For custom agents: what the settings file says, so the UI can edit it. */
  custom?: CustomAgentView;
}

export interface CustomAgentView {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface CustomAgentInputView extends CustomAgentView {
  name: string;
}

export interface FindParams {
  sessionId: string;
  /** Words to find, as typed (case is ignored; not a pattern). */
  query: string;
}

/** The entries whose visible text holds the query (common/transcript/entry-find-text.ts), in order. */
export interface FindResult {
  /** Their ids, the first 5,000. */
  ids: string[];
  /** How many entries match in all. */
  total: number;
  /** Entries looked through (the transcript's length when the search ran). */
  searched: number;
}
