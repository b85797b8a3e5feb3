import { create } from 'zustand';
import type { HistoryIndexProgress } from '../../common/api/history-types';

/** Whether the history screen is open, and which session it shows. */
interface HistoryUi {
  open: boolean;
  selected: string | null;
  /** Bumped when the core says history changed, so lists reload. */
  version: number;
  /** The index's last long catch-up (a rebuild, a big first look): shown while it runs, then its summary. */
  indexing: HistoryIndexProgress | null;
}

export const useHistoryUi = create<HistoryUi>(() => ({ open: false, selected: null, version: 0, indexing: null }));

export const historyUi = {
  open(selected: string | null = null): void {
    useHistoryUi.setState((s) => ({ open: true, selected: selected ?? s.selected }));
  },
  close(): void {
    // The summary of a finished catch-up was for this visit; one still running stays.
    useHistoryUi.setState((s) => ({ open: false, indexing: s.indexing?.done ? null : s.indexing }));
  },
  indexing(progress: HistoryIndexProgress): void {
    useHistoryUi.setState({ indexing: progress });
  },
  select(id: string | null): void {
    useHistoryUi.setState({ selected: id });
  },
  changed(): void {
    useHistoryUi.setState((s) => ({ version: s.version + 1 }));
  },
};
