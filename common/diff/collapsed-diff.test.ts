import { describe, expect, it } from 'vitest';
import { diffPreview, PREVIEW_ROWS, WHOLE_UP_TO } from './collapsed-diff';
import { lineDiff, type Hunk } from './line-diff';

const numbered = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `line ${i + 1} ${tag}`).join('\n') + '\n';
function hunksOf(oldText: string, newText: string): Hunk[] {
  const d = lineDiff(oldText, newText);
  if (d.kind !== 'diff') throw new Error(`expected a diff, got ${d.kind}`);
  return d.hunks;
}
const rows = (p: ReturnType<typeof diffPreview>) => p.hunks.reduce((n, h) => n + h.lines + 1, 0);

describe('diffPreview', () => {
  it('shows a short diff whole, with no toggle', () => {
    const hunks = hunksOf('a\nb\n', 'a\nB\n');
    const p = diffPreview(hunks, false);
    expect(p.collapsible).toBe(false);
    expect(p.shown).toBe(p.total);
    expect(p.hunks).toHaveLength(1);
  });

  it('shows a diff of exactly WHOLE_UP_TO rows whole, and collapses one row more', () => {
    // A new file of n lines is one hunk of n lines: n + 1 rows.
    expect(diffPreview(hunksOf('', numbered(WHOLE_UP_TO - 1, 'x')), false).collapsible).toBe(false);
    const longer = diffPreview(hunksOf('', numbered(WHOLE_UP_TO, 'x')), false);
    expect(longer.collapsible).toBe(true);
    expect(longer.shown).toBe(PREVIEW_ROWS - 1);
    expect(longer.total).toBe(WHOLE_UP_TO);
  });

  it('collapses a long replacement to its first rows and expands to every line', () => {
    const hunks = hunksOf(numbered(90, 'old'), numbered(90, 'new'));
    const collapsed = diffPreview(hunks, false);
    expect(collapsed.total).toBe(180);
    expect(rows(collapsed)).toBe(PREVIEW_ROWS);
    const expanded = diffPreview(hunks, true);
    expect(expanded.shown).toBe(180);
    expect(expanded.hunks.map((h) => h.lines)).toEqual(hunks.map((h) => h.lines.length));
  });

  it('never leaves a hunk header without a line under it', () => {
    // Changes every 10 lines: many hunks of 7 lines (3 context, 1 change, 3 context).
    const old = Array.from({ length: 400 }, (_, i) => `l${i}`);
    const changed = old.map((l, i) => (i % 10 === 5 ? `${l} changed` : l));
    const hunks = hunksOf(old.join('\n'), changed.join('\n'));
    expect(hunks.length).toBeGreaterThan(10);
    const p = diffPreview(hunks, false);
    expect(rows(p)).toBeLessThanOrEqual(PREVIEW_ROWS);
    for (const h of p.hunks) expect(h.lines).toBeGreaterThan(0);
    // The preview is the diff's beginning: whole hunks, then the first lines of one more.
    p.hunks.slice(0, -1).forEach((h, i) => expect(h.lines).toBe(hunks[i]!.lines.length));
  });
});
