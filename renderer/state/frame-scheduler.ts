/**
 * Runs queued work once per animation frame: patches that arrive in bursts are applied with one
 * store update per frame, whatever the message rate. Falls back to a timer where there is no
 * requestAnimationFrame (tests, background tabs keep working through the timer too).
 *
 * Each run that changed something (`run` did not return false) is announced with
 * `performance.mark(COMMIT_MARK)` (the previous mark is cleared, so marks do not pile up): the
 * benchmark's page probe takes "line → store commit" from them (bench/lib/page-probe.mjs).
 *
 * Deferring runs after expensive frames (an adaptive render rate) was tried and not kept: see
 * docs/performance.md § 3.
 */
export const COMMIT_MARK = 'acpwb:store-commit';

export interface FrameScheduler {
  schedule(): void;
  /** Runs queued work now. */
  flush(): void;
}

export function createFrameScheduler(run: () => boolean | void): FrameScheduler {
  let scheduled = false;
  const tick = () => {
    if (!scheduled) return;
    scheduled = false;
    if (run() !== false) announce();
  };
  return {
    schedule() {
      if (scheduled) return;
      scheduled = true;
      if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(tick);
      else setTimeout(tick, 16);
    },
    flush() {
      tick();
    },
  };
}

function announce(): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  performance.clearMarks(COMMIT_MARK);
  performance.mark(COMMIT_MARK);
}
