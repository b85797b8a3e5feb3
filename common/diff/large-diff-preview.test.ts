import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { DiffContent, DiffPreviewContent } from '../transcript/acp-types';
import { diffPreview } from './collapsed-diff';
import { generalView, isDiffPreview, isLargeDiff, LARGE_DIFF_CHARS, oneBlockView, previewOfDiff, textsMatchPreview } from './large-diff-preview';
import { lineDiff } from './line-diff';

/** Texts of lines from a small alphabet (so that old and new share lines), with or without a final newline or `\r`. */
const text = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'gg', 'h h', '', 'abcd-1-wxyz', 'abcd-2-wxyz', 'abcd-3-wxyz', 'abcd-12-wxyz'), { maxLength: 60 }), fc.boolean(), fc.boolean())
  .map(([lines, finalNewline, crlf]) => lines.join(crlf ? '\r\n' : '\n') + (finalNewline && lines.length > 0 ? '\n' : ''));
/** A pair that often differs in one block: a common head and tail around two middles. */
const pair = fc.oneof(
  fc.tuple(fc.option(text, { nil: undefined }), text),
  fc.tuple(text, text, text, text).map(([head, midA, midB, tail]) => [`${head}\n${midA}\n${tail}`, `${head}\n${midB}\n${tail}`] as [string, string]),
  fc.tuple(fc.constantFrom<null | undefined>(null, undefined), text),
);

describe('the preview of a large diff', () => {
  it('is, field for field, the collapsed view of lineDiff (the one-block path included)', () => {
    let oneBlock = 0;
    fc.assert(
      fc.property(pair, ([oldText, newText]) => {
        const general = generalView(oldText, newText);
        const fast = oneBlockView(oldText, newText);
        if (fast) {
          oneBlock++;
          expect(fast).toEqual(general);
        }
        // What InlineDiff shows of the full diff, collapsed: the same hunks, rows and counts.
        const full = lineDiff(oldText, newText);
        expect(general.kind).toBe(full.kind);
        if (full.kind === 'diff' && general.kind === 'diff') {
          const rows = diffPreview(full.hunks, false);
          expect(general.rows.shown).toBe(rows.shown);
          expect(general.rows.total).toBe(rows.total);
          expect(general.rows.collapsible).toBe(rows.collapsible);
          expect(general.rows.hunks.map((h) => ({ ...h.hunk, lines: h.hunk.lines.slice(0, h.lines) }))).toEqual(rows.hunks.map((h) => ({ ...h.hunk, lines: h.hunk.lines.slice(0, h.lines) })));
          expect(general.rows.hunks.every((h) => h.hunk.lines.length === h.lines)).toBe(true); // cut to what is shown
          expect([general.added, general.removed, general.newFile]).toEqual([full.added, full.removed, full.newFile]);
        }
      }),
      { numRuns: 3000 },
    );
    expect(oneBlock).toBeGreaterThan(500); // the fast path was exercised
  });

  it('takes lines alike at both ends for what they are (a rewrite of such lines, and one sharing a line)', () => {
    // Every line the same length, first and last four characters: the fingerprints all collide.
    const alike = (letters: string) => [...letters].map((c) => `abcd-${c}-wxyz`).join('\n');
    const cases: Array<[string, string]> = [
      [alike('abcdefghijklmnopqrstuvwxy'), alike('ABCDEFGHIJKLMNOPQRSTUVWXY')],
      [alike('abcdefghijklmnopqrstuvwxy'), alike('ABCDEFGHIJKLMNOPQRSTUVWXm')],
      [alike('abc'), alike('ABa')],
    ];
    for (const [oldText, newText] of cases) {
      const fast = oneBlockView(oldText, newText);
      if (fast) expect(fast).toEqual(generalView(oldText, newText));
      expect(fast === null).toBe(newText.includes('m') || newText.endsWith('-a-wxyz'));
    }
  });

  it('tells a rewrite from one sharing a single line, among hundreds (the fingerprints\' bits, the scratch arrays reused and grown)', () => {
    // Distinct code-like lines; `share` puts one old line (any, even one whose bit another line set)
    // among the new ones. Heads and tails differ, so the whole text is the block.
    const line = (n: number, v: number) => `export function step${n}_${v}(input: number): number { return input * ${n + 1} + ${v}; }`;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 1, max: 700 }), fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }), (countA, countB, share) => {
        const oldLines = Array.from({ length: countA }, (_, n) => line(n, 1));
        const newLines = Array.from({ length: countB }, (_, n) => line(n, 2));
        if (share) newLines[share[1] % countB] = oldLines[share[0] % countA]!;
        const oldText = ['// old', ...oldLines, '} // old'].join('\n');
        const newText = ['// new', ...newLines, '} // new'].join('\n');
        const fast = oneBlockView(oldText, newText);
        expect(fast === null).toBe(share !== undefined);
        if (fast) expect(fast).toEqual(generalView(oldText, newText));
      }),
      { numRuns: 300 },
    );
  });

  it('of a rewrite holds the first rows only, and far fewer bytes than the texts', () => {
    const side = (tag: string) => Array.from({ length: 300 }, (_, i) => `export const ${tag}${i} = ${i};`).join('\n');
    const d: DiffContent = { type: 'diff', path: '/p/a.ts', oldText: side('a'), newText: side('b') };
    expect(isLargeDiff(d)).toBe(true);
    const p = previewOfDiff(d);
    expect(p).toMatchObject({ type: 'diff_preview', path: '/p/a.ts', old: 'text', oldLength: d.oldText!.length, newLength: d.newText.length });
    expect(p.view).toMatchObject({ kind: 'diff', added: 300, removed: 300, newFile: false });
    if (p.view.kind !== 'diff') throw new Error('expected a diff');
    expect(p.view.rows).toMatchObject({ shown: 11, total: 600, collapsible: true });
    expect(p.view.rows.hunks[0]!.hunk).toMatchObject({ oldStart: 1, oldLines: 300, newStart: 1, newLines: 300 });
    expect(JSON.stringify(p).length).toBeLessThan(1500);
    expect(isDiffPreview(p)).toBe(true);
  });

  it('keeps nothing of the texts alive: its rows are strings of their own, not cuts that hold the whole text', () => {
    // V8 makes `text.slice(a, b)` of 13 characters or more a view that keeps all of `text` (issue
    // #11, eighteenth pass). The preview of a rewrite shows rows of the old text: 200 previews of
    // rows cut so would keep ≈ 20 MiB of texts (measured: 21 MB; 0.2 MB with rows of their own).
    const gc = exposedGc();
    if (!gc) return; // no way to force a collection here: the equality tests above still stand
    const side = (k: number, tag: string) => Array.from({ length: 2000 }, (_, i) => `export const ${tag}${k}_${i} = ${i} * ${k};`).join('\n');
    const previews: DiffPreviewContent[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    // Rewrites (rows cut by `TextLines`) and, every other one, two edits far apart (`lineDiff`'s own lines).
    const edited = (text: string) => text.replace('= 100 *', '= -100 *').replace('= 1900 *', '= -1900 *');
    for (let k = 0; k < 200; k++) {
      const oldText = side(k, 'a');
      previews.push(previewOfDiff({ type: 'diff', path: `/p/${k}.ts`, oldText, newText: k % 2 ? edited(oldText) : side(k, 'b') }));
    }
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    expect(previews.every((p, k) => p.view.kind === 'diff' && p.view.added === (k % 2 ? 2 : 2000) && p.view.rows.shown === (k % 2 ? 10 : 11))).toBe(true);
    expect(kept).toBeLessThan(3 * 2 ** 20); // the previews themselves: a few KiB each
  });

  it('says what the old side was: a text, null or absent', () => {
    const big = 'x\n'.repeat(LARGE_DIFF_CHARS);
    expect(previewOfDiff({ type: 'diff', path: 'a', oldText: null, newText: big }).old).toBe('null');
    expect(previewOfDiff({ type: 'diff', path: 'a', newText: big }).old).toBe('absent');
    expect(previewOfDiff({ type: 'diff', path: 'a', oldText: '', newText: big }).old).toBe('text');
  });
});

