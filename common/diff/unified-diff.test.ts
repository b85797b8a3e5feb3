import { describe, expect, it } from 'vitest';
import { splitLines, unifiedDiff } from './unified-diff';

const render = (d: ReturnType<typeof unifiedDiff>) => d.lines.map((l) => (l.kind === '@' ? l.text : `${l.kind}${l.text}`));

describe('the plain unified diff', () => {
  it('shows a one-line change with its context and hunk header', () => {
    const d = unifiedDiff('a\nb\nc\n', 'a\nB\nc\n');
    expect(render(d)).toEqual(['@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c']);
    expect(d).toMatchObject({ added: 1, removed: 1, omitted: 0 });
  });

  it('treats null / undefined old text as a new file', () => {
    expect(render(unifiedDiff(null, 'x\ny\n'))).toEqual(['@@ -0,0 +1,2 @@', '+x', '+y']);
    expect(render(unifiedDiff(undefined, 'x'))).toEqual(['@@ -0,0 +1,1 @@', '+x']);
  });

  it('shows nothing for equal texts and everything removed for an emptied file', () => {
    expect(unifiedDiff('a\n', 'a\n').lines).toEqual([]);
    expect(render(unifiedDiff('a\nb\n', ''))).toEqual(['@@ -1,2 +0,0 @@', '-a', '-b']);
  });

  it('splits distant changes into separate hunks with correct line numbers', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const next = old.replace('l2\n', 'L2\n').replace('l18\n', 'l18\nnew\n');
    const d = unifiedDiff(old, next, { context: 1 });
    expect(render(d)).toEqual(['@@ -1,3 +1,3 @@', ' l1', '-l2', '+L2', ' l3', '@@ -18,2 +18,3 @@', ' l18', '+new', ' l19']);
    const added = d.lines.find((l) => l.kind === '+' && l.text === 'new');
    expect(added?.newNo).toBe(19);
  });

  it('falls back to one replaced block when the middle is too big for an LCS', () => {
    const d = unifiedDiff('a\nx\nb\n', 'a\ny\nx\nz\nb\n', { maxLcsCells: 1 });
    expect(render(d)).toEqual(['@@ -1,3 +1,5 @@', ' a', '-x', '+y', '+x', '+z', ' b']);
    const lcs = unifiedDiff('a\nx\nb\n', 'a\ny\nx\nz\nb\n');
    expect(render(lcs)).toEqual(['@@ -1,3 +1,5 @@', ' a', '+y', ' x', '+z', ' b']);
  });

  it('caps the lines returned and counts the rest', () => {
    const d = unifiedDiff('', 'a\n'.repeat(100), { maxLines: 10 });
    expect(d.lines).toHaveLength(10);
    expect(d.omitted).toBe(91);
    expect(d.added).toBe(100);
  });

  it('handles a 60,000-line file with one change (prefix/suffix trimming)', () => {
    const old = Array.from({ length: 60_000 }, (_, i) => `line ${i}`).join('\n');
    const next = old.replace('line 30000', 'changed');
    const d = unifiedDiff(old, next);
    expect(d).toMatchObject({ added: 1, removed: 1 });
  });

  it('splits lines without a phantom last line', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\n')).toEqual(['a']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });
});
