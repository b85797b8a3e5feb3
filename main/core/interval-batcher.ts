/**
 * Collects items and hands them over in batches, at most one delivery per interval (issue #11):
 * a flood of small updates costs a subscriber one delivery per frame instead of one per update.
 * Order is kept: items are delivered exactly as they were pushed — or, with `coalesce`, as lighter
 * equivalents of them (never added, removed or reordered).
 *
 * - The first item after a quiet spell goes out as soon as the interval since the last delivery
 *   has passed — through `soon` when given (after the current synchronous job, so items pushed
 *   together travel together), else a 0 ms timer.
 * - When the planned timer is late — the event loop spent longer than the interval reading agents,
 *   and the oldest pending item has waited a whole interval — the next push delivers instead of
 *   waiting for it: under a flood the timer runs only after a poll phase has read and reduced
 *   megabytes of agent output, and the pending items (parsed updates, their diffs) would live
 *   through several young-generation collections and be promoted. Still one delivery per interval.
 *
 * - With `acknowledgement` set, at most `window` deliveries may be unacknowledged; the next one
 *   waits for an acknowledgement (flow control): a receiver that falls behind — a window whose main
 *   thread is busy rendering — gets fewer, larger deliveries instead of a queue of small ones
 *   arriving in a burst once it is free. A receiver silent for `timeoutMs` after a delivery gets
 *   the next one anyway (a window that reloaded never acknowledges what its predecessor was sent);
 *   deliveries are numbered, and an acknowledgement of number n covers every delivery up to n.
 *
 * Used by the patch batcher (a session's patches for one subscriber) and the event coalescer
 * (every event for one window).
 */
export interface IntervalBatcherOptions<T> {
  /** `n` numbers the deliveries from 1, for `acknowledge(n)`. */
  deliver: (items: T[], n: number) => void;
  intervalMs: number;
  /** Hold a delivery while `window` deliveries are unacknowledged, for at most `timeoutMs`. */
  acknowledgement?: { window: number; timeoutMs: number };
  /**
   * Called after each push with the pending batch and the index of the first item just pushed: it
   * may replace earlier pending items that those make redundant by lighter equivalents, in place
   * (the patch batcher drops tool-call content a later patch replaces: superseded-content.ts). A new
   * batch is a new array.
   */
  coalesce?: (pending: T[], from: number) => void;
  /** Runs the delivery for the first item after a quiet spell; default: a 0 ms timer. */
  soon?: (fn: () => void) => void;
  /**
   * Called at the start of each delivery: it may push items that were waiting elsewhere (the
   * event coalescer takes the sessions' pending patches, so a window's delivery carries every patch
   * made until then instead of those a session's own batcher let go earlier). What it pushes goes
   * with this delivery.
   */
  collect?: () => void;
  /** Injected for tests; default to the real clock and timers. */
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class IntervalBatcher<T> {
  private pending: T[] = [];
  /** A delivery is planned (a timer, or `soon` for a quiet subscriber). */
  private planned = false;
  private timer: unknown = null;
  private lastDelivery = -Infinity;
  /** When the oldest pending item was pushed (valid while a delivery is planned). */
  private pendingSince = 0;
  /** Deliveries made, and the highest one acknowledged. */
  private delivered = 0;
  private acknowledged = 0;
  /** The planned delivery waits for an acknowledgement (its timer is the fallback). */
  private holding = false;
  /** `collect` is running: what it pushes waits for the delivery under way. */
  private collecting = false;
  private disposed = false;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: IntervalBatcherOptions<T>) {
    this.now = options.now ?? (() => performance.now());
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  push(item: T): void {
    if (this.disposed) return;
    this.pending.push(item);
    this.options.coalesce?.(this.pending, this.pending.length - 1);
    this.planDelivery();
  }

  pushAll(items: readonly T[]): void {
    if (this.disposed || items.length === 0) return;
    const from = this.pending.length;
    for (const item of items) this.pending.push(item);
    this.options.coalesce?.(this.pending, from);
    this.planDelivery();
  }

  /** Delivers what is pending now, ignoring the interval, and cancels the planned delivery. */
  flush(): void {
    this.cancel();
    if (this.disposed || this.collecting) return;
    if (this.options.collect) {
      this.collecting = true;
      try {
        this.options.collect();
      } finally {
        this.collecting = false;
      }
      this.cancel(); // what the pushes in `collect` planned: they go now
    }
    if (this.pending.length === 0) return;
    const items = this.pending;
    this.pending = [];
    this.lastDelivery = this.now();
    this.options.deliver(items, ++this.delivered);
  }

  /** The receiver has taken deliveries up to `n`: a delivery held back for it goes out. */
  acknowledge(n: number): void {
    if (!this.options.acknowledgement || !(n > this.acknowledged)) return;
    this.acknowledged = Math.min(n, this.delivered);
    this.releaseHeld();
  }

  /**
   * Nothing delivered so far will be acknowledged (the receiver was replaced, e.g. a reloaded page):
   * every delivery counts as acknowledged, and one held back goes out.
   */
  acknowledgeAll(): void {
    if (!this.options.acknowledgement) return;
    this.acknowledged = this.delivered;
    this.releaseHeld();
  }

  private releaseHeld(): void {
    if (!this.holding || this.heldBack(this.now())) return;
    const since = this.pendingSince;
    this.cancel(); // the held delivery's fallback timer
    this.planDelivery();
    this.pendingSince = since;
  }

  dispose(): void {
    this.cancel();
    this.pending = [];
    this.disposed = true;
  }

  private planDelivery(): void {
    const now = this.now();
    if (this.planned) {
      if (this.timer !== null && now - this.pendingSince >= this.options.intervalMs && !this.heldBack(now)) this.flush();
      return;
    }
    this.planned = true;
    this.pendingSince = now;
    if (this.heldBack(now)) {
      this.holding = true;
      this.timer = this.setTimer(() => this.flush(), this.lastDelivery + this.options.acknowledgement!.timeoutMs - now);
      return;
    }
    const wait = this.lastDelivery + this.options.intervalMs - now;
    const soon = this.options.soon;
    if (wait <= 0 && soon) soon(() => this.planned && this.flush());
    else this.timer = this.setTimer(() => this.flush(), Math.max(0, wait));
  }

  /** The window of unacknowledged deliveries is full, since less than the timeout. */
  private heldBack(now: number): boolean {
    const ack = this.options.acknowledgement;
    return ack !== undefined && this.delivered - this.acknowledged >= ack.window && now - this.lastDelivery < ack.timeoutMs;
  }

  private cancel(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.planned = false;
    this.holding = false;
  }
}
