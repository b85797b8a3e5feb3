/** Small pieces of the `check` script: time limits, and permission answers by phase. */
import { rejectOutcome } from '../../sessions/permission-options';
import type { PermissionQueue } from '../../sessions/permission-queue';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)));
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Answers permission requests as the script needs: reject, hold (during the cancel probe), or cancelled. */
export class CheckPermissions {
  phase: 'reject' | 'hold' | 'cancelled' = 'reject';
  private readonly subscription: { dispose(): void };

  constructor(readonly queue: PermissionQueue) {
    this.subscription = queue.onAsked((p) => {
      if (this.phase === 'reject') queue.resolve(p.key, rejectOutcome(p.params.options), 'qa');
      else if (this.phase === 'cancelled') queue.resolve(p.key, { outcome: 'cancelled' }, 'qa');
    });
  }

  /** Answer every held request of the session `cancelled`, and later ones at once. */
  release(sessionId: string): void {
    this.phase = 'cancelled';
    this.queue.cancelSession(sessionId, 'qa');
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
