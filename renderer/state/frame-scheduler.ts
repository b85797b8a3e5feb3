/**
 * Runs queued work once per animation frame: patches that arrive in bursts are applied with one
 * store update per frame, whatever the message rate. Falls back to a timer where there is no
 * requestAnimationFrame (tests, background tabs keep working through the timer too).
 *
 * Adaptive (issue #11): the scheduler times each run from its start to the start of the next
 * animation frame — the run, the render it caused, layout and paint. A run whose frame took longer
 * than `lightFrameMs` delays the next run by what the frame took beyond that (at most
 * `maxDeferMs`), so the renderer is busy with these frames about half of the time at most and the
 * rest goes to messages and input. Work keeps queueing meanwhile and the next run takes it all at
 * once. While frames stay light every frame runs, as before.
 *
 * Each run that changed something (`run` did not return false) is announced with `performance.mark(COMMIT_MARK)` (the previous mark is cleared, so
 * marks do not pile up): the benchmark's page probe takes "line → store commit" from them.
 */
export const COMMIT_MARK = 'acpwb:store-commit';

export interface FrameSchedulerOptions {
  /** A frame up to this long (run start → next frame start) does not delay the next run. */
  lightFrameMs?: number;
  /** The longest delay after an expensive frame. 0 turns the adaptation off. */
  maxDeferMs?: number;
}

export const LIGHT_FRAME_MS = 24;
export const MAX_DEFER_MS = 120;

export interface FrameScheduler {
  schedule(): void;
  /** Runs queued work now (whatever the delay). */
  flush(): void;
}

export function createFrameScheduler(run: () => boolean | void, options: FrameSchedulerOptions = {}): FrameScheduler {
  const lightFrameMs = options.lightFrameMs ?? LIGHT_FRAME_MS;
  const maxDeferMs = options.maxDeferMs ?? MAX_DEFER_MS;
  let scheduled = false;
  let waiting = false; // a frame or timer is pending
  let notBefore = 0; // performance.now() before which no run starts
  let measuring = false;

  const frame = (cb: () => void) => {
    if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') requestAnimationFrame(() => cb());
    else setTimeout(cb, 16);
  };

  const runNow = () => {
    scheduled = false;
    const started = performance.now();
    if (run() !== false) announce();
    if (maxDeferMs > 0 && !measuring) {
      measuring = true;
      frame(() => {
        measuring = false;
        const took = performance.now() - started;
        notBefore = took > lightFrameMs ? performance.now() + Math.min(maxDeferMs, took - lightFrameMs) : 0;
      });
    }
  };

  const tick = () => {
    waiting = false;
    if (!scheduled) return;
    const wait = notBefore - performance.now();
    if (wait > 0) {
      waiting = true;
      // Wake a little early and run in the frame after, which is where the work belongs.
      setTimeout(() => frame(tick), Math.max(0, wait - 8));
      return;
    }
    runNow();
  };

  return {
    schedule() {
      if (scheduled) return;
      scheduled = true;
      if (waiting) return;
      waiting = true;
      frame(tick);
    },
    flush() {
      if (scheduled) runNow();
    },
  };
}

function announce(): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  performance.clearMarks(COMMIT_MARK);
  performance.mark(COMMIT_MARK);
}
