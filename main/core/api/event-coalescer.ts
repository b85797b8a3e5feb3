/**
 * Coalesces every event for one connected UI (a window, a browser tab) into at most one delivery
 * per frame, so the window receives ≤ ~60 messages a second whatever the number of sessions and
 * their update rates (issue #11). The first event after a quiet spell goes out at once (after the
 * current synchronous job, so events emitted together still travel together); later ones wait for
 * the end of the interval; a late timer gives way to the next push (interval-batcher.ts). A window
 * that acknowledges its deliveries has at most `EVENT_ACK_WINDOW` unacknowledged: the ≤ 60 a second
 * then also holds where the window receives them, not only where they are sent.
 */
import type { WireEvent } from '../../../common/api/wire';
import { IntervalBatcher, type IntervalBatcherOptions } from '../interval-batcher';

export interface EventCoalescerOptions extends Omit<IntervalBatcherOptions<WireEvent>, 'intervalMs' | 'soon' | 'acknowledgement'> {
  /** Least time between two deliveries (default `EVENT_INTERVAL_MS`). */
  intervalMs?: number;
  /**
   * The window acknowledges each delivery (`acknowledge(n)`), and no more than
   * `EVENT_ACK_WINDOW` may be unacknowledged: a busy window gets fewer, larger deliveries instead
   * of a burst of queued ones once it is free. Default: no.
   */
  acknowledged?: boolean;
  /** Injected for tests; default: the microtask queue. */
  soon?: (fn: () => void) => void;
  /**
   * Called as each delivery starts, to push what the core holds back for pacing (`CoreApi.release`:
   * the sessions' pending patches): they travel with this delivery instead of waiting for their own
   * batcher's interval and then for this one's.
   */
  collect?: () => void;
}

/**
 * A window receives at most 1000 / 20 = 50 event messages a second, plus the
 * `EVENT_ACK_WINDOW` that may be in flight when a second begins: ≤ 54 in any second however late
 * it reads them, within issue #11's 60 and with room for request answers.
 */
export const EVENT_INTERVAL_MS = 20;
/**
 * Deliveries a window may have unacknowledged: more than one, so deliveries go on during a frame
 * the window spends rendering (it then reads them all, up to date, when the frame ends); few, so a
 * window that stops reading for a while gets one large delivery after, not a burst of small ones.
 */
export const EVENT_ACK_WINDOW = 4;
/**
 * A window that has not acknowledged a delivery within this time gets the next one anyway (it may
 * have reloaded; its new page never saw the delivery it would acknowledge).
 */
export const EVENT_ACK_TIMEOUT_MS = 1000;

export class EventCoalescer {
  private readonly batcher: IntervalBatcher<WireEvent>;

  constructor(options: EventCoalescerOptions) {
    this.batcher = new IntervalBatcher({
      ...options,
      intervalMs: options.intervalMs ?? EVENT_INTERVAL_MS,
      soon: options.soon ?? queueMicrotask,
      acknowledgement: options.acknowledged ? { window: EVENT_ACK_WINDOW, timeoutMs: EVENT_ACK_TIMEOUT_MS } : undefined,
    });
  }

  /** The window has handled deliveries up to number `n` (see `deliver`'s second argument). */
  acknowledge(n: number): void {
    this.batcher.acknowledge(n);
  }

  /** The window's page was replaced (a reload): what its old page was sent will not be acknowledged. */
  acknowledgeAll(): void {
    this.batcher.acknowledgeAll();
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
