/**
 * Coalesces every event for one connected UI (a window, a browser tab) into at most one delivery
 * per frame, so the window receives ≤ ~60 messages a second whatever the number of sessions and
 * their update rates (issue #11). The first event after a quiet spell goes out at once (after the
 * current synchronous job, so events emitted together still travel together); later ones wait for
 * the end of the interval; a late timer gives way to the next push (interval-batcher.ts).
 */
import type { WireEvent } from '../../../common/api/wire';
import { IntervalBatcher, type IntervalBatcherOptions } from '../interval-batcher';

export interface EventCoalescerOptions extends Omit<IntervalBatcherOptions<WireEvent>, 'intervalMs' | 'soon'> {
  /**
   * Least time between two deliveries. 17 ms rather than a 16.7 ms frame: ≤ 59 deliveries a
   * second, leaving room in a 60-messages-a-second budget for the request answers.
   */
  intervalMs?: number;
  /** Injected for tests; default: the microtask queue. */
  soon?: (fn: () => void) => void;
}

export const EVENT_INTERVAL_MS = 17;

export class EventCoalescer {
  private readonly batcher: IntervalBatcher<WireEvent>;

  constructor(options: EventCoalescerOptions) {
    this.batcher = new IntervalBatcher({ ...options, intervalMs: options.intervalMs ?? EVENT_INTERVAL_MS, soon: options.soon ?? queueMicrotask });
  }

  push(name: string, payload: unknown): void {
    this.batcher.push([name, payload]);
  }

  /**
   * Deliver what is pending now, ignoring the interval. For a transport about to send a request's
   * answer: events emitted before it must arrive before it.
   */
  flush(): void {
    this.batcher.flush();
  }

  dispose(): void {
    this.batcher.dispose();
  }
}
