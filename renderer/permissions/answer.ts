/**
 * Answering permission requests: from a card's buttons and from the keyboard ("approve/reject the
 * focused pane's request"). The first answer from any window wins; the core says when ours came
 * second. Outcomes are kept per request so the card shows them whichever way the answer was sent.
 */
import { create } from 'zustand';
import type { JsonRpcId } from '../../common/trace/records';
import { api, errorText } from '../api/api-context';
import { useSessions } from '../state/sessions-store';
import { bestOption, firstPendingPermission, type AnswerKind } from './permission-logic';

export type AnswerOutcome =
  | { status: 'sending' }
  | { status: 'resolved' | 'already_resolved' | 'invalid_option' | 'unknown' }
  | { status: 'error'; message: string }
  /** Nothing to answer: no pending request, or it has no option of the wanted kind. */
  | { status: 'none'; message: string };

interface AnswersStore {
  /** By `answerKey(sessionId, requestId)`. */
  outcomes: Record<string, AnswerOutcome>;
}

export const usePermissionAnswers = create<AnswersStore>(() => ({ outcomes: {} }));

export function answerKey(sessionId: string, requestId: JsonRpcId): string {
  return `${sessionId}\0${JSON.stringify(requestId)}`;
}

function setOutcome(key: string, outcome: AnswerOutcome): void {
  usePermissionAnswers.setState((s) => ({ outcomes: { ...s.outcomes, [key]: outcome } }));
}

/** Send one answer (`optionId` null answers "cancelled"); the outcome is also stored for the card. */
export async function answerPermission(sessionId: string, requestId: JsonRpcId, optionId: string | null): Promise<AnswerOutcome> {
  const key = answerKey(sessionId, requestId);
  if (usePermissionAnswers.getState().outcomes[key]?.status === 'sending') return { status: 'sending' };
  setOutcome(key, { status: 'sending' });
  let outcome: AnswerOutcome;
  try {
    const result = await api().request('session/answer-permission', { sessionId, requestId, optionId });
    outcome = { status: result.status };
  } catch (err) {
    outcome = { status: 'error', message: errorText(err) };
  }
  setOutcome(key, outcome);
  return outcome;
}

/**
 * Answer the session's first waiting request with its best option of `kind` (allow_once before
 * allow_always, reject_once before reject_always). For the keyboard shortcuts.
 */
export async function answerFirstPending(sessionId: string, kind: AnswerKind): Promise<AnswerOutcome> {
  const transcript = useSessions.getState().views[sessionId]?.transcript;
  const pending = transcript && firstPendingPermission(transcript);
  if (!pending) return { status: 'none', message: 'No permission request is waiting in this session.' };
  const option = bestOption(pending.permission.options, kind);
  if (!option) return { status: 'none', message: `The agent offered no “${kind}” option for this request.` };
  return answerPermission(sessionId, pending.permission.requestId, option.optionId);
}

/** What the card says about an outcome, or null when there is nothing to say. */
export function outcomeMessage(outcome: AnswerOutcome | undefined): string | null {
  switch (outcome?.status) {
    case undefined:
    case 'resolved':
      return null;
    case 'sending':
      return 'Sending…';
    case 'already_resolved':
      return 'Already answered (from another window or by a policy).';
    case 'invalid_option':
      return 'The agent does not offer that option any more.';
    case 'unknown':
      return 'This request is no longer waiting (the agent withdrew it, or the session was restarted).';
    case 'error':
    case 'none':
      return outcome.message;
  }
}
