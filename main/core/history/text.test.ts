import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateSessions } from '../../../bench/generate-sessions';
import { DocTerms } from './doc-terms';
import { unifiedDiff } from './line-diff';
import { parseQuery } from './search';
import { hashTerm, TermCounter } from './term-counter';
import { termSpans, terms } from './tokenize';

describe('words', () => {
  it('are lower-cased runs of letters and digits, accents folded, 2 to 40 characters', () => {
    expect(terms('Fix read_text_file in src/a-b.ts (v2)!')).toEqual(['fix', 'read', 'text', 'file', 'in', 'src', 'ts', 'v2']);
    expect(terms('Café NAÏVE über — 日本語 x')).toEqual(['cafe', 'naive', 'uber', '日本語']);
    expect(terms(`${'a'.repeat(40)} ${'b'.repeat(41)}`)).toEqual(['a'.repeat(40)]);
  });

  it('keep their place in the original text for highlighting', () => {
    const text = 'The Café — opened';
    expect(termSpans(text).map((s) => [s.term, text.slice(s.start, s.end)])).toEqual([
      ['the', 'The'],
      ['cafe', 'Café'],
      ['opened', 'opened'],
    ]);
  });

  it('make queries the same way, with * for prefixes', () => {
    expect(parseQuery('Flaky read_text* flaky')).toEqual([
      { term: 'flaky', prefix: false },
      { term: 'read', prefix: false },
      { term: 'text', prefix: true },
    ]);
    expect(parseQuery('hello wor', true)).toEqual([
      { term: 'hello', prefix: false },
      { term: 'wor', prefix: true },
    ]);
    expect(parseQuery('a  !')).toEqual([]);
  });
});

describe('a document’s words', () => {
  it('join streamed pieces of one message and keep the unfinished word for the next pass', () => {
    const d = new DocTerms();
    d.chunk('agent', 'agent:m1', 'The hippo');
    d.chunk('agent', 'agent:m1', 'potamus sw');
    const carry = d.finish(false);
    expect(carry).toEqual({ agent: { stream: 'agent:m1', text: 'sw' } });
    expect([...d.terms.keys()]).toEqual(['the', 'hippopotamus', 'sw']);
    const next = new DocTerms(carry);
    next.chunk('agent', 'agent:m1', 'ims.');
    next.finish(true);
    expect([...next.terms.keys()]).toEqual(['swims']);
  });

  it('count words by where they are', () => {
    const d = new DocTerms();
    d.add('prompt', 'cat');
    d.add('tool', 'cat cat');
    expect(d.terms.get('cat')).toEqual([4 + 1 + 1, 1 | 8]);
    expect(d.length).toBe(3);
  });
});

