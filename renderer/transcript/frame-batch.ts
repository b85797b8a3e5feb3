/**
 * The transcript panes' scroll renders, batched once per frame. The virtualizer's own scroll
 * listener reads `scrollTop` and re-renders its pane synchronously, in the scroll event: with four
 * panes scrolling, each pane's read comes after the previous pane's render dirtied the DOM, so
 * every pane but the first forces a layout of the page, and each pane commits on its own (issue #11,
 * scrolling long transcripts: four forced layouts and four commits a frame).
 *
 * Here a pane's scroll event still hands its offset to the virtualizer at once (`defer`: whatever
 * renders meanwhile, a streamed entry, sees where the reader is), but the render it asks for is
 * scheduled. Scroll events are dispatched at the start of a frame, before any of these renders, and
 * an animation frame callback asked for then runs in that same frame, before style and layout: the
 * batch runs every scheduled job's `read` first (the DOM is still clean), then every `apply` inside
 * one `commit` (React's `flushSync`): one render, one commit, the rows of every pane there before
 * the frame is painted.
 */

/** One part of a frame's work: `read` takes what it needs from the DOM, `apply` acts on it. */
export interface FrameJob {
  read(): void;
  apply(): void;
}

export interface FrameBatch {
  /** Run `job` in the next frame (once, however often it is scheduled before). */
  schedule(job: FrameJob): void;
  /** Drop `job` if it has not run yet. */
  cancel(job: FrameJob): void;
  /** Runs `fn` with `deferring` set: renders it asks for are to be scheduled, not done. */
  defer(fn: () => void): void;
  /** True inside `defer`. */
  readonly deferring: boolean;
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
  let deferring = false;

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
    defer(fn) {
      const before = deferring;
      deferring = true;
      try {
        fn();
      } finally {
        deferring = before;
      }
    },
    get deferring() {
      return deferring;
    },
    get applying() {
      return applying;
    },
  };
}
