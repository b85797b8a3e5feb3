import { create } from 'zustand';

/** A request to show old vs new text of one file in the full diff editor. */
export interface DiffRequest {
  title: string;
  path: string;
  oldText: string | null;
  newText: string;
  /** The texts are being fetched (a diff the window got as a preview): the dialog says so. */
  loading?: boolean;
  /** They could not be had: the dialog shows why instead of the editor. */
  error?: string;
}

interface DiffStore {
  open: DiffRequest | null;
  show(request: DiffRequest): void;
  close(): void;
}

/** The one full-size diff editor of the window (opened from tool cards, permissions, changes). */
export const useDiffDialog = create<DiffStore>((set) => ({
  open: null,
  show: (request) => set({ open: request }),
  close: () => set({ open: null }),
}));