describe('the term counter', () => {
  it('cuts words exactly as tokenize.ts does, and counts each once with its weight and fields', () => {
    const texts = [
      'Hello HELLO hello, read_text_file src/a-b.ts café CAFÉ naïve Ünïcödé 東京 x y zz',
      'a'.repeat(40) + ' ' + 'b'.repeat(41) + ' tail',
      'ÀB àb Straße STRASSE ǅemal ﬁle ﬀ 123 4567 e\u0301 ⅷ',
      // Letters whose fold keeps capitals (ℍ folds to H, 𝐀 to A): one entry each, however often they occur.
      'ℍℍ ℍℍ ℍℍ 𝐀𝐁𝐂 𝐀𝐁𝐂 ℍℍ',
      '',
      '!!! --- ...',
    ];
    const counter = new TermCounter();
    const expected = new Map<string, [number, number]>();
    let words = 0;
    texts.forEach((text, k) => {
      const weight = k + 1;
      const bit = 1 << k;
      counter.add(text, weight, bit);
      for (const t of terms(text)) {
        const v = expected.get(t) ?? [0, 0];
        expected.set(t, [v[0] + weight, v[1] | bit]);
        words++;
      }
    });
    expect(counter.terms).toEqual([...expected.keys()]);
    expect(counter.terms.map((t) => counter.get(t))).toEqual([...expected.values()]);
    expect(counter.words).toBe(words);
    expect(counter.get('nothere')).toBeUndefined();
  });

  it('agrees with tokenize.ts on every trace fixture and on generated sessions (any text: JSON, escapes, all sizes)', () => {
    const fixtures = resolve(__dirname, '../../../e2e/fixtures/traces');
    const generated = mkdtempSync(join(tmpdir(), 'acpwb-term-counter-'));
    try {
      generateSessions({ dir: generated, count: 12, seed: 5, sizeScale: 0.2 });
      const files = [...readdirSync(fixtures).map((f) => join(fixtures, f)), ...readdirSync(generated).map((f) => join(generated, f))];
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        // The whole file, then line by line into one counter (a term at the very end of a text too).
        for (const pieces of [[text], text.split('\n'), text.split('"')]) {
          const counter = new TermCounter();
          const expected = new Map<string, [number, number]>();
          let words = 0;
          pieces.forEach((piece, k) => {
            const weight = (k % 4) + 1;
            const bit = 1 << k % 5;
            counter.add(piece, weight, bit);
            for (const t of terms(piece)) {
              const v = expected.get(t) ?? [0, 0];
              expected.set(t, [v[0] + weight, v[1] | bit]);
              words++;
            }
          });
          expect(counter.terms, file).toEqual([...expected.keys()]);
          expect(Array.from(counter.weights), file).toEqual([...expected.values()].map((v) => v[0]));
          expect(Array.from(counter.masks), file).toEqual([...expected.values()].map((v) => v[1]));
          expect(counter.words, file).toBe(words);
        }
      }
    } finally {
      rmSync(generated, { recursive: true, force: true });
    }
  });

  it('finds a word by its short key up to 10 characters and by its characters beyond, in one first-seen order, with the hash a segment uses', () => {
    // 10 and 11 characters either side of SHORT_TERM; upper case; accents folded to an ASCII word
    // (café → cafe, which the ASCII path keys).
    const texts = [
      'QUICK Quick quick abcdefghij ABCDEFGHIJ abcdefghijk ABCDEFGHIJK zz 0123456789 01234567890 z9',
      'Café cafe CAFE hh HH naïve NAIVE Ǆx dzx 日本 ab',
      `${'q'.repeat(40)} ${'Q'.repeat(40)} ${'q'.repeat(41)} 9z Z9`,
    ];
    const counter = new TermCounter();
    const expected = new Map<string, [number, number]>();
    texts.forEach((text, k) => {
      counter.add(text, k + 1, 1 << k);
      for (const t of terms(text)) {
        const v = expected.get(t) ?? [0, 0];
        expected.set(t, [v[0] + k + 1, v[1] | (1 << k)]);
      }
    });
    expect(counter.terms).toEqual([...expected.keys()]);
    expect(counter.terms.map((t) => counter.get(t))).toEqual([...expected.values()]);
    expect(Array.from(counter.hashes)).toEqual(counter.terms.map(hashTerm));
    expect(counter.get('ABCDEFGHIJ')).toBeUndefined();
    expect(counter.get('abcdefghi')).toBeUndefined();
  });

  it('keeps every word apart when there are many (the table grows)', () => {
    const counter = new TermCounter();
    const text = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    counter.add(text, 1, 1);
    counter.add(text.toUpperCase(), 2, 2);
    expect(counter.size).toBe(5000);
    expect(counter.get('w3e7')).toEqual([3, 3]);
  });
});

describe('unified diffs', () => {
  it('show changed lines with context in hunks', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n');
    const after = ['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].join('\n');
    expect(unifiedDiff(before, after)).toBe(['@@ -1,5 +1,5 @@', ' a', '-b', '+B', ' c', ' d', ' e', '@@ -8,3 +8,4 @@', ' h', ' i', ' j', '+k'].join('\n'));
    expect(unifiedDiff(null, 'x\ny\n')).toBe(['@@ -0,0 +1,2 @@', '+x', '+y'].join('\n'));
    expect(unifiedDiff('same\n', 'same\n')).toBe('');
  });

  it('diff files of any size, unlike the transcript, and show a whole deleted file', () => {
    const lines = Array.from({ length: 8000 }, (_, i) => `line ${i + 1}`);
    const after = [...lines];
    after[6999] = 'changed';
    expect(unifiedDiff(lines.join('\n'), after.join('\n'))).toBe(['@@ -6997,7 +6997,7 @@', ' line 6997', ' line 6998', ' line 6999', '-line 7000', '+changed', ' line 7001', ' line 7002', ' line 7003'].join('\n'));
    expect(unifiedDiff('x\ny\n', '')).toBe(['@@ -1,2 +0,0 @@', '-x', '-y'].join('\n'));
  });
});
