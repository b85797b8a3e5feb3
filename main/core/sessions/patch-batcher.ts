/**
 * Coalesces a session's patches for one subscriber (a window, a browser tab, the CLI): at most one
 * delivery per interval (16 ms by default, one frame), so a flood of tiny chunks costs the UI one
 * message per frame instead of one per chunk. Some moments must not wait for the next tick —
 * a turn end, a permission request, an error — and `flushNow()` delivers at once.
 *
 * Once the oldest pending patch has waited a whole interval, the next push delivers rather than
 * leaving it to the timer (the interval since the last delivery has then passed too): under a flood the
 * timer runs only when the event loop gets back to it — after one poll phase has read and reduced
 * megabytes of agent output (≈ 100–200 ms on a loaded machine) — and the pending patches, which
 * hold the agents' parsed diffs, would live through several young-generation collections and be
 * promoted (issue #11). Still at most one delivery per interval.
 */
export interface PatchBatcherOptions<P> {
  deliver: (batch: P[]) => void;
  intervalMs?: number;
  /** Injected for tests; defaults to the real timers. */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
}

export class PatchBatcher<P> {
  private pending: P[] = [];
  private timer: unknown = null;
  private lastDelivery = -Infinity;
  /** When the oldest pending patch was pushed (valid while a timer is set). */
  private pendingSince = 0;
  private disposed = false;
  private readonly intervalMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly now: () => number;

  constructor(private readonly options: PatchBatcherOptions<P>) {
    this.intervalMs = options.intervalMs ?? 16;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.now = options.now ?? (() => performance.now());
  }

  push(patches: readonly P[]): void {
    if (this.disposed || patches.length === 0) return;
    for (const p of patches) this.pending.push(p);
    const now = this.now();
    if (this.timer !== null) {
      if (now - this.pendingSince >= this.intervalMs) this.flushNow();
      return;
    }
    this.pendingSince = now;
    const wait = this.lastDelivery + this.intervalMs - now;
    this.timer = this.setTimer(() => {
      this.timer = null;
      this.deliver();
    }, Math.max(0, wait));
  }

  /** Deliver what is pending now (turn end, permission request, error). */
  flushNow(): void {
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    this.deliver();
  }

  dispose(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.pending = [];
    this.disposed = true;
  }

  private deliver(): void {
    if (this.pending.length === 0 || this.disposed) return;
    const batch = this.pending;
    this.pending = [];
    this.lastDelivery = this.now();
    this.options.deliver(batch);
  }
}
