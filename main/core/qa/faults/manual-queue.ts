/**
 * Agent requests held for a manual answer (QA manual mode): each waits until the tester sends a
 * JSON result or an error from the UI. A request the agent withdraws (`$/cancel_request`) stays,
 * marked, because the protocol still wants an answer; closing the session answers what is left.
 */
import type { ManualRequestView } from '../../../../common/api/qa-types';
import type { JsonRpcId } from '../../../../common/trace/records';
import { requestError } from '../../acp/sdk-runtime';

export interface HoldRequest {
  sessionId: string;
  method: string;
  requestId: JsonRpcId;
  params: unknown;
  signal?: AbortSignal | undefined;
  /** A result of the right shape, for the tester to start from. */
  example: unknown;
}

export type ManualAnswer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

interface Entry {
  view: ManualRequestView;
  settle(answer: ManualAnswer): void;
  cleanup(): void;
}

export class ManualQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();
  private next = 1;

  /** Wait for the tester's answer: resolves with the result, rejects with a RequestError for an error. */
  hold(req: HoldRequest): Promise<unknown> {
    const key = `${req.sessionId}:m${this.next++}`;
    return new Promise<unknown>((resolve, reject) => {
      const view: ManualRequestView = {
        key,
        sessionId: req.sessionId,
        method: req.method,
        requestId: req.requestId,
        params: req.params,
        receivedAt: Date.now(),
        withdrawn: false,
        example: req.example,
      };
      const onAbort = () => {
        view.withdrawn = true;
        this.changed();
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      this.entries.set(key, {
        view,
        cleanup: () => req.signal?.removeEventListener('abort', onAbort),
        settle: (answer) => {
          if ('error' in answer) reject(requestError(answer.error.code, answer.error.message, answer.error.data));
          else resolve(answer.result);
        },
      });
      this.changed();
    });
  }

  /** The first answer wins; false when the key is not (or no longer) pending. */
  answer(key: string, answer: ManualAnswer): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    entry.cleanup();
    entry.settle(answer);
    this.changed();
    return true;
  }

  /** Answer every pending request of one method (e.g. permissions `cancelled` after session/cancel). */
  answerAll(method: string, answer: ManualAnswer): number {
    let n = 0;
    for (const [key, entry] of [...this.entries]) if (entry.view.method === method && this.answer(key, answer)) n++;
    return n;
  }

  list(): ManualRequestView[] {
    return [...this.entries.values()].map((e) => ({ ...e.view }));
  }

  get size(): number {
    return this.entries.size;
  }

  onChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** The session closes: every request still held is answered with an error. */
  dispose(): void {
    for (const key of [...this.entries.keys()]) this.answer(key, { error: { code: -32603, message: 'The session closed before the manual answer' } });
    this.listeners.clear();
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        // A broken UI must not keep the answer from the agent.
      }
    }
  }
}
