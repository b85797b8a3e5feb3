import { describe, expect, it } from 'vitest';
import { SHORT_TERM, shortKey } from './short-key';

describe('short keys', () => {
  it('are exact: one key per word of 2 to 10 characters a–z, 0–9, and different words never share one', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const words = new Set<string>();
    // Every word of 2 characters, and words of every length up to SHORT_TERM built from both ends
    // of the alphabet (the largest digits: the keys nearest 2^53).
    for (const a of alphabet) for (const b of alphabet) words.add(a + b);
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
    for (let n = 0; n < 20_000; n++) {
      const len = 2 + Math.floor(rnd() * (SHORT_TERM - 1));
      let w = '';
      for (let i = 0; i < len; i++) w += alphabet[rnd() < 0.5 ? Math.floor(rnd() * 3) : alphabet.length - 1 - Math.floor(rnd() * 3)];
      words.add(w);
    }
    words.add('9'.repeat(SHORT_TERM));
    words.add('a'.repeat(SHORT_TERM));
    const keys = new Map<number, string>();
    for (const w of words) {
      const key = shortKey(w);
      expect(Number.isSafeInteger(key) && key > 0, w).toBe(true);
      expect(keys.get(key), w).toBeUndefined();
      keys.set(key, w);
    }
    expect(shortKey('a0')).toBe(shortKey('a0'));
  });

  it('are 0 for any other term: too short or too long, upper case, other characters', () => {
    for (const t of ['', 'a', 'a'.repeat(SHORT_TERM + 1), 'Ab', 'HH', 'a_b', 'a-b', 'café', '日本', 'a b']) expect(shortKey(t), t).toBe(0);
  });
});
