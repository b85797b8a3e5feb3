/**
 * Windows over large collections. Every request that returns a collection that can grow without
 * bound takes a `WindowQuery` and answers a `Window<T>`; the client then follows patch events.
 */
export interface WindowQuery {
  /** Index of the first item wanted (0-based). A cursor-based collection uses `cursor` instead. */
  offset?: number;
  cursor?: string;
  /** At most this many items; the core caps it at `MAX_WINDOW`. */
  limit: number;
}

export interface Window<T> {
  items: T[];
  offset: number;
  /** Total number of items at the time of the answer, when known. */
  total: number | null;
  /** Present when more items follow and the collection is cursor-addressed. */
  nextCursor?: string;
}

export const MAX_WINDOW = 2000;

/** Clamp a client's window query to sane bounds; a negative or fractional offset is a client bug. */
export function normalizeWindow(query: WindowQuery): { offset: number; limit: number } {
  const offset = Math.max(0, Math.floor(query.offset ?? 0));
  const limit = Math.min(MAX_WINDOW, Math.max(0, Math.floor(query.limit)));
  return { offset, limit };
}

export function sliceWindow<T>(all: readonly T[], query: WindowQuery): Window<T> {
  const { offset, limit } = normalizeWindow(query);
  return { items: all.slice(offset, offset + limit), offset, total: all.length };
}

/**
 * About how many bytes of JSON a window asked "from the end" may hold (see `startWithinBytes`). A
 * client that pages backwards through large items (a transcript's tool calls with 16 KiB diffs)
 * would otherwise get several MB in one message, and decoding and parsing it is one long task in
 * the window (issue #11). Small enough to parse in a few milliseconds, large enough that small
 * items still come in windows of hundreds.
 */
export const WINDOW_BYTES = 256 * 1024;

/**
 * Where a window [offset, end) must start for its items to stay within `maxBytes` (by `sizeAt`,
 * the size of the item at an index), keeping its end: the items nearest `end` are kept, at least
 * one, whatever it weighs.
 */
export function startWithinBytes(offset: number, end: number, maxBytes: number, sizeAt: (index: number) => number): number {
  if (end <= offset) return offset;
  let start = end - 1;
  let bytes = sizeAt(start);
  while (start > offset) {
    const next = bytes + sizeAt(start - 1);
    if (next > maxBytes) break;
    bytes = next;
    start--;
  }
  return start;
}
