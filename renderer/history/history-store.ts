import { create } from 'zustand';

/** Whether the history screen is open, and which session it shows. */
interface HistoryUi {
  open: boolean;
  selected: string | null;
  /** Bumped when the core says history changed, so lists reload. */
  version: number;
}

export const useHistoryUi = create<HistoryUi>(() => ({ open: false, selected: null, version: 0 }));

export const historyUi = {
  open(selected: string | null = null): void {
    useHistoryUi.setState((s) => ({ open: true, selected: selected ?? s.selected }));
  },
  close(): void {
    useHistoryUi.setState({ open: false });
  },
  select(id: string | null): void {
    useHistoryUi.setState({ selected: id });
  },
  changed(): void {
    useHistoryUi.setState((s) => ({ version: s.version + 1 }));
  },
};
