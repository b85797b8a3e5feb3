/**
 * Runs queued work at most about once per animation frame: patches that arrive in bursts are
 * applied with one store update per frame, whatever the message rate. The first batch after a frame
 * began runs at once (in a microtask, after the message that queued it): waiting for the next frame
 * added half a frame on average, and a whole long frame at worst, to every streamed update's way to
 * the screen (issue #11, end-to-end latency), although that frame would paint it either way. Work
 * queued after such a run waits for the next frame. Falls back to a timer where there is no
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
  // A run happened since the last frame began (cleared by a frame callback requested at the run).
  let ranThisFrame = false;
  let watching = false;
  const framesRun = () => typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible';
  const ran = () => {
    ranThisFrame = true;
    if (watching || !framesRun()) return;
    watching = true;
    requestAnimationFrame(() => {
      watching = false;
      ranThisFrame = false;
    });
  };
  const tick = () => {
    if (!scheduled) return;
    scheduled = false;
    ran();
    if (run() !== false) announce();
  };
  return {
    schedule() {
      if (scheduled) return;
      scheduled = true;
      if (!framesRun()) setTimeout(tick, 16);
      else if (ranThisFrame) requestAnimationFrame(tick);
      else queueMicrotask(tick);
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
