import { describe, expect, it } from 'vitest';
import { FIRST_ROWS, MORE_ROWS, NO_BUDGET, nextBudget, rowsWithinBudget } from './mount-budget';

describe('mount budget', () => {
  it('mounts the last rows first (the pane opens at the end)', () => {
    const items = [10, 11, 12, 13, 14, 15, 16];
    expect(rowsWithinBudget(items, 3)).toEqual([14, 15, 16]);
    expect(rowsWithinBudget(items, 0)).toEqual([]);
  });

  it('mounts every row once the budget covers them, and without a budget', () => {
    const items = [1, 2, 3];
    expect(rowsWithinBudget(items, 3)).toBe(items);
    expect(rowsWithinBudget(items, 10)).toBe(items);
    expect(rowsWithinBudget(items, NO_BUDGET)).toBe(items);
  });

  it('grows by a few rows per task until every row asked for is mounted, then lifts', () => {
    let budget = FIRST_ROWS;
    const asked = FIRST_ROWS + 2 * MORE_ROWS + 1;
    const seen = [budget];
    while (budget !== NO_BUDGET) seen.push((budget = nextBudget(budget, asked)));
    expect(seen).toEqual([FIRST_ROWS, FIRST_ROWS + MORE_ROWS, FIRST_ROWS + 2 * MORE_ROWS, FIRST_ROWS + 3 * MORE_ROWS, NO_BUDGET]);
  });

  it('stays lifted: a lifted budget is never lowered again', () => {
    expect(nextBudget(NO_BUDGET, 50)).toBe(NO_BUDGET);
  });
});
