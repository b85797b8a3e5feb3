/**
 * How much memory an entry holds, roughly: the characters of its strings plus a little per value.
 * `LiveTranscript` keeps its hot entries within a budget of this weight, so a few large entries (a
 * tool call with a 16 KiB diff) go to the cold store soon instead of waiting for 64 newer entries
 * — under a flood, text kept that long survives the young-generation GC and fills the old one.
 *
 * Cheap by design: it walks at most `MAX_VALUES` values; an entry more intricate than that (a huge
 * `rawOutput` object) is weighed as at least `INTRICATE_WEIGHT`, i.e. heavy.
 */

/** Values walked before an entry is called heavy without looking further. */
const MAX_VALUES = 512;
/** The least weight of an entry with more than MAX_VALUES values. */
export const INTRICATE_WEIGHT = 1 << 20;
/** What a value other than a string's characters is counted as (numbers, object headers...). */
const VALUE_WEIGHT = 8;

/** Reused by every call (no allocation per weighing); emptied before each returns. */
const stack: unknown[] = [];

export function entryWeight(entry: object): number {
  let weight = 0;
  let values = 0;
  stack.push(entry);
  while (stack.length) {
    const value = stack.pop();
    if (++values > MAX_VALUES) {
      stack.length = 0;
      return Math.max(weight, INTRICATE_WEIGHT);
    }
    if (typeof value === 'string') weight += value.length;
    else {
      weight += VALUE_WEIGHT;
      if (typeof value === 'object' && value !== null) {
        if (Array.isArray(value)) for (const item of value) stack.push(item);
        else for (const key in value) stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return weight;
}
