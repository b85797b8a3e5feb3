/**
 * Row height guesses that learn: the height a row of each kind usually has, from the rows measured
 * so far in this pane. The virtualizer places every row it has not measured yet at its guess; when a
 * row mounts and its measured height differs, the virtualizer recomputes the positions of every
 * later row (O(entries) on a 50,000-entry transcript) and moves the scroll position to compensate —
 * a second layout in the same frame. Rows of one kind are often all alike (one-line messages,
 * collapsed thoughts), so a guess learned from them makes most mounts exact: no correction at all
 * (issue #11, scrolling long transcripts).
 */
export interface RowEstimates {
  /** The guess for a row of this kind: the mean measured height of its kind, else `fallback(kind)`. */
  estimate(kind: string | undefined): number;
  /** A row of this kind was measured at `size` pixels. */
  learn(kind: string | undefined, size: number): void;
}

/** Measurements of one kind beyond which the mean stops moving (a later odd row hardly matters). */
const SAMPLES = 200;

export function createRowEstimates(fallback: (kind: string | undefined) => number): RowEstimates {
  const seen = new Map<string, { n: number; sum: number; mean: number }>();
  return {
    estimate(kind) {
      return seen.get(kind ?? '')?.mean ?? fallback(kind);
    },
    learn(kind, size) {
      if (!(size > 0)) return; // a row not laid out (hidden pane) says nothing
      const key = kind ?? '';
      const s = seen.get(key) ?? { n: 0, sum: 0, mean: 0 };
      if (s.n >= SAMPLES) return;
      s.n++;
      s.sum += size;
      s.mean = Math.round(s.sum / s.n);
      seen.set(key, s);
    },
  };
}
