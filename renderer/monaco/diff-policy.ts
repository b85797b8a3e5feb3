/**
 * Pure decisions about showing a diff (no DOM, no Monaco): when a file is too big for a Monaco diff
 * editor, and which theme the editor takes from the app's.
 */

/** Above either limit a diff is shown as a plain unified view: two Monaco models and a diff of that size freeze the window. */
export interface DiffLimits {
  chars: number;
  lines: number;
}

export const HUGE_DIFF_LIMITS: Readonly<DiffLimits> = { chars: 2 * 1024 * 1024, lines: 50_000 };

export type HugeDiffReason = { reason: 'size'; chars: number } | { reason: 'lines'; lines: number };

/** Why this pair of texts should not go into a Monaco diff editor, or null when it may. */
export function hugeDiffReason(oldText: string | null | undefined, newText: string, limits: Readonly<DiffLimits> = HUGE_DIFF_LIMITS): HugeDiffReason | null {
  const old = oldText ?? '';
  const chars = Math.max(old.length, newText.length);
  if (chars > limits.chars) return { reason: 'size', chars };
  const lines = Math.max(countLines(old, limits.lines + 1), countLines(newText, limits.lines + 1));
  if (lines > limits.lines) return { reason: 'lines', lines };
  return null;
}

/** Lines in `text`, counting no further than `stopAt` (a 2 MB scan is cheap, but there is no need to finish it). */
export function countLines(text: string, stopAt = Infinity): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && lines < stopAt; i = text.indexOf('\n', i + 1)) {
    if (i < text.length - 1) lines++;
  }
  return lines;
}

export function describeHugeDiff(reason: HugeDiffReason): string {
  return reason.reason === 'size'
    ? `This file is ${(reason.chars / (1024 * 1024)).toFixed(1)} MB, too large for the diff editor: showing a plain diff.`
    : `This file has ${reason.lines.toLocaleString('en-US')}+ lines, too many for the diff editor: showing a plain diff.`;
}

export type MonacoThemeName = 'vs' | 'vs-dark';

/**
 * The app's theme: an explicit `data-theme` on <html> wins ('light' / 'dark'), anything else
 * (absent, 'system') follows the OS through `prefers-color-scheme`.
 */
export function resolveMonacoTheme(dataTheme: string | undefined, prefersDark: boolean): MonacoThemeName {
  if (dataTheme === 'light') return 'vs';
  if (dataTheme === 'dark') return 'vs-dark';
  return prefersDark ? 'vs-dark' : 'vs';
}

/** `path` relative to `cwd` when inside it, else unchanged: what a user recognizes in a list. */
export function displayPath(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const root = cwd.replace(/[\\/]+$/, '');
  if (root !== '' && path.startsWith(root) && (path[root.length] === '/' || path[root.length] === '\\')) return path.slice(root.length + 1);
  return path;
}
