/**
 * Whether a pane follows a stream faster than anyone reads it (issue #11, end-to-end latency). Four
 * panes following a fast stream each mount a row every few frames, and a tool card's body (its diff
 * preview: a dozen line rows of several boxes each, its locations) is most of what a mounted card
 * costs to style, lay out and paint — for a card that is scrolled past a few frames later. While a
 * pane's stream brings `FAST_ROWS` rows or more within a second and the pane is at the end, its
 * tool cards mount as their head (kind, title, status) and fill in their body once the pane settles:
 * the stream pauses for `PAUSE_MS` (a turn's end included), or the reader leaves the end (scrolls
 * up: the rows they scroll to are then the ones being read). A card mounted in full stays full. The
 * decision is in docs/decisions.md.
 */

/** Rows appended within a second at or beyond which a following pane's stream counts as fast. */
export const FAST_ROWS = 6;
/** The span of time the rows are counted over. */
export const WINDOW_MS = 1000;
/** A fast stream that brings no row for this long has paused: the deferred bodies fill in. */
export const PAUSE_MS = 300;

export interface StreamPace {
  /** Whether the pane follows a fast stream now (a card mounting now shows its head only). */
  fast(): boolean;
  /** Calls `listener` once, when the pane settles (at once if it is settled); returns an unsubscribe. */
  onSettled(listener: () => void): () => void;
  /**
   * Notes one commit of the pane: `appended` rows added at its end since the last note (not a
   * reload, not older entries joining in front), and whether the pane is at the end.
   */
  note(appended: number, following: boolean): void;
  /** Stops the pause timer (the pane unmounts). */
  dispose(): void;
}

export interface PaceClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: PaceClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createStreamPace(clock: PaceClock = realClock): StreamPace {
  // Times of the recent appends, one per row (a commit of n rows notes n), oldest first.
  const appends: number[] = [];
  let fast = false;
  let lastAppend = 0;
  let timer: unknown;
  const listeners = new Set<() => void>();

  const settle = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    appends.length = 0;
    if (!fast) return;
    fast = false;
    const waiting = [...listeners];
    listeners.clear();
    for (const listener of waiting) listener();
  };
  // The pause check runs PAUSE_MS after the last append it knew of; later appends move it on.
  const checkPause = () => {
    timer = undefined;
    const quiet = clock.now() - lastAppend;
    if (quiet >= PAUSE_MS) settle();
    else timer = clock.setTimeout(checkPause, PAUSE_MS - quiet);
  };

  return {
    fast: () => fast,
    onSettled(listener) {
      if (!fast) {
        listener();
        return () => {};
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    note(appended, following) {
      if (!following) {
        settle();
        return;
      }
      if (appended <= 0) return;
      const now = clock.now();
      lastAppend = now;
      for (let i = 0; i < Math.min(appended, FAST_ROWS); i++) appends.push(now);
      while (appends.length > 0 && now - appends[0]! > WINDOW_MS) appends.shift();
      while (appends.length > FAST_ROWS) appends.shift();
      if (!fast && appends.length >= FAST_ROWS) fast = true;
      if (fast && timer === undefined) timer = clock.setTimeout(checkPause, PAUSE_MS);
    },
    dispose() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      listeners.clear();
    },
  };
}
