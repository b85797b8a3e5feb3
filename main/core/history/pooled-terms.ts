/**
 * A document's distinct terms as a segment builder takes them (segment.ts): the characters of all
 * of them in one pool (term i is chars[starts[i], starts[i + 1]), lower case, folded), each with its
 * hash (`hashTerm` of those characters), weight and field mask. The term counter (term-counter.ts)
 * is one — what it counted goes into a segment without a string per term; `pooledTerms` makes one
 * from strings (tests, small uses).
 */
import { hashTerm } from './term-counter';

export interface PooledTerms {
  readonly size: number;
  readonly chars: Uint16Array;
  /** size + 1 entries: where each term's characters start, and where the last one ends. */
  readonly starts: Int32Array;
  readonly hashes: ArrayLike<number>;
  readonly weights: ArrayLike<number>;
  readonly masks: ArrayLike<number>;
  /**
   * Each term's short key (short-key.ts `shortKey`; 0 when it has none), when the source has them
   * (the term counter): a segment builder finds a short term by it, with no characters compared.
   */
  readonly keys?: ArrayLike<number>;
}

/** `terms` as a pool; `hashes` (hashTerm of each term) when the caller has them. */
export function pooledTerms(terms: readonly string[], weights: ArrayLike<number>, masks: ArrayLike<number>, hashes?: ArrayLike<number>): PooledTerms {
  let total = 0;
  for (const t of terms) total += t.length;
  const chars = new Uint16Array(total);
  const starts = new Int32Array(terms.length + 1);
  let at = 0;
  terms.forEach((t, i) => {
    for (let k = 0; k < t.length; k++) chars[at++] = t.charCodeAt(k);
    starts[i + 1] = at;
  });
  return { size: terms.length, chars, starts, hashes: hashes ?? terms.map(hashTerm), weights, masks };
}

/** Term i of a pool as a string. */
export function pooledTerm(t: Pick<PooledTerms, 'chars' | 'starts'>, i: number): string {
  return String.fromCharCode(...t.chars.subarray(t.starts[i]!, t.starts[i + 1]!));
}

/**
 * The UTF-8 bytes of chars[from, to) written at out[at…] (room for 3 bytes a unit is the caller's);
 * returns where they end, or -1 at a lone surrogate (terms never hold one: the caller then takes
 * the string path, as TextEncoder would write it).
 */
export function encodeUtf8(chars: Uint16Array, from: number, to: number, out: Uint8Array, at: number): number {
  for (let i = from; i < to; i++) {
    const c = chars[i]!;
    if (c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const low = c <= 0xdbff && i + 1 < to ? chars[i + 1]! : 0;
      if (low < 0xdc00 || low > 0xdfff) return -1;
      const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      out[at++] = 0xf0 | (cp >> 18);
      out[at++] = 0x80 | ((cp >> 12) & 0x3f);
      out[at++] = 0x80 | ((cp >> 6) & 0x3f);
      out[at++] = 0x80 | (cp & 0x3f);
      i++;
    } else {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}
