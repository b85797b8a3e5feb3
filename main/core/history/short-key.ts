/**
 * A short word's key: the words the term counter sees most (2 to SHORT_TERM characters, all of them
 * a–z or 0–9) written as one number in base 37, each character a digit from 1 to 36 — exact in a
 * float64 (37^10 < 2^53) and different for every such word, so a table keyed by it finds a word
 * without comparing its characters (term-counter.ts).
 */

export const SHORT_TERM = 10;
export const KEY_BASE = 37;

/** A character's digit in a key: a–z 1–26, 0–9 27–36; 0 for any other code. */
export function keyDigit(c: number): number {
  return c >= 97 && c <= 122 ? c - 96 : c >= 48 && c <= 57 ? c - 48 + 27 : 0;
}

/** The key of a term of 2 to SHORT_TERM characters a–z and 0–9; 0 for any other term. */
export function shortKey(term: string): number {
  if (term.length < 2 || term.length > SHORT_TERM) return 0;
  let key = 0;
  for (let i = 0; i < term.length; i++) {
    const d = keyDigit(term.charCodeAt(i));
    if (d === 0) return 0;
    key = key * KEY_BASE + d;
  }
  return key;
}
