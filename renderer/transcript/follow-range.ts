/**
 * The rows a following transcript mounts: the last rows that fill the viewport, counted from the
 * end of the list, plus `overscan` rows above them. A following pane is pinned to its end in the
 * same commit that appended rows, but the virtualizer learns the new scroll offset only from the
 * next scroll event; a range computed from its offset would leave the new rows unmounted (blank)
 * for that frame. Counted from the end, the range does not depend on the offset at all.
 */

/** @param endOf the bottom of row `index` in the list's coordinates (the virtualizer's `end`) */
export function followRange(count: number, endOf: (index: number) => number, viewportHeight: number, overscan: number): number[] {
  if (count <= 0) return [];
  const last = count - 1;
  const top = endOf(last) - viewportHeight;
  // The first row that reaches into the viewport once the list is scrolled to its end.
  let first = last;
  while (first > 0 && endOf(first - 1) > top) first--;
  const start = Math.max(first - overscan, 0);
  const rows = new Array<number>(last - start + 1);
  for (let i = start; i <= last; i++) rows[i - start] = i;
  return rows;
}
