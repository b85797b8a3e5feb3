/**
 * A history-index catch-up's progress in words, as the history screen and the CLI show it:
 * "Indexing history: 3,400 of 9,804 traces (0.7 of 2.1 GB)".
 */
import type { HistoryIndexProgress } from '../api/history-types';

const n = (x: number) => x.toLocaleString('en-US');

/** Bytes in the unit of `total` (so both numbers of "0.7 of 2.1 GB" read alike). */
function sizes(done: number, total: number): string {
  const [unit, scale] = total >= 1e9 ? ['GB', 1e9] : total >= 1e6 ? ['MB', 1e6] : ['KB', 1e3];
  const digits = total / scale >= 100 ? 0 : 1;
  return `${(done / scale).toFixed(digits)} of ${(total / scale).toFixed(digits)} ${unit}`;
}

export function describeIndexProgress(p: HistoryIndexProgress): string {
  if (p.done) return `Indexed ${n(p.tracesDone)} ${p.tracesDone === 1 ? 'trace' : 'traces'} of history in ${(p.elapsedMs / 1000).toFixed(1)} s`;
  if (p.writing) return `Saving the history index: ${n(p.tracesDone)} ${p.tracesDone === 1 ? 'trace' : 'traces'} read`;
  // A rebuild reads every trace (a first look, a damaged or older index); otherwise the new ones.
  const what = p.rebuilding ? 'Indexing history' : 'Indexing new sessions';
  return `${what}: ${n(p.tracesDone)} of ${n(p.tracesTotal)} traces (${sizes(p.bytesDone, p.bytesTotal)})`;
}

/** Done share, 0–1, by bytes (traces differ in size by orders of magnitude), else by traces. */
export function indexProgressShare(p: HistoryIndexProgress): number {
  if (p.done || p.writing) return 1;
  if (p.bytesTotal > 0) return Math.min(1, p.bytesDone / p.bytesTotal);
  return p.tracesTotal > 0 ? Math.min(1, p.tracesDone / p.tracesTotal) : 0;
}
