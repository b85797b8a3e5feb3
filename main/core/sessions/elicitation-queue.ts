/**
 * Elicitation requests (`elicitation/create`) waiting for the user, per session. Like permission
 * requests: the first answer from any window wins; cancelling the session's turn, the agent's
 * `$/cancel_request` and closing the session all answer `cancel` at once.
 */
import type { ElicitationAnswer, ElicitationView } from '../../../common/api/elicitation-types';

interface Pending {
  view: ElicitationView;
  settle: (answer: ElicitationAnswer) => void;
}

export class ElicitationQueue {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(sessionId: string) => void>();

  /** Wait for the user's answer; `signal` aborts with `cancel` (the agent withdrew the request). */
  ask(view: ElicitationView, signal?: AbortSignal): Promise<ElicitationAnswer> {
    return new Promise((resolve) => {
      const finish = (answer: ElicitationAnswer) => {
        if (!this.pending.delete(view.key)) return;
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
        this.changed(view.sessionId);
      };
      const onAbort = () => finish({ action: 'cancel' });
      this.pending.set(view.key, { view, settle: finish });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.changed(view.sessionId);
      if (signal?.aborted) onAbort();
    });
  }

  /** First answer wins: false when the request is no longer pending. */
  answer(key: string, answer: ElicitationAnswer): boolean {
    const p = this.pending.get(key);
    if (!p) return false;
    p.settle(answer);
    return true;
  }

  cancelSession(sessionId: string): void {
    for (const p of [...this.pending.values()]) if (p.view.sessionId === sessionId) p.settle({ action: 'cancel' });
  }

  list(sessionId?: string): ElicitationView[] {
    return [...this.pending.values()].map((p) => p.view).filter((v) => sessionId === undefined || v.sessionId === sessionId);
  }

  onChange(listener: (sessionId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  private changed(sessionId: string): void {
    for (const l of this.listeners) l(sessionId);
  }
}
