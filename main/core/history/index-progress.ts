/**
 * Progress of a catch-up of the history index that makes the user wait: a rebuild (every trace
 * read again), or one that reads at least PROGRESS_MIN_BYTES (a first look at a big history, many
 * sessions recorded while the app was closed). Reported at the start, at most every
 * PROGRESS_EVERY_MS as traces are taken, once when every trace is read and the index is being
 * merged and saved (`writing`), and once at the end (`done`: saved, or failed).
 * Smaller catch-ups report nothing: they are over before anyone could read a progress bar.
 */
import type { HistoryIndexProgress } from '../../../common/api/history-types';

export type { HistoryIndexProgress };

export const PROGRESS_MIN_BYTES = 8 * 1024 * 1024;
export const PROGRESS_EVERY_MS = 200;

export class IndexProgressReporter {
  private tracesDone = 0;
  private bytesDone = 0;
  private readonly started: number;
  private lastSent: number;
  private finished = false;
  private saving = false;

  /** A reporter for this catch-up, or undefined when it is too small to report. */
  static maybe(
    listener: ((p: HistoryIndexProgress) => void) | undefined,
    totals: { traces: number; bytes: number },
    rebuilding: boolean,
    now: () => number = Date.now,
  ): IndexProgressReporter | undefined {
    if (!listener || totals.traces === 0 || (!rebuilding && totals.bytes < PROGRESS_MIN_BYTES)) return undefined;
    return new IndexProgressReporter(listener, totals, rebuilding, now);
  }

  private constructor(
    private readonly listener: (p: HistoryIndexProgress) => void,
    private readonly totals: { traces: number; bytes: number },
    private readonly rebuilding: boolean,
    private readonly now: () => number,
  ) {
    this.started = this.lastSent = now();
    this.send(false);
  }

  /** A trace was taken into the index (`bytes` of it read; 0 when it was gone). */
  file(bytes: number): void {
    this.tracesDone++;
    this.bytesDone += bytes;
    if (this.now() - this.lastSent >= PROGRESS_EVERY_MS) this.send(false);
  }

  /** Every trace is read: what is left is merging and saving the index (may take seconds). */
  writing(): void {
    if (this.saving || this.finished) return;
    this.saving = true;
    this.send(false);
  }

  /** The catch-up is over (written, or failed): the last report. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.send(true);
  }

  private send(done: boolean): void {
    const at = this.now();
    this.lastSent = at;
    const p: HistoryIndexProgress = {
      rebuilding: this.rebuilding,
      tracesDone: this.tracesDone,
      tracesTotal: this.totals.traces,
      // Traces grow while they are read: never more than the total said at the start.
      bytesDone: Math.min(this.bytesDone, this.totals.bytes),
      bytesTotal: this.totals.bytes,
      elapsedMs: at - this.started,
      writing: this.saving && !done,
      done,
    };
    try {
      this.listener(p);
    } catch {
      // A listener's failure is not the index's: the catch-up goes on.
    }
  }
}
