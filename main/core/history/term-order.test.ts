import { describe, expect, it } from 'vitest';
import { byteOrder, compareTerms, termOrder, utf8Prefix } from './term-order';

/** The reference: every pair compared as strings. */
const reference = (terms: readonly string[]) => terms.map((_, k) => k).sort((a, b) => compareTerms(terms[a]!, terms[b]!));

/** Deterministic pseudo-random terms from an alphabet (many shared prefixes, short and long). */
function randomTerms(count: number, alphabet: string[], seed: number): string[] {
  let x = seed;
  const next = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const out = new Set<string>();
  while (out.size < count) {
    const len = 1 + Math.floor(next() * (next() < 0.2 ? 12 : 6));
    let t = '';
    for (let i = 0; i < len; i++) t += alphabet[Math.floor(next() * alphabet.length)];
    out.add(t);
  }
  return [...out];
}

describe('termOrder', () => {
  it('orders like compareTerms: ASCII with many shared prefixes', () => {
    const terms = randomTerms(20_000, [...'abc019'], 1);
    expect(Array.from(termOrder(terms))).toEqual(reference(terms));
  });

  it('orders like compareTerms: accents, 2- and 3-byte characters, prefixes of each other', () => {
    const alphabet = [...'aéz', 'ß', 'ü', 'Ω', 'ж', '中', '\u00a0', '\uffef', '0'];
    const terms = [...randomTerms(5_000, alphabet, 7), 'a', 'aa', 'aaa', 'aaaa', 'aaaaa', 'é', 'éé', 'ééé', 'z', '中文', '中'];
    expect(Array.from(termOrder([...new Set(terms)]))).toEqual(reference([...new Set(terms)]));
  });

  it('orders characters above U+FFFF (surrogate pairs) after every BMP character, as compareTerms does', () => {
    const terms = ['a', '\ud83d\ude00', '\uffff', 'b', 'a\ud83d\ude00', 'a\uffff', '\ue000x', '\ud835\udc9c', '\ud83d\ude00\ud83d\ude01', '\ud83d\ude00a'];
    const order = Array.from(termOrder(terms));
    expect(order).toEqual(reference(terms));
    expect(terms[order.at(-1)!]).toBe('\ud83d\ude00\ud83d\ude01');
    const astral = randomTerms(3_000, ['a', 'é', '\uffee', '\ud83d\ude00', '\ud835\udc9c', '\ud800\udc00', '\udbff\udfff'], 3);
    expect(Array.from(termOrder(astral))).toEqual(reference(astral));
  });

  it('falls back to the comparator for a lone surrogate', () => {
    const terms = ['b', '\ud83dz', 'a', '\ude00', '\uffff'];
    expect(utf8Prefix('\ud83dz')).toBe(-1);
    expect(Array.from(termOrder(terms))).toEqual(reference(terms));
  });

  it('orders long shared prefixes (many 4-byte rounds, past the depth where it compares strings)', () => {
    const stem = 'x'.repeat(70);
    const terms = [...randomTerms(2_000, [...'ab'], 5).map((t) => stem + t), ...randomTerms(500, [...'aé中'], 6).map((t) => 'abcdefgh' + t), 'abcdefgh', 'abcdefg'];
    const unique = [...new Set(terms)];
    expect(Array.from(termOrder(unique))).toEqual(reference(unique));
  });

  it('handles an empty list and one term', () => {
    expect(Array.from(termOrder([]))).toEqual([]);
    expect(Array.from(termOrder(['x']))).toEqual([0]);
  });

  it('utf8Prefix: the first 4 UTF-8 bytes, zero-padded; -1 at a lone surrogate', () => {
    expect(utf8Prefix('abcdef')).toBe(0x61626364);
    expect(utf8Prefix('ab')).toBe(0x61620000);
    expect(utf8Prefix('é')).toBe(0xc3a90000);
    expect(utf8Prefix('a中')).toBe(0x61e4b8ad);
    expect(utf8Prefix('ab中')).toBe(0x6162e4b8); // cut inside the character
    expect(utf8Prefix('\ud83d\ude00')).toBe(0xf09f9880);
    expect(utf8Prefix('\ud83d')).toBe(-1);
    expect(utf8Prefix('abcd\ud83d\ude00')).toBe(0x61626364);
    expect(utf8Prefix('abcd\ud83d\ude00', 4)).toBe(0xf09f9880);
    expect(utf8Prefix('abcdef', 4)).toBe(0x65660000);
    expect(utf8Prefix('abc', 4)).toBe(0);
    expect(utf8Prefix('ab中x', 4)).toBe(0xad780000); // from inside the character
  });
});

/** termOrder's order found from the terms' UTF-8 bytes in one pool. */
function byteOrderOf(terms: readonly string[]): number[] {
  const enc = new TextEncoder();
  const parts = terms.map((t) => enc.encode(t));
  const starts = new Int32Array(terms.length + 1);
  parts.forEach((p, k) => (starts[k + 1] = starts[k]! + p.length));
  const bytes = new Uint8Array(starts[terms.length]!);
  parts.forEach((p, k) => bytes.set(p, starts[k]!));
  return Array.from(byteOrder(bytes, starts, terms.length));
}

describe('byteOrder', () => {
  it('orders a pool of UTF-8 terms as compareTerms orders the strings: ASCII, accents, 2-, 3- and 4-byte characters', () => {
    const ascii = randomTerms(20_000, [...'abc019'], 1);
    expect(byteOrderOf(ascii)).toEqual(reference(ascii));
    const mixed = [...new Set([...randomTerms(5_000, [...'aéz', 'ß', 'ü', 'Ω', 'ж', '中', '\u00a0', '\uffef', '0'], 7), 'a', 'aa', 'aaa', 'aaaa', 'aaaaa', 'é', 'éé', '中文', '中'])];
    expect(byteOrderOf(mixed)).toEqual(reference(mixed));
    const astral = randomTerms(3_000, ['a', 'é', '\uffee', '\ud83d\ude00', '\ud835\udc9c', '\ud800\udc00', '\udbff\udfff'], 3);
    expect(byteOrderOf(astral)).toEqual(reference(astral));
  });

  it('orders long shared prefixes (past the depth where it compares bytes one by one), an empty list, one term', () => {
    const stem = 'x'.repeat(70);
    const terms = [...new Set([...randomTerms(2_000, [...'ab'], 5).map((t) => stem + t), ...randomTerms(500, [...'aé中'], 6).map((t) => 'abcdefgh' + t), 'abcdefgh', 'abcdefg'])];
    expect(byteOrderOf(terms)).toEqual(reference(terms));
    expect(byteOrderOf([])).toEqual([]);
    expect(byteOrderOf(['x'])).toEqual([0]);
  });
});
