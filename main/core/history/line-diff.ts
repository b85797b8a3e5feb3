/**
 * A unified diff (`-`/`+`/` ` lines in hunks) between two texts, for Markdown exports: the
 * transcript's line diff (common/diff/line-diff.ts) without its size cap, written as text.
 */
import { hunkHeader, lineDiff, type DiffLineKind } from '../../../common/diff/line-diff';

const SIGN: Record<DiffLineKind, string> = { context: ' ', del: '-', add: '+' };

/** Unified diff hunks (without file headers); '' when the texts are equal. */
export function unifiedDiff(oldText: string | null | undefined, newText: string): string {
  const diff = lineDiff(oldText, newText, 3, Infinity);
  if (diff.kind !== 'diff') return '';
  const out: string[] = [];
  for (const h of diff.hunks) {
    out.push(hunkHeader(h));
    for (const l of h.lines) out.push(SIGN[l.kind] + l.text);
  }
  return out.join('\n');
}
