/**
 * What the user opened or closed in the transcript (thoughts, raw JSON, long outputs), kept
 * outside the rows: virtualized rows unmount when scrolled away and must come back as they were.
 */
import { create } from 'zustand';

interface TranscriptUiState {
  open: Record<string, boolean>;
  toggle(key: string, defaultOpen?: boolean): void;
}

export const useTranscriptUi = create<TranscriptUiState>((set) => ({
  open: {},
  toggle: (key, defaultOpen = false) => set((s) => ({ open: { ...s.open, [key]: !(s.open[key] ?? defaultOpen) } })),
}));

/** [open, toggle] for one disclosure of one entry. */
export function useDisclosure(key: string, defaultOpen = false): [boolean, () => void] {
  const open = useTranscriptUi((s) => s.open[key] ?? defaultOpen);
  return [open, () => useTranscriptUi.getState().toggle(key, defaultOpen)];
}
