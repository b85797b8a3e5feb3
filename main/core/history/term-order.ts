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
  if (out.length > 1) sortRuns(terms, out);
  return out;
}

/**
 * Puts `out` in compareTerms order, run by run: a run is out[from, to) — terms that share their
 * first `skip` bytes — sorted by its next 4 bytes (packed keys, sorted natively); each group that
 * shares those too becomes a run 4 bytes further on. The runs wait on a stack (they are disjoint:
 * any order does) and share one key array and one copy of `out`. It was a recursive function with
 * its own arrays per call: V8 compiled its loop on the stack (OSR) while the first call was still
 * packing keys, and every deeper call that entered that code left it again at the sort it had not
 * seen yet — 1,600 deoptimizations and re-compilations per rebuild of 1,000 sessions.
 */
function sortRuns(terms: readonly string[], out: Int32Array): void {
  const keys = new Float64Array(out.length);
  const before = new Int32Array(out.length);
  const runs: number[] = [0, out.length, 0];
  while (runs.length > 0) {
    const skip = runs.pop()!;
    const to = runs.pop()!;
    const from = runs.pop()!;
    const n = to - from;
    if (n <= 1) continue;
    if (n <= INSERTION_MAX) insertionSort(terms, out, from, to);
    else if (n >= INDEX_LIMIT || skip >= MAX_DEPTH_BYTES || !packKeys(terms, out, from, n, skip, keys)) comparatorSort(terms, out, from, to);
    else {
      keys.subarray(0, n).sort();
      before.set(out.subarray(from, to));
      placeGroups(out, from, n, keys, before, skip, runs);
    }
  }
}

/** keys[i] = the next 4 bytes of out[from + i]'s term × 2^21 + i; false at a lone surrogate. */
function packKeys(terms: readonly string[], out: Int32Array, from: number, n: number, skip: number, keys: Float64Array): boolean {
  for (let i = 0; i < n; i++) {
    const p = utf8Prefix(terms[out[from + i]!]!, skip);
    if (p < 0) return false;
    keys[i] = p * INDEX_LIMIT + i;
  }
  return true;
}

/** Writes the run in key order and pushes each group of equal 4 bytes as a run of its own. */
function placeGroups(out: Int32Array, from: number, n: number, keys: Float64Array, before: Int32Array, skip: number, runs: number[]): void {
  let i = 0;
  while (i < n) {
    const base = Math.floor(keys[i]! / INDEX_LIMIT) * INDEX_LIMIT;
    let j = i;
    while (j < n && keys[j]! - base < INDEX_LIMIT) {
      out[from + j] = before[keys[j]! - base]!;
      j++;
    }
    // A whole group padded with zeros here has ended: only one term can have (distinct terms).
    if (j - i > 1) runs.push(from + i, from + j, skip + 4);
    i = j;
  }
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
