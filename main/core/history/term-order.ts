/**
 * The order a segment's dictionary is written in (compareTerms: UTF-8 byte order),
 * without a comparator call per comparison for most pairs: each term's first 4 UTF-8 bytes and its
 * index are packed into one float64 (32 + 21 bits, exact below 2^53), the packed keys are sorted
 * natively (`Float64Array#sort`), and only terms that share those 4 bytes are compared as strings.
 * Sorting the term indices with compareTerms was 6–8 % of a rebuild's worker time.
 */

/** Compares terms in UTF-8 byte order (= code point order; UTF-16 order differs for surrogates). */
export function compareTerms(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && ca <= 0xdfff) ca += 0x10000;
    if (cb >= 0xd800 && cb <= 0xdfff) cb += 0x10000;
    return ca - cb;
  }
  return a.length - b.length;
}

const INDEX_BITS = 21;
const INDEX_LIMIT = 2 ** INDEX_BITS;
/** Groups this small are put in order by insertion. */
const INSERTION_MAX = 12;

/**
 * A term's first 4 bytes of UTF-8 as a number (zero-padded: a shorter term sorts first), or -1
 * when a lone surrogate comes first (terms never hold one: the caller then sorts with compareTerms).
 */
export function utf8Prefix(term: string): number {
  let key = 0;
  let bytes = 0;
  const put = (b: number) => {
    if (bytes < 4) {
      key = key * 256 + b;
      bytes++;
    }
  };
  for (let i = 0; i < term.length && bytes < 4; i++) {
    const c = term.charCodeAt(i);
    if (c < 0x80) put(c);
    else if (c < 0x800) {
      put(0xc0 | (c >> 6));
      put(0x80 | (c & 0x3f));
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A pair is one code point above U+FFFF: 4 bytes, after every BMP character (as compareTerms has it).
      const low = c <= 0xdbff && i + 1 < term.length ? term.charCodeAt(i + 1) : 0;
      if (low < 0xdc00 || low > 0xdfff) return -1; // a lone surrogate
      const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      put(0xf0 | (cp >> 18));
      put(0x80 | ((cp >> 12) & 0x3f));
      put(0x80 | ((cp >> 6) & 0x3f));
      put(0x80 | (cp & 0x3f));
      i++;
    } else {
      put(0xe0 | (c >> 12));
      put(0x80 | ((c >> 6) & 0x3f));
      put(0x80 | (c & 0x3f));
    }
  }
  while (bytes < 4) {
    key *= 256;
    bytes++;
  }
  return key;
}

/** Indices of `terms` in compareTerms order (terms are distinct). */
export function termOrder(terms: readonly string[]): Int32Array {
  const n = terms.length;
  const out = new Int32Array(n);
  const keys = n < INDEX_LIMIT ? new Float64Array(n) : undefined;
  for (let k = 0; keys && k < n; k++) {
    const p = utf8Prefix(terms[k]!);
    if (p < 0) return slowOrder(terms);
    keys[k] = p * INDEX_LIMIT + k;
  }
  if (!keys) return slowOrder(terms);
  keys.sort();
  let i = 0;
  while (i < n) {
    const prefix = Math.floor(keys[i]! / INDEX_LIMIT);
    const base = prefix * INDEX_LIMIT;
    let j = i;
    while (j < n && keys[j]! - base < INDEX_LIMIT) {
      out[j] = keys[j]! - base;
      j++;
    }
    if (j - i > 1) sortRun(terms, out, i, j);
    i = j;
  }
  return out;
}

/** out[from, to) in compareTerms order. */
function sortRun(terms: readonly string[], out: Int32Array, from: number, to: number): void {
  if (to - from <= INSERTION_MAX) {
    for (let a = from + 1; a < to; a++) {
      const k = out[a]!;
      const t = terms[k]!;
      let b = a - 1;
      while (b >= from && compareTerms(terms[out[b]!]!, t) > 0) {
        out[b + 1] = out[b]!;
        b--;
      }
      out[b + 1] = k;
    }
    return;
  }
  const run = Array.from(out.subarray(from, to)).sort((a, b) => compareTerms(terms[a]!, terms[b]!));
  out.set(run, from);
}

function slowOrder(terms: readonly string[]): Int32Array {
  return Int32Array.from(terms.map((_, k) => k).sort((a, b) => compareTerms(terms[a]!, terms[b]!)));
}
