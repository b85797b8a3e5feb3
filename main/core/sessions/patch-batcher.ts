/**
 * Coalesces a session's patches for one subscriber (a window, a browser tab, the CLI): at most one
 * delivery per interval (`SESSION_BATCH_MS` by default), so a flood of tiny chunks costs one
 * delivery per few milliseconds instead of one per chunk (the gate and its late-timer rule:
 * interval-batcher.ts). Some moments must not wait for the next tick — a turn end, a permission
 * request, an error — and `flushNow()` delivers at once. A `coalesce` step may lighten the pending
 * batch as patches come (the session manager's drops tool-call content a later patch of the batch
 * replaces: common/transcript/superseded-content.ts).
 */
import { IntervalBatcher, type IntervalBatcherOptions } from '../interval-batcher';

/**
 * How long a session's patches may wait before they are delivered (issue #11, nineteenth pass:
 * 16 ms before). A window does not get them at this rate: every window's events go through its
 * event coalescer (main/core/api/event-coalescer.ts: one message per 20 ms at most, and no more than
 * 4 unacknowledged), which takes every session's pending patches along with each of its deliveries
 * (`collect`). So this interval only decides how long the patches — the diffs' 16 KiB texts among
 * them — stay in the core before they leave in the window's form (large diffs as previews): under a
 * flood young-generation collections come every ≈ 20 ms, and a batch held 16–25 ms lived through
 * one and was promoted to the old generation with its texts; at 4 ms, little is. Measured with 4
 * flood agents × 100,000 updates (docs/performance.md § 1, nineteenth pass): the core's peak RSS
 * and the app path's lower, the window's messages as many, ≈ 2 % more bytes in them (more, smaller
 * `session/patches` events: the same patches in the same order).
 */
export const SESSION_BATCH_MS = 4;

export interface PatchBatcherOptions<P> extends Omit<IntervalBatcherOptions<P>, 'intervalMs' | 'soon'> {
  intervalMs?: number;
}

export class PatchBatcher<P> {
  private readonly batcher: IntervalBatcher<P>;

  constructor(options: PatchBatcherOptions<P>) {
    this.batcher = new IntervalBatcher({ ...options, intervalMs: options.intervalMs ?? SESSION_BATCH_MS });
  }

  push(patches: readonly P[]): void {
    this.batcher.pushAll(patches);
  }

  /** Deliver what is pending now (turn end, permission request, error). */
  flushNow(): void {
    this.batcher.flush();
  }

  dispose(): void {
    this.batcher.dispose();
  }
}
