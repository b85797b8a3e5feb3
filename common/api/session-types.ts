/**
 * Session runtime facts the UI and the CLI show: where a session is in its life and why.
 */
export type SessionStatus =
  /** The agent is starting or the session is being opened. */
  | 'starting'
  /** Open and idle: ready for a prompt. */
  | 'ready'
  /** A turn is running. */
  | 'prompting'
  /** A turn waits for the user (a permission request). */
  | 'waiting'
  /** The last turn was cancelled (ready for the next prompt). */
  | 'cancelled'
  /** The agent process died or the connection broke. */
  | 'crashed'
  /** The session was closed by the user. */
  | 'closed';

export interface SessionStatusInfo {
  status: SessionStatus;
  /** Why, in words (e.g. "exit code 3" and the stderr tail for `crashed`). */
  reason?: string;
  stderrTail?: string[];
}
