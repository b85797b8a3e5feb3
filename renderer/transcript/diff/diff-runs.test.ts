import { describe, expect, it } from 'vitest';
import { diffPreview, PREVIEW_ROWS } from '../../../common/diff/collapsed-diff';
import { diffRuns } from './diff-runs';
import { lineDiff, type Hunk } from '../../../common/diff/line-diff';

function hunksOf(oldText: string, newText: string): Hunk[] {
  const d = lineDiff(oldText, newText);
  if (d.kind !== 'diff') throw new Error(`expected a diff, got ${d.kind}`);
  return d.hunks;
}
const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `line ${i + 1} ${tag}`);
const text = (ls: string[]) => `${ls.join('\n')}\n`;

describe('diffRuns', () => {
  it('makes a rewrite preview two runs: its header and its removed lines', () => {
    const preview = diffPreview(hunksOf(text(lines(100, 'old')), text(lines(100, 'new'))), false);
    const runs = diffRuns(preview, 3);
    const shown = PREVIEW_ROWS - 1; // the header is a row too
    expect(runs.map((r) => [r.kind, r.rows])).toEqual([
      ['hunk', 1],
      ['del', shown],
    ]);
    expect(runs[0]!.code).toBe('@@ -1,100 +1,100 @@');
    const del = runs[1]!;
    expect(del.code.split('\n')).toEqual(lines(shown, 'old'));
    expect(del.signs.split('\n')).toEqual(new Array(shown).fill('-'));
    expect(del.numbers.split('\n').slice(0, 2)).toEqual(['  1     ', '  2     ']);
    expect(del.numbers.split('\n')[10]).toBe(' 11     ');
  });

  it('keeps every row, in order, with a run per change of kind', () => {
    const a = lines(10, 'same');
    const b = [...a];
    b[3] = 'changed 4';
    b.splice(7, 0, 'inserted');
    const preview = diffPreview(hunksOf(text(a), text(b)), true);
    const runs = diffRuns(preview, 3);
    const kinds = runs.map((r) => r.kind);
    // No two neighbouring runs of one kind.
    for (let i = 1; i < kinds.length; i++) expect(kinds[i]).not.toBe(kinds[i - 1]);
    // The rows of the runs are the preview's rows: one header per hunk plus its lines.
    const rows = preview.hunks.reduce((n, h) => n + 1 + h.lines, 0);
    expect(runs.reduce((n, r) => n + r.rows, 0)).toBe(rows);
    for (const r of runs) {
      expect(r.numbers.split('\n')).toHaveLength(r.rows);
      expect(r.signs.split('\n')).toHaveLength(r.rows);
      expect(r.code.split('\n')).toHaveLength(r.rows);
    }
    const del = runs.find((r) => r.kind === 'del')!;
    expect(del.code).toBe('line 4 same');
    expect(del.numbers).toBe('  4     ');
    const adds = runs.filter((r) => r.kind === 'add').map((r) => [r.code, r.numbers, r.signs]);
    expect(adds).toEqual([
      ['changed 4', '       4', '+'],
      ['inserted', '       8', '+'],
    ]);
  });

  it('pads numbers to the width given and keeps empty lines as rows', () => {
    const preview = diffPreview(hunksOf('', 'a\n\nb\n'), false);
    const [header, added] = diffRuns(preview, 4);
    expect(header!.numbers).toBe(' '.repeat(10));
    expect(added!.rows).toBe(3);
    expect(added!.code).toBe('a\n\nb');
    expect(added!.numbers.split('\n')).toEqual(['         1', '         2', '         3']);
  });
});
