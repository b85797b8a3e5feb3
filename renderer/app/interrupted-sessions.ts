/**
 * The window's offer of the sessions the workbench was running when it last stopped without
 * closing them (main/core/history/interrupted-offers.ts decides which): asked for once at
 * start-up; resume them all, look at them in History, or dismiss the offer (kept by the core, so
 * no window or later start makes it again).
 */
import { create } from 'zustand';
import type { HistorySessionView } from '../../common/api/history-types';
import { api, errorText } from '../api/api-context';
import { historyUi } from '../history/history-store';
import { layout } from '../state/layout-store';

interface InterruptedState {
  offers: HistorySessionView[];
  busy: boolean;
  error: string | null;
}

export const useInterrupted = create<InterruptedState>(() => ({ offers: [], busy: false, error: null }));

let looked = false;

export const interruptedSessions = {
  /** Asks once per window (after start-up, off its critical path). */
  async lookOnce(): Promise<void> {
    if (looked) return;
    looked = true;
    try {
      useInterrupted.setState({ offers: await api().request('history/interrupted') });
    } catch {
      // History unreadable now: the History screen says why when opened; no offer.
    }
  },
  async dismiss(): Promise<void> {
    const ids = useInterrupted.getState().offers.map((s) => s.id);
    useInterrupted.setState({ busy: true, error: null });
    try {
      await api().request('history/dismiss-interrupted', { ids });
      useInterrupted.setState({ offers: [], busy: false });
    } catch (err) {
      useInterrupted.setState({ busy: false, error: `Could not dismiss: ${errorText(err)}` });
    }
  },
  showInHistory(): void {
    historyUi.open(useInterrupted.getState().offers[0]?.id ?? null);
  },
  /** Resumes each (session/resume, else load, else primed: as History's Resume); keeps the ones that failed, with why. */
  async resumeAll(): Promise<void> {
    const { offers } = useInterrupted.getState();
    useInterrupted.setState({ busy: true, error: null });
    const failed: HistorySessionView[] = [];
    const errors: string[] = [];
    for (const s of offers) {
      try {
        const result = await api().request('history/resume', { id: s.id });
        layout.show(result.live.sessionId);
      } catch (err) {
        failed.push(s);
        errors.push(`${s.title || s.id}: ${errorText(err)}`);
      }
    }
    historyUi.changed();
    useInterrupted.setState({ offers: failed, busy: false, error: errors.length ? errors.join('\n') : null });
  },
};
