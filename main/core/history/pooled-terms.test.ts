import { describe, expect, it } from 'vitest';
import { encodeUtf8, pooledTerm, pooledTerms } from './pooled-terms';
import { hashTerm } from './term-counter';

describe('pooled terms', () => {
  it('hold each term’s characters, hash, weight and mask', () => {
    const terms = ['alpha', 'é', '', '中文', '\ud83d\ude00x'];
    const p = pooledTerms(terms, [1, 2, 3, 4, 5], [1, 2, 4, 8, 16]);
    expect(p.size).toBe(5);
    expect(terms.map((_, i) => pooledTerm(p, i))).toEqual(terms);
    expect(Array.from(p.hashes)).toEqual(terms.map(hashTerm));
    expect(Array.from(p.starts)).toEqual([0, 5, 6, 6, 8, 11]);
    expect(Array.from(pooledTerms(['ab'], [1], [1], [42]).hashes)).toEqual([42]);
  });

  it('encode to the bytes TextEncoder writes, one term after another; -1 at a lone surrogate', () => {
    const enc = new TextEncoder();
    const texts = ['', 'abc', 'café', 'Ω', 'ж中文', '\u07ff\u0800\uffff', '\ud83d\ude00', 'a\ud800\udc00b\udbff\udfff', '\u0000\u007f\u0080'];
    const p = pooledTerms(texts, [], []);
    const out = new Uint8Array(3 * p.chars.length);
    let at = 0;
    texts.forEach((t, i) => {
      const end = encodeUtf8(p.chars, p.starts[i]!, p.starts[i + 1]!, out, at);
      expect(Array.from(out.subarray(at, end)), t).toEqual(Array.from(enc.encode(t)));
      at = end;
    });
    for (const lone of ['\ud83d', 'a\ude00', '\ud83dz', 'x\udbff']) {
      const q = pooledTerms([lone], [1], [1]);
      expect(encodeUtf8(q.chars, 0, lone.length, new Uint8Array(12), 0), lone).toBe(-1);
    }
  });
});
