/**
 * Coalesces every event for one connected UI (a window, a browser tab) into at most one delivery
 * per frame, so the window receives ≤ ~60 messages a second whatever the number of sessions and
 * their update rates (issue #11). The first event after a quiet spell goes out at once (after the
 * current synchronous job, so events emitted together still travel together); later ones wait for
 * the end of the interval. Order is kept: items are delivered exactly as they were pushed. When
 * the timer is late — the event loop spent longer than the interval reading agents — the next push
 * delivers instead of waiting for it (as the patch batcher does).
 */
import type { WireEvent } from '../../../common/api/wire';

export interface EventCoalescerOptions {
  deliver: (items: WireEvent[]) => void;
  /**
   * Least time between two deliveries. 17 ms rather than a 16.7 ms frame: ≤ 59 deliveries a
   * second, leaving room in a 60-messages-a-second budget for the request answers.
   */
  intervalMs?: number;
  /** Injected for tests; default to the real clock, timers and microtask queue. */
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  soon?: (fn: () => void) => void;
}

export const EVENT_INTERVAL_MS = 17;

export class EventCoalescer {
  private pending: WireEvent[] = [];
  /** A delivery is already planned (a timer, or a microtask for an idle connection). */
  private planned = false;
  private timer: unknown = null;
  private lastDelivery = -Infinity;
  private disposed = false;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly soon: (fn: () => void) => void;

  constructor(private readonly options: EventCoalescerOptions) {
    this.intervalMs = options.intervalMs ?? EVENT_INTERVAL_MS;
    this.now = options.now ?? (() => performance.now());
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.soon = options.soon ?? queueMicrotask;
  }

  push(name: string, payload: unknown): void {
    if (this.disposed) return;
    this.pending.push([name, payload]);
    const now = this.now();
    if (this.planned) {
      // The planned timer is late (the event loop was busy reading agents): deliver now rather
      // than hold the events, and what they reference, until it runs. Still one per interval.
      if (this.timer !== null && now - this.lastDelivery >= this.intervalMs) this.deliver();
      return;
    }
    this.planned = true;
    const wait = this.lastDelivery + this.intervalMs - now;
    if (wait <= 0) this.soon(() => this.planned && this.deliver());
    else this.timer = this.setTimer(() => this.deliver(), wait);
  }

  /**
   * Deliver what is pending now, ignoring the interval. For a transport about to send a request's
   * answer: events emitted before it must arrive before it.
   */
  flush(): void {
    this.deliver();
  }

  dispose(): void {
    this.cancel();
    this.pending = [];
    this.disposed = true;
  }

  private cancel(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.planned = false;
  }

  private deliver(): void {
    this.cancel();
    if (this.pending.length === 0 || this.disposed) return;
    const items = this.pending;
    this.pending = [];
    this.lastDelivery = this.now();
    this.options.deliver(items);
  }
}
