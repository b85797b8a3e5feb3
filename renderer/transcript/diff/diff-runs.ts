/**
 * The collapsed preview of an inline diff as runs (issue #11): consecutive rows of the same kind —
 * hunk header, context, added, removed — become one run, drawn as one box with one background and
 * three text cells (line numbers, signs, code), each holding the run's rows joined by newlines.
 * A streamed 16 KiB rewrite's 24 preview rows are then 2 runs (its header and its removed lines)
 * instead of 24 flex rows of 4 boxes each: what the renderer lays out and paints per diff card.
 * Rows in a run line up because no cell wraps (the preview clips long lines; the expanded diff
 * keeps one row per line, wrapping).
 * Pure: no DOM, tested in Node.
 */
import type { DiffPreview } from '../../../common/diff/collapsed-diff';
import { hunkHeader, type DiffLineKind } from '../../../common/diff/line-diff';

export type RunKind = DiffLineKind | 'hunk';

export interface DiffRun {
  kind: RunKind;
  /** Rows in the run. */
  rows: number;
  /** Old and new line numbers of each row, right-aligned to `width` digits, rows joined by '\n'. */
  numbers: string;
  /** '+', '-' or ' ' (context and hunk header) per row, joined by '\n'. */
  signs: string;
  /** Each row's text (the header for a hunk row), joined by '\n'. */
  code: string;
}

/** The sign column of a row: '+', '-', or a space (context, hunk header). */
export const SIGN: Record<RunKind, string> = { add: '+', del: '-', context: ' ', hunk: ' ' };

/** `width`: digits of a number column (the diff's largest line number, at least 3). */
export function diffRuns(preview: DiffPreview, width: number): DiffRun[] {
  const runs: DiffRun[] = [];
  let kind: RunKind | undefined;
  let numbers: string[] = [];
  let signs: string[] = [];
  let code: string[] = [];
  const flush = () => {
    if (kind !== undefined && code.length > 0) runs.push({ kind, rows: code.length, numbers: numbers.join('\n'), signs: signs.join('\n'), code: code.join('\n') });
    numbers = [];
    signs = [];
    code = [];
  };
  const push = (k: RunKind, nos: string, text: string) => {
    if (k !== kind) {
      flush();
      kind = k;
    }
    numbers.push(nos);
    signs.push(SIGN[k]);
    code.push(text);
  };
  const blank = ' '.repeat(width);
  const no = (n: number | undefined) => (n === undefined ? blank : String(n).padStart(width));
  for (const { hunk, lines } of preview.hunks) {
    push('hunk', `${blank}  ${blank}`, hunkHeader(hunk));
    for (let i = 0; i < lines; i++) {
      const l = hunk.lines[i]!;
      push(l.kind, `${no(l.oldNo)}  ${no(l.newNo)}`, l.text);
    }
  }
  flush();
  return runs;
}
