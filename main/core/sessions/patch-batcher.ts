/**
 * Coalesces a session's patches for one subscriber (a window, a browser tab, the CLI): at most one
 * delivery per interval (16 ms by default, one frame), so a flood of tiny chunks costs the UI one
 * message per frame instead of one per chunk (the gate and its late-timer rule: interval-batcher.ts).
 * Some moments must not wait for the next tick — a turn end, a permission request, an error — and
 * `flushNow()` delivers at once. A `coalesce` step may lighten the pending batch as patches come
 * (the session manager's drops tool-call content a later patch of the batch replaces:
 * common/transcript/superseded-content.ts).
 */
import { IntervalBatcher, type IntervalBatcherOptions } from '../interval-batcher';

export interface PatchBatcherOptions<P> extends Omit<IntervalBatcherOptions<P>, 'intervalMs' | 'soon'> {
  intervalMs?: number;
}

export class PatchBatcher<P> {
  private readonly batcher: IntervalBatcher<P>;

  constructor(options: PatchBatcherOptions<P>) {
    this.batcher = new IntervalBatcher({ ...options, intervalMs: options.intervalMs ?? 16 });
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
