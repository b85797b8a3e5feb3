/**
 * Whether a tool call the agent left "pending" or "in progress" outlived its turn. Real agents do
 * this (codex-acp and gemini send no final status for some calls — the real-agent suite's
 * `no-final-status`): once the turn is over the call's card must stop saying "Running" with a
 * spinner that never ends. The agent's own status is kept as it sent it; this only changes what the
 * card says about it.
 */
import type { TurnStatus } from '../../../common/transcript/model';

const RUNNING = new Set(['pending', 'in_progress']);

export function isRunningStatus(status: string): boolean {
  return RUNNING.has(status);
}

/**
 * True when the turn an entry belongs to is over: a later turn began, or its own turn ended and
 * none runs now. Turn 0 (before any prompt: a loaded session's replay, an agent acting unprompted)
 * counts as over once a first turn began.
 */
export function turnIsOver(session: { turn: number; turnStatus: TurnStatus } | undefined, entryTurn: number): boolean {
  if (!session) return false;
  if (entryTurn < session.turn) return true;
  return entryTurn === session.turn && entryTurn > 0 && session.turnStatus === 'idle';
}

/** What the card shows for a call whose turn ended before the agent said it finished. */
export const UNSETTLED_LABEL = 'No final status';

export function unsettledTitle(statusLabel: string): string {
  return `The turn ended but the agent never reported this tool call as finished; its last status was “${statusLabel}”.`;
}
