/**
 * Find in a pane's transcript (Ctrl+F): per session the bar's state — the words, the matching
 * entries the core found (`session/find`: the whole transcript, also the entries this window has
 * not loaded), which one is current — and the jump the transcript view makes to it.
 */
import { create } from 'zustand';
import { api, errorText } from '../api/api-context';
import { useSessions } from '../state/sessions-store';

export interface PaneFind {
  open: boolean;
  query: string;
  /** Matching entry ids, oldest first (the first 5,000), and how many match in all. */
  ids: string[];
  total: number;
  /** Index in `ids` of the current match, or -1. */
  current: number;
  searching: boolean;
  error: string | null;
  /** The transcript's length when the search ran (a longer one is searched again on the next step). */
  searched: number;
  /** Bumped by each open, so the bar takes the focus again. */
  focusSeq: number;
  /** The entry to show, bumped by every step (the same entry asked twice is shown twice). */
  jump: { id: string; seq: number } | null;
}

const CLOSED: PaneFind = { open: false, query: '', ids: [], total: 0, current: -1, searching: false, error: null, searched: 0, focusSeq: 0, jump: null };

export const useFind = create<{ bySession: Record<string, PaneFind> }>(() => ({ bySession: {} }));

export const paneFind = (sessionId: string) => (s: { bySession: Record<string, PaneFind> }): PaneFind => s.bySession[sessionId] ?? CLOSED;

function patch(sessionId: string, change: Partial<PaneFind>): void {
  const s = useFind.getState().bySession;
  useFind.setState({ bySession: { ...s, [sessionId]: { ...(s[sessionId] ?? CLOSED), ...change } } });
}

const get = (sessionId: string): PaneFind => useFind.getState().bySession[sessionId] ?? CLOSED;
const entryCount = (sessionId: string): number => useSessions.getState().views[sessionId]?.transcript.ids.length ?? 0;

let jumpSeq = 0;
/** Searches under way, by session: only the latest one's answer is taken. */
const latest = new Map<string, number>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
/** Typing waits this long before the core is asked. */
export const FIND_DEBOUNCE_MS = 150;

export const findUi = {
  open(sessionId: string): void {
    patch(sessionId, { open: true, focusSeq: get(sessionId).focusSeq + 1 });
  },
  close(sessionId: string): void {
    clearTimeout(timers.get(sessionId));
    latest.delete(sessionId);
    patch(sessionId, { ...CLOSED, query: get(sessionId).query, focusSeq: get(sessionId).focusSeq });
  },
  setQuery(sessionId: string, query: string): void {
    patch(sessionId, { query, error: null });
    clearTimeout(timers.get(sessionId));
    if (!query.trim()) {
      latest.delete(sessionId);
      patch(sessionId, { ids: [], total: 0, current: -1, searching: false, jump: null });
      return;
    }
    timers.set(sessionId, setTimeout(() => void findUi.search(sessionId), FIND_DEBOUNCE_MS));
  },
  /**
   * Ask the core for the matches of the bar's words. The current match becomes `keep` when it still
   * matches, else the newest (the reader is usually at the end of a transcript).
   */
  async search(sessionId: string, keep?: string): Promise<void> {
    const query = get(sessionId).query;
    if (!query.trim()) return;
    const ticket = (latest.get(sessionId) ?? 0) + 1;
    latest.set(sessionId, ticket);
    patch(sessionId, { searching: true });
    try {
      const found = await api().request('session/find', { sessionId, query });
      if (latest.get(sessionId) !== ticket || !get(sessionId).open) return;
      const kept = keep === undefined ? -1 : found.ids.indexOf(keep);
      const current = kept >= 0 ? kept : found.ids.length - 1;
      patch(sessionId, {
        ids: found.ids,
        total: found.total,
        searched: found.searched,
        current,
        searching: false,
        jump: current < 0 ? null : kept < 0 ? { id: found.ids[current]!, seq: ++jumpSeq } : get(sessionId).jump,
      });
    } catch (err) {
      if (latest.get(sessionId) !== ticket) return;
      patch(sessionId, { searching: false, error: errorText(err) });
    }
  },
  /** The next (+1, newer) or previous (−1, older) match, wrapping; a transcript that grew is searched again first. */
  async step(sessionId: string, by: 1 | -1): Promise<void> {
    let f = get(sessionId);
    if (!f.query.trim()) return;
    // Nothing found yet (a bar opened again with its words): the search itself shows the newest match.
    if (f.ids.length === 0 || f.current < 0) return findUi.search(sessionId);
    if (f.searched !== entryCount(sessionId)) {
      const keep = f.ids[f.current];
      await findUi.search(sessionId, keep);
      f = get(sessionId);
      // The current match is gone from the new results: the search showed the newest instead.
      if (f.ids[f.current] !== keep) return;
    }
    const current = (f.current + by + f.ids.length) % f.ids.length;
    patch(sessionId, { current, jump: { id: f.ids[current]!, seq: ++jumpSeq } });
  },
};