describe('isLargeDiff', () => {
  it('counts both texts against LARGE_DIFF_CHARS', () => {
    const half = 'x'.repeat(LARGE_DIFF_CHARS / 2);
    expect(isLargeDiff({ type: 'diff', path: 'a', oldText: half, newText: half })).toBe(false);
    expect(isLargeDiff({ type: 'diff', path: 'a', oldText: half, newText: `${half}y` })).toBe(true);
    expect(isLargeDiff({ type: 'diff', path: 'a', oldText: null, newText: `${half}${half}y` })).toBe(true);
  });

  it('leaves what is not a well-formed diff alone', () => {
    const big = 'x'.repeat(LARGE_DIFF_CHARS + 1);
    expect(isLargeDiff({ type: 'content', content: { type: 'text', text: big } })).toBe(false);
    expect(isLargeDiff({ type: 'diff', path: 'a', oldText: 5 as unknown as string, newText: big })).toBe(false);
    expect(isLargeDiff({ type: 'diff', path: 7 as unknown as string, newText: big })).toBe(false);
    expect(isLargeDiff({ type: 'diff', path: 'a', newText: { big } as unknown as string })).toBe(false);
  });
});

describe('textsMatchPreview and isDiffPreview', () => {
  const d: DiffContent = { type: 'diff', path: 'a', oldText: 'o'.repeat(5000), newText: 'n'.repeat(5000) };
  const p = previewOfDiff(d);
  it('take only the texts the preview was made of', () => {
    expect(textsMatchPreview(p, d)).toBe(true);
    expect(textsMatchPreview(p, { ...d, newText: `${d.newText}!` })).toBe(false);
    expect(textsMatchPreview(p, { ...d, path: 'b' })).toBe(false);
    expect(textsMatchPreview(p, { ...d, oldText: null })).toBe(false);
  });
  it('reject shapes the core does not make', () => {
    expect(isDiffPreview({ ...p, view: null } as unknown as DiffPreviewContent)).toBe(false);
    expect(isDiffPreview({ ...p, view: { kind: 'diff', rows: {} } } as unknown as DiffPreviewContent)).toBe(false);
    expect(isDiffPreview({ ...p, oldLength: '1' } as unknown as DiffPreviewContent)).toBe(false);
    expect(isDiffPreview(d)).toBe(false);
  });
});

function exposedGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}
