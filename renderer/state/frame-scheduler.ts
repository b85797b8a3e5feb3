/**
 * Runs queued work once per animation frame: patches that arrive in bursts are applied with one
 * store update per frame, whatever the message rate. Falls back to a timer where there is no
 * requestAnimationFrame (tests, background tabs keep working through the timer too).
 *
 * Each run that changed something (`run` did not return false) is announced with
 * `performance.mark(COMMIT_MARK)` (the previous mark is cleared, so marks do not pile up): the
 * benchmark's page probe takes "line → store commit" from them (bench/lib/page-probe.mjs).
 *
 * A run may leave work for the next frame (panes take turns, pane-turns.ts): it then returns
 * `{ sessions, more: true }` — the mark's `detail.sessions` says which sessions it applied, and
 * the scheduler asks for the next frame. `flush()` runs with `all` set: everything, now.
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

/** A run that applied some of the queued work: which sessions, and whether work is left for the next frame. */
export interface PartialRun {
  sessions: readonly string[];
  more: boolean;
}

export function createFrameScheduler(run: (all: boolean) => boolean | void | PartialRun): FrameScheduler {
  let scheduled = false;
  const tick = (all: boolean) => {
    if (!scheduled && !all) return;
    scheduled = false;
    const result = run(all);
    if (typeof result === 'object') {
      if (result.sessions.length > 0) announce(result.sessions);
      if (result.more) scheduler.schedule();
    } else if (result !== false) announce();
  };
  const onFrame = () => tick(false);
  const scheduler: FrameScheduler = {
    schedule() {
      if (scheduled) return;
      scheduled = true;
      if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(onFrame);
      else setTimeout(onFrame, 16);
    },
    flush() {
      if (scheduled) tick(true);
    },
  };
  return scheduler;
}

function announce(sessions?: readonly string[]): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  performance.clearMarks(COMMIT_MARK);
  if (sessions) performance.mark(COMMIT_MARK, { detail: { sessions } });
  else performance.mark(COMMIT_MARK);
}
