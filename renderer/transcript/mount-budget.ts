/**
 * How many rows a pane that has just opened may mount per task. Mounting a screen of rows (React
 * render and commit, then their first style and layout) was one task of 130 ms on a quiet machine
 * and several times that on a loaded one when a long session opened (issue #11: no renderer task
 * over 50 ms). The first task mounts the rows nearest the end, where the pane opens, and each later
 * task adds a few more until the whole range the virtualizer asks for is there; from then on the
 * pane mounts what it is asked at once (scrolling is not throttled).
 */

/** Rows the first task of an open mounts: the last few entries, the ones a reader sees first. */
export const FIRST_ROWS = 3;
/** Rows each later task adds. */
export const MORE_ROWS = 3;

/** Without a budget (the pane's first screen is complete): every row asked for. */
export const NO_BUDGET = Number.POSITIVE_INFINITY;

/**
 * The rows to mount now: the last `budget` of `items` (items are in index order and the pane opens
 * at the end, so those are the rows at the bottom of the viewport).
 */
export function rowsWithinBudget<T>(items: readonly T[], budget: number): readonly T[] {
  return budget >= items.length ? items : items.slice(items.length - Math.max(0, budget));
}

/** The budget of the next task: a few rows more, or none once every row asked for is mounted. */
export function nextBudget(budget: number, asked: number): number {
  return budget >= asked ? NO_BUDGET : budget + MORE_ROWS;
}
