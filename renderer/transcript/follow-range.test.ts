import { describe, expect, it } from 'vitest';
import { followRange } from './follow-range';

/** Rows of the given heights, laid out from `start`: the bottom of each. */
function ends(heights: number[], start = 8) {
  const out: number[] = [];
  let y = start;
  for (const h of heights) out.push((y += h));
  return (i: number) => out[i]!;
}

describe('followRange', () => {
  it('is empty for an empty list', () => {
    expect(followRange(0, () => 0, 500, 2)).toEqual([]);
  });

  it('mounts the last rows that fill the viewport, plus the overscan above them', () => {
    // 10 rows of 100 px; a 250 px viewport at the end shows rows 7 (partly), 8 and 9.
    expect(followRange(10, ends(Array(10).fill(100)), 250, 0)).toEqual([7, 8, 9]);
    expect(followRange(10, ends(Array(10).fill(100)), 250, 2)).toEqual([5, 6, 7, 8, 9]);
  });

  it('mounts only the last row when it is taller than the viewport', () => {
    expect(followRange(3, ends([50, 50, 2000]), 400, 0)).toEqual([2]);
    expect(followRange(3, ends([50, 50, 2000]), 400, 1)).toEqual([1, 2]);
  });

  it('does not count a row that ends exactly at the top of the viewport', () => {
    // Bottoms at 108, 208, 308: a 200 px viewport at the end spans 108–308.
    expect(followRange(3, ends([100, 100, 100]), 200, 0)).toEqual([1, 2]);
  });

  it('mounts every row of a list shorter than the viewport', () => {
    expect(followRange(3, ends([10, 10, 10]), 1000, 2)).toEqual([0, 1, 2]);
  });

  it('does not depend on where the list was scrolled (only on sizes)', () => {
    const endOf = ends(Array(1000).fill(40));
    const rows = followRange(1000, endOf, 400, 2);
    expect(rows[0]).toBe(988); // 10 rows of 40 px fill the 400 px viewport: 990–999, and 2 above
    expect(rows[rows.length - 1]).toBe(999);
  });
});
