/** What the index records of a trace file (one row of the snapshot's files table: history-index.ts, file-table.ts). */
import type { FileCard } from './cards';
import type { DetailAt } from './detail-file';

export interface IndexedFile {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Bytes read (up to the end of the last complete line) and lines read. */
  position: number;
  lines: number;
  /** Bytes after `position` without a newline: a line being written, or torn by a crash. */
  torn: boolean;
  /** Finished: not stat'ed on every look (see SETTLE_*). */
  settled: boolean;
  imported: boolean;
  corruptLines: number;
  card: FileCard;
  /** Where the file's FileDetail is in the snapshot's side file (null: not written yet). */
  detailAt: DetailAt | null;
}
