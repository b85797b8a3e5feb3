import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLines } from './line-diff';
import { TextLines } from './text-lines';

/** Texts made of the pieces that matter to splitting: newlines, `\r` alone and before `\n`, empty lines, lines alike at both ends. */
const text = fc
  .array(fc.constantFrom('\n', '\r', '\r\n', '\n\n', 'a', 'bb', 'abcd-1-wxyz', 'abcd-2-wxyz', 'abcd-12-wxyz', 'é', '😀', ' '), { maxLength: 40 })
  .map((pieces) => pieces.join(''));

const linesOf = (t: TextLines): string[] => Array.from({ length: t.count }, (_, i) => t.line(i));

describe('TextLines', () => {
  it('has the lines splitLines makes, for any text', () => {
    fc.assert(
      fc.property(fc.option(text, { nil: undefined }), (t) => {
        expect(linesOf(TextLines.of(t))).toEqual(splitLines(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('has no lines for null, undefined and the empty text, and keeps an empty last line before a final newline', () => {
    for (const t of [null, undefined, '']) expect(TextLines.of(t).count).toBe(0);
    expect(linesOf(TextLines.of('\n'))).toEqual(['']);
    expect(linesOf(TextLines.of('a\n\n'))).toEqual(['a', '']);
    expect(linesOf(TextLines.of('a\r\r\nb\r'))).toEqual(['a\r', 'b']);
    expect(linesOf(TextLines.of('\r'))).toEqual(['']);
  });

  it('tells two lines the same exactly when their texts are', () => {
    fc.assert(
      fc.property(text, text, (x, y) => {
        const a = TextLines.of(x);
        const b = TextLines.of(y);
        for (let i = 0; i < a.count; i++) {
          for (let j = 0; j < b.count; j++) expect(a.same(i, b, j)).toBe(a.line(i) === b.line(j));
        }
      }),
      { numRuns: 1000 },
    );
    // Same length, same first and last character: only the middle tells them apart.
    const a = TextLines.of('abcd-1-wxyz\nabcd-1-wxyz');
    const b = TextLines.of('abcd-2-wxyz\nabcd-1-wxyz');
    expect([a.same(0, b, 0), a.same(1, b, 1), a.same(0, a, 1)]).toEqual([false, true, true]);
  });

  it('gives equal lines equal fingerprints', () => {
    fc.assert(
      fc.property(text, text, (x, y) => {
        const a = TextLines.of(x);
        const b = TextLines.of(y);
        for (let i = 0; i < a.count; i++) {
          for (let j = 0; j < b.count; j++) if (a.line(i) === b.line(j)) expect(a.fingerprint(i)).toBe(b.fingerprint(j));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
