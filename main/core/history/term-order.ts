/**
 * The order a segment's dictionary is written in (compareTerms: UTF-8 byte order),
 * without a comparator call per comparison for most pairs: each term's first 4 UTF-8 bytes and its
 * index are packed into one float64 (32 + 21 bits, exact below 2^53) and the packed keys sorted
 * natively (`Float64Array#sort`); terms that share those 4 bytes are sorted by their next 4 the same
 * way (small groups by insertion with compareTerms).
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
/** Past this many bytes shared, a group is sorted with compareTerms. */
const MAX_DEPTH_BYTES = 64;

/**
 * 4 bytes of a term's UTF-8 from byte `skip` on, as a number (zero-padded: a shorter term sorts
 * first), or -1 at a lone surrogate (terms never hold one: the caller then sorts with compareTerms).
 * A character cut by `skip` or by the 4th byte contributes the bytes inside the window.
 */
export function utf8Prefix(term: string, skip = 0): number {
  let key = 0;
  let at = 0; // bytes of the term seen so far
  const end = skip + 4;
  const put = (b: number) => {
    if (at >= skip && at < end) key = key * 256 + b;
    at++;
  };
  for (let i = 0; i < term.length && at < end; i++) {
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
  for (let b = Math.max(at, skip); b < end; b++) key *= 256;
  return key;
}

/** Indices of `terms` in compareTerms order (terms are distinct). */
export function termOrder(terms: readonly string[]): Int32Array {
  const out = new Int32Array(terms.length);
  for (let k = 0; k < out.length; k++) out[k] = k;
  sortRun(terms, out, 0, out.length, 0);
  return out;
}

/**
 * out[from, to) — terms that share their first `skip` bytes — in compareTerms order: by the next 4
 * bytes (packed keys, sorted natively), then each group sharing those too, 4 bytes further on.
 */
function sortRun(terms: readonly string[], out: Int32Array, from: number, to: number, skip: number): void {
  const n = to - from;
  if (n <= 1) return;
  if (n <= INSERTION_MAX) return insertionSort(terms, out, from, to);
  if (n >= INDEX_LIMIT || skip >= MAX_DEPTH_BYTES) return comparatorSort(terms, out, from, to);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = utf8Prefix(terms[out[from + i]!]!, skip);
    if (p < 0) return comparatorSort(terms, out, from, to);
    keys[i] = p * INDEX_LIMIT + i;
  }
  // A whole group padded with zeros here has ended: only one term can have (distinct terms).
  placeByKeys(keys, out, from, (a, b) => sortRun(terms, out, a, b, skip + 4));
}

function insertionSort(terms: readonly string[], out: Int32Array, from: number, to: number): void {
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
}

function comparatorSort(terms: readonly string[], out: Int32Array, from: number, to: number): void {
  out.set(
    Array.from(out.subarray(from, to)).sort((a, b) => compareTerms(terms[a]!, terms[b]!)),
    from,
  );
}

/**
 * Indices of the terms of a UTF-8 pool (term k is bytes[starts[k], starts[k + 1]); distinct) in
 * byte order — compareTerms order, for terms without lone surrogates. The same sort as termOrder,
 * reading each 4-byte window straight from the bytes (a segment builder keeps its terms in a pool:
 * segment.ts).
 */
export function byteOrder(bytes: Uint8Array, starts: Int32Array, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let k = 0; k < count; k++) out[k] = k;
  sortBytesRun(bytes, starts, out, 0, count, 0);
  return out;
}

/** Bytes skip … skip + 3 of term k as a number, zero-padded past its end. */
function bytesWindow(bytes: Uint8Array, starts: Int32Array, k: number, skip: number): number {
  const end = starts[k + 1]!;
  let at = starts[k]! + skip;
  let key = 0;
  for (let j = 0; j < 4; j++, at++) key = key * 256 + (at < end ? bytes[at]! : 0);
  return key;
}

function compareAt(bytes: Uint8Array, starts: Int32Array, a: number, b: number): number {
  const sa = starts[a]!;
  const sb = starts[b]!;
  const la = starts[a + 1]! - sa;
  const lb = starts[b + 1]! - sb;
  const n = Math.min(la, lb);
  for (let i = 0; i < n; i++) if (bytes[sa + i] !== bytes[sb + i]) return bytes[sa + i]! - bytes[sb + i]!;
  return la - lb;
}

function sortBytesRun(bytes: Uint8Array, starts: Int32Array, out: Int32Array, from: number, to: number, skip: number): void {
  const n = to - from;
  if (n <= 1) return;
  if (n <= INSERTION_MAX || n >= INDEX_LIMIT || skip >= MAX_DEPTH_BYTES) {
    if (n <= INSERTION_MAX) {
      for (let a = from + 1; a < to; a++) {
        const k = out[a]!;
        let b = a - 1;
        while (b >= from && compareAt(bytes, starts, out[b]!, k) > 0) {
          out[b + 1] = out[b]!;
          b--;
        }
        out[b + 1] = k;
      }
    } else out.set(Array.from(out.subarray(from, to)).sort((a, b) => compareAt(bytes, starts, a, b)), from);
    return;
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = bytesWindow(bytes, starts, out[from + i]!, skip) * INDEX_LIMIT + i;
  placeByKeys(keys, out, from, (a, b) => sortBytesRun(bytes, starts, out, a, b, skip + 4));
}

/**
 * Sorts `keys` (each a 4-byte window times INDEX_LIMIT plus the item's place in out[from, …)) and
 * puts out[from, from + keys.length) in their order; each run of two or more items with the same
 * window goes to `sortGroup(start, end)` to be ordered by what follows it.
 */
function placeByKeys(keys: Float64Array, out: Int32Array, from: number, sortGroup: (start: number, end: number) => void): void {
  const n = keys.length;
  keys.sort();
  const before = out.slice(from, from + n);
  let i = 0;
  while (i < n) {
    const base = Math.floor(keys[i]! / INDEX_LIMIT) * INDEX_LIMIT;
    let j = i;
    while (j < n && keys[j]! - base < INDEX_LIMIT) {
      out[from + j] = before[keys[j]! - base]!;
      j++;
    }
    if (j - i > 1) sortGroup(from + i, from + j);
    i = j;
  }
}
