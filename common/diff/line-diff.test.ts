import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editScript, hunkHeader, lineDiff, MAX_DIFF_LINES, splitLines } from './line-diff';

function apply(a: number[], b: number[], ops: number[]): { fromA: number[]; fromB: number[] } {
  // Replays an edit script: keeps+deletes rebuild a, keeps+inserts rebuild b.
  const fromA: number[] = [];
  const fromB: number[] = [];
  let i = 0;
  let j = 0;
  for (const op of ops) {
    if (op === 0) {
      expect(a[i]).toBe(b[j]);
      fromA.push(a[i++]!);
      fromB.push(b[j++]!);
    } else if (op === 1) fromA.push(a[i++]!);
    else fromB.push(b[j++]!);
  }
  return { fromA, fromB };
}

/** LCS length by dynamic programming, to check Myers finds a minimal script. */
function lcs(a: number[], b: number[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return dp[a.length]![b.length]!;
}

describe('line diff', () => {
  it('finds a valid, minimal edit script (property)', () => {
    const seq = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 30 });
    fc.assert(
      fc.property(seq, seq, (a, b) => {
        const ops = editScript(a, b);
        const { fromA, fromB } = apply(a, b, ops);
        expect(fromA).toEqual(a);
        expect(fromB).toEqual(b);
        expect(ops.filter((o) => o === 0).length).toBe(lcs(a, b));
      }),
      { numRuns: 300 },
    );
  });

  it('falls back to remove-all/add-all past the edit-distance cap, still valid', () => {
    const a = [1, 2, 3, 4, 5, 6];
    const b = [7, 8, 9, 10, 11, 12];
    const ops = editScript(a, b, 2);
    const { fromA, fromB } = apply(a, b, ops);
    expect(fromA).toEqual(a);
    expect(fromB).toEqual(b);
  });

  it('gives a rewrite with no line in common as every deletion then every insertion, around the common ends', () => {
    expect(editScript([9, 1, 2, 8], [9, 3, 4, 5, 8])).toEqual([0, 1, 1, 2, 2, 2, 0]);
    // Far past the edit-distance cap: the same shape, in time linear in the lines.
    const a = Array.from({ length: 2400 }, (_, i) => i);
    const b = Array.from({ length: 2400 }, (_, i) => 10_000 + i);
    expect(editScript(a, b)).toEqual([...a.map(() => 1), ...b.map(() => 2)]);
    const d = lineDiff('a\nb\nc', 'x\ny');
    expect(d.kind === 'diff' && d.hunks[0]!.lines.map((l) => `${l.kind}:${l.text}`)).toEqual(['del:a', 'del:b', 'del:c', 'add:x', 'add:y']);
  });

  it('builds unified hunks with 3 lines of context and correct headers', () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const neu = [...old];
    neu[1] = 'changed 2';
    neu.splice(15, 1);
    const d = lineDiff(old.join('\n') + '\n', neu.join('\n') + '\n');
    expect(d.kind).toBe('diff');
    if (d.kind !== 'diff') return;
    expect(d.added).toBe(1);
    expect(d.removed).toBe(2);
    expect(d.hunks.map(hunkHeader)).toEqual(['@@ -1,5 +1,5 @@', '@@ -13,7 +13,6 @@']);
    expect(d.hunks[0]!.lines.map((l) => `${l.kind[0]}${l.text}`)).toEqual(['cline 1', 'dline 2', 'achanged 2', 'cline 3', 'cline 4', 'cline 5']);
  });

  it('merges changes closer than twice the context into one hunk', () => {
    const old = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const d = lineDiff(old, old.replace('b', 'B').replace('g', 'G'));
    expect(d.kind === 'diff' && d.hunks.length).toBe(1);
  });

  it('shows a new file as all additions', () => {
    const d = lineDiff(null, 'x\ny\n');
    expect(d).toMatchObject({ kind: 'diff', added: 2, removed: 0, newFile: true });
    if (d.kind === 'diff') expect(hunkHeader(d.hunks[0]!)).toBe('@@ -0,0 +1,2 @@');
  });

  it('says identical and too large', () => {
    expect(lineDiff('a\n', 'a\n')).toEqual({ kind: 'identical' });
    const big = 'x\n'.repeat(MAX_DIFF_LINES);
    expect(lineDiff(big, big + 'y')).toMatchObject({ kind: 'too-large' });
  });

  it('diffs a big file with scattered edits line by line (speed is for benchmarks, not tests)', () => {
    const old = Array.from({ length: 2400 }, (_, i) => `const v${i} = ${i};`);
    const neu = old.map((l, i) => (i % 97 === 0 ? `${l} // edited` : l));
    const d = lineDiff(old.join('\n'), neu.join('\n'));
    expect(d.kind === 'diff' && d.added).toBe(25);
  });

  it('splits lines without a phantom last line and drops CR', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
  });
});
