/**
 * The inspector's UI state per session (kept while the panel is closed): the tab, the filter, the
 * selected and pinned rows, a pending "jump to this row"; and what the core pushes about the
 * session's QA side (manual requests waiting, finding counts), for the tab badges.
 */
import { create } from 'zustand';
import type { FindingSeverity, ManualRequestView } from '../../common/api/qa-types';
import { EMPTY_FILTER, type FilterState } from './format';

export type InspectorTab = 'messages' | 'faults' | 'composer' | 'conformance';

export interface SessionInspectorUi {
  tab: InspectorTab;
  filter: FilterState;
  /** Row index (in the connection's list) shown in the detail view. */
  selected: number | null;
  pins: number[];
  /** A row to scroll to (a finding's evidence, a request's response); `seq` makes repeats count. */
  jump: { index: number; seq: number } | null;
}

export interface QaLive {
  pending: ManualRequestView[];
  counts: Record<FindingSeverity, number>;
}

interface InspectorUiStore {
  bySession: Record<string, SessionInspectorUi>;
  live: Record<string, QaLive>;
}

const DEFAULT_UI: SessionInspectorUi = { tab: 'messages', filter: EMPTY_FILTER, selected: null, pins: [], jump: null };
export const NO_LIVE: QaLive = { pending: [], counts: { error: 0, warning: 0, info: 0 } };

export const useInspectorUi = create<InspectorUiStore>(() => ({ bySession: {}, live: {} }));

export const useSessionInspector = (sessionId: string): SessionInspectorUi => useInspectorUi((s) => s.bySession[sessionId] ?? DEFAULT_UI);
export const useQaLive = (sessionId: string): QaLive => useInspectorUi((s) => s.live[sessionId] ?? NO_LIVE);

function patch(sessionId: string, change: (ui: SessionInspectorUi) => Partial<SessionInspectorUi>): void {
  const s = useInspectorUi.getState();
  const ui = s.bySession[sessionId] ?? DEFAULT_UI;
  useInspectorUi.setState({ bySession: { ...s.bySession, [sessionId]: { ...ui, ...change(ui) } } });
}

let jumpSeq = 0;

export const inspectorUi = {
  get(sessionId: string): SessionInspectorUi {
    return useInspectorUi.getState().bySession[sessionId] ?? DEFAULT_UI;
  },
  setTab(sessionId: string, tab: InspectorTab): void {
    patch(sessionId, () => ({ tab }));
  },
  setFilter(sessionId: string, change: Partial<FilterState>): void {
    patch(sessionId, (ui) => ({ filter: { ...ui.filter, ...change } }));
  },
  clearFilter(sessionId: string): void {
    patch(sessionId, (ui) => ({ filter: { ...EMPTY_FILTER, scope: ui.filter.scope } }));
  },
  select(sessionId: string, index: number | null): void {
    patch(sessionId, () => ({ selected: index }));
  },
  togglePin(sessionId: string, index: number): void {
    patch(sessionId, (ui) => ({ pins: ui.pins.includes(index) ? ui.pins.filter((i) => i !== index) : [...ui.pins, index].sort((a, b) => a - b) }));
  },
  /** Show a row in the message list: the Messages tab, the row selected and scrolled to. */
  jumpTo(sessionId: string, index: number): void {
    patch(sessionId, () => ({ tab: 'messages', selected: index, jump: { index, seq: ++jumpSeq } }));
  },
  setLive(sessionId: string, change: Partial<QaLive>): void {
    const s = useInspectorUi.getState();
    useInspectorUi.setState({ live: { ...s.live, [sessionId]: { ...(s.live[sessionId] ?? NO_LIVE), ...change } } });
  },
};
