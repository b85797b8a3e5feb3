/**
 * Words for the full-text index and for queries: one function for both, so a query finds what
 * indexing stored. Lower-cased runs of letters and digits, accents removed (`café` = `cafe`);
 * punctuation, `_`, `/`, `.` and `-` separate words, so `read_text_file` and `src/a-b.ts` are found
 * by their parts. Runs shorter than 2 or longer than 40 characters (hashes, base64) are skipped.
 */

export const MIN_TERM = 2;
export const MAX_TERM = 40;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /\p{M}+/gu;

/** Text lower-cased with accents removed (the same length for precomposed accents). */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(MARKS, '') : lower;
}

/** A word as the index stores it: lower case, accents removed. */
export function foldTerm(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(MARKS, '') : lower;
}

/**
 * Calls `emit` for each term of `text`, in order. The hot path of indexing: ASCII (nearly all of
 * the text) is scanned by hand, character codes only; runs with other characters get the Unicode
 * rules (letters, digits and marks of any script, folded).
 */
export function forEachTerm(text: string, emit: (term: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    // Skip separators.
    while (i < n && !isWordCode(c)) c = text.charCodeAt(++i);
    if (i >= n) break;
    const start = i;
    let upper = false;
    let ascii = true;
    while (i < n && isWordCode(c)) {
      if (c >= 65 && c <= 90) upper = true;
      else if (c >= 0xaa) ascii = false;
      c = text.charCodeAt(++i);
    }
    if (ascii) {
      const len = i - start;
      if (len >= MIN_TERM && len <= MAX_TERM) {
        const w = text.slice(start, i);
        emit(upper ? w.toLowerCase() : w);
      }
      continue;
    }
    for (const part of text.slice(start, i).match(WORD) ?? []) {
      const t = foldTerm(part);
      if (t.length >= MIN_TERM && t.length <= MAX_TERM) emit(t);
    }
  }
}

/** ASCII letters and digits, and any character from U+00AA on (sorted out by the Unicode rules). */
function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c >= 0xaa;
}

export function terms(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (t) => out.push(t));
  return out;
}

/**
 * Where each term of `text` is, as [start, end) offsets into the original text (for highlighting).
 */
export function termSpans(text: string): Array<{ term: string; start: number; end: number }> {
  const out: Array<{ term: string; start: number; end: number }> = [];
  const re = /[\p{L}\p{N}\p{M}]+/gu;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const t = foldTerm(m[0]);
    if (t.length >= MIN_TERM && t.length <= MAX_TERM) out.push({ term: t, start: m.index, end: m.index + m[0].length });
  }
  return out;
}
