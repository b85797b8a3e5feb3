/**
 * The transcript panes' scroll positions, read and applied together once per frame. The
 * virtualizer's own scroll listener reads `scrollTop` and re-renders its pane synchronously, in the
 * scroll event: with four panes scrolling, each pane's read comes after the previous pane's render
 * dirtied the DOM, so every pane but the first forces a layout of the page, and each pane commits
 * on its own (issue #11, scrolling long transcripts: four forced layouts and four commits a frame).
 *
 * Here a scroll event only schedules its pane. Scroll events are dispatched at the start of a frame
 * and an animation frame callback asked for then runs in that same frame, before style and layout:
 * the batch reads every scheduled pane's position first (the DOM is clean: nothing was written
 * yet), then applies them all inside one `commit` (React's `flushSync`): one render, one commit, and
 * the rows of every pane are there before the frame is painted.
 */

/** One pane's part of a frame: `read` takes what it needs from the DOM, `apply` acts on it. */
export interface FrameJob {
  read(): void;
  apply(): void;
}

export interface FrameBatch {
  /** Run `job` in the next frame (once, however often it is scheduled before). */
  schedule(job: FrameJob): void;
  /** Drop `job` if it has not run yet. */
  cancel(job: FrameJob): void;
  /** True while the jobs of a frame are applied (inside `commit`). */
  readonly applying: boolean;
}

export function createFrameBatch(
  requestFrame: (run: () => void) => void,
  commit: (apply: () => void) => void,
): FrameBatch {
  const pending = new Set<FrameJob>();
  let requested = false;
  let applying = false;

  const run = () => {
    requested = false;
    const jobs = [...pending];
    pending.clear();
    for (const job of jobs) job.read(); // every read before any write
    applying = true;
    try {
      commit(() => {
        for (const job of jobs) job.apply();
      });
    } finally {
      applying = false;
    }
  };

  return {
    schedule(job) {
      pending.add(job);
      if (requested) return;
      requested = true;
      requestFrame(run);
    },
    cancel(job) {
      pending.delete(job);
    },
    get applying() {
      return applying;
    },
  };
}
