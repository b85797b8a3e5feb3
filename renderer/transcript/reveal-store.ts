/**
 * Entries a pane is asked to bring into view from outside it (the previous / next prompt keys):
 * per session the entry and a sequence number (the same entry asked twice is shown twice).
 * The transcript view scrolls there and holds the pane, as for a find match.
 */
import { create } from 'zustand';
import { useSessions } from '../state/sessions-store';

export interface Reveal {
  id: string;
  seq: number;
}

export const useReveal = create<{ bySession: Record<string, Reveal> }>(() => ({ bySession: {} }));

let seq = 0;

export function reveal(sessionId: string, entryId: string): void {
  useReveal.setState((s) => ({ bySession: { ...s.bySession, [sessionId]: { id: entryId, seq: ++seq } } }));
}

/**
 * The prompt before (-1) or after (+1) the first entry in view of the pane: `topIndex` is that
 * entry's index. Null when there is none that way.
 */
export function promptBeside(sessionId: string, topIndex: number, by: 1 | -1): string | null {
  const t = useSessions.getState().views[sessionId]?.transcript;
  if (!t) return null;
  for (let i = topIndex + by; i >= 0 && i < t.ids.length; i += by) if (t.entries[t.ids[i]!]?.kind === 'user_message') return t.ids[i]!;
  return null;
}

/** Index of the first row of the pane's transcript whose bottom is below the top of its scroller (the DOM's rows: only those mounted). */
export function firstRowInView(sessionId: string): number | null {
  const scroller = document.querySelector<HTMLElement>(`[data-testid="transcript"][data-session-id="${CSS.escape(sessionId)}"] [data-testid="transcript-scroll"]`);
  if (!scroller) return null;
  const top = scroller.getBoundingClientRect().top;
  let best: number | null = null;
  for (const row of scroller.querySelectorAll<HTMLElement>('.tx-row[data-index]')) {
    const index = Number(row.dataset.index);
    if (row.getBoundingClientRect().bottom > top + 1 && (best === null || index < best)) best = index;
  }
  return best;
}
