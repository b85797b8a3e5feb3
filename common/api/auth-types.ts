/**
 * Agent authentication through the API (acp-reference §13): the methods an agent offers, an
 * `agent`-type login (`authenticate`), and terminal logins run in a PTY whose output streams to
 * the UI as events while keystrokes and resizes come back as requests.
 */
import type { ApiErrorShape } from './errors';
import type { AgentChoice, LiveSessionSummary, StartSessionParams } from './session-api-types';

/** `agent`: the app sends `authenticate`; `terminal`: a login run in a terminal; `other`: neither (e.g. legacy env_var). */
export type AuthMethodKind = 'agent' | 'terminal' | 'other';

export interface AuthMethodView {
  id: string;
  name: string;
  description?: string;
  kind: AuthMethodKind;
  /** The method's `type` as the agent sent it (absent = agent). */
  type?: string;
  /** Terminal logins: the command line to run in your own terminal when the app cannot run it. */
  command?: string;
}

/** Whether the app can run terminal logins here, and if not, why. */
export interface TerminalLoginAvailability {
  available: boolean;
  reason?: string;
}

/** The `data` of an `auth_required` ApiError, and the answer of `agents/auth-methods`. */
export interface AgentAuthView {
  /** The agent's label. */
  agent: string;
  methods: AuthMethodView[];
  terminal: TerminalLoginAvailability;
}

/** Which agent: a choice (as in sessions/start), or the agent of a live session (its launch and folder). */
export interface AgentAuthParams {
  agent?: AgentChoice;
  sessionId?: string;
  /** With `agent`: absolute folder the agent starts in; default: the workbench's data folder. */
  cwd?: string;
}

export interface AuthenticateParams extends AgentAuthParams {
  methodId: string;
}

export interface TerminalLoginStartParams extends AgentAuthParams {
  methodId: string;
  cols: number;
  rows: number;
  /** After exit 0, start this session (a new agent process, initialized again); `auth/terminal-retried` says how it went. */
  retry?: StartSessionParams;
  /** With `sessionId`: after exit 0, restart that session's agent instead (`session/restart`). */
  restartSession?: boolean;
}

export interface TerminalLoginView {
  loginId: string;
  methodId: string;
  /** The command line (with the method's env), as a user would type it. */
  command: string;
}

export interface TerminalLoginIdParams {
  loginId: string;
}

export interface TerminalLoginInputParams extends TerminalLoginIdParams {
  data: string;
}

export interface TerminalLoginResizeParams extends TerminalLoginIdParams {
  cols: number;
  rows: number;
}

export interface TerminalLoginOutputEvent {
  loginId: string;
  data: string;
}

export interface TerminalLoginExitEvent {
  loginId: string;
  /** null when a signal ended it. */
  exitCode: number | null;
  signal: number | null;
  /** Exit 0 with `retry`: the session start follows (an `auth/terminal-retried` event). */
  retrying?: boolean;
}

/** The session start after a successful terminal login: the session, or why it failed. */
export type TerminalLoginRetriedEvent = { loginId: string } & ({ session: LiveSessionSummary } | { error: ApiErrorShape });
