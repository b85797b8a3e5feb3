/**
 * How much of an inline diff the transcript shows (issue #11). A collapsed diff shows its first
 * lines — in order, hunk headers included, never a header without any of its lines — and the
 * rest is one click away ("Show all N lines"); an expanded diff shows every line. A diff barely
 * longer than the preview shows whole: hiding a handful of lines would cost a click for nothing.
 * Pure: no DOM, tested in Node.
 */
import type { Hunk } from './line-diff';

/**
 * Rows (diff lines and hunk headers) a collapsed diff shows: enough for the start of a change, while
 * an edit in a quarter-width pane stays under a third of its height. Each row is layout, text shaping
 * and paint while four panes stream (issue #11: 20 rows instead of 40 took ≈ 20 % off the renderer's
 * CPU for the benchmark's stream; 12 instead of 24 took 25–35 % off a tool-call row's own cost).
 */
export const PREVIEW_ROWS = 12;
/** A diff of up to this many rows is never collapsed (most edits of a few lines show whole). */
export const WHOLE_UP_TO = 16;

export interface DiffPreview {
  /** The hunks shown, each with how many of its first lines are shown. */
  hunks: { hunk: Hunk; lines: number }[];
  /** Diff lines shown (hunk headers not counted). */
  shown: number;
  /** Diff lines in all (hunk headers not counted). */
  total: number;
  /** Whether the diff is long enough to have a collapsed form (and a toggle). */
  collapsible: boolean;
}

export function diffPreview(hunks: readonly Hunk[], expanded: boolean): DiffPreview {
  let total = 0;
  for (const h of hunks) total += h.lines.length;
  const rows = total + hunks.length;
  const collapsible = rows > WHOLE_UP_TO;
  if (expanded || !collapsible) return { hunks: hunks.map((hunk) => ({ hunk, lines: hunk.lines.length })), shown: total, total, collapsible };
  const shownHunks: DiffPreview['hunks'] = [];
  let budget = PREVIEW_ROWS;
  let shown = 0;
  for (const hunk of hunks) {
    if (budget < 2) break; // a header needs at least one of its lines under it
    const lines = Math.min(hunk.lines.length, budget - 1);
    shownHunks.push({ hunk, lines });
    budget -= lines + 1;
    shown += lines;
  }
  return { hunks: shownHunks, shown, total, collapsible };
}
