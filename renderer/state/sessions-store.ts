/**
 * The renderer's mirror of the live sessions: per session a normalized transcript (an id list and
 * an id → entry map, shared across frames, see TranscriptApplier `shareContainers`), its summary
 * and status. Patches arrive in batches from the core and are applied once per animation frame;
 * rows select their own entry, so a streaming chunk re-renders one row.
 */
import { create } from 'zustand';
import type { ElicitationView } from '../../common/api/elicitation-types';
import type { LiveSessionSummary, SessionElicitationsEvent, SessionPatchesEvent, SessionStatusEvent } from '../../common/api/session-api-types';
import type { WorkbenchApi } from '../../common/api/client';
import { TranscriptApplier } from '../../common/transcript/apply-patches';
import { emptyTranscript, type Entry, type Transcript } from '../../common/transcript/model';
import type { Patch } from '../../common/transcript/patches';
import { createFrameScheduler } from './frame-scheduler';
import { historyUi } from '../history/history-store';

export interface SessionView {
  summary: LiveSessionSummary;
  /** Elicitation requests waiting for the user. */
  elicitations: ElicitationView[];
  transcript: Transcript;
  /** Patch batches applied so far (core numbering); older batches are ignored. */
  seq: number;
  loaded: boolean;
  loadError?: string;
}

export interface SessionsStore {
  order: string[];
  views: Record<string, SessionView>;
  /** Bumped once per frame in which any transcript changed. */
  frame: number;
}

export const useSessions = create<SessionsStore>(() => ({ order: [], views: {}, frame: 0 }));

const appliers = new Map<string, TranscriptApplier>();
const queued = new Map<string, SessionPatchesEvent[]>();

const scheduler = createFrameScheduler(() => {
  const state = useSessions.getState();
  const views = { ...state.views };
  let changed = false;
  for (const [sessionId, batches] of queued) {
    const view = views[sessionId];
    const applier = appliers.get(sessionId);
    if (!view || !applier || !view.loaded) continue;
    let seq = view.seq;
    for (const batch of batches) {
      if (batch.seq <= seq) continue; // already in the snapshot we loaded
      applier.apply(batch.patches);
      seq = batch.seq;
    }
    queued.delete(sessionId);
    if (seq !== view.seq) {
      views[sessionId] = { ...view, transcript: applier.snapshot(), seq };
      changed = true;
    }
  }
  if (changed) useSessions.setState({ views, frame: state.frame + 1 });
});

/** Core events → store. Call once per connection to the core. */
export function connectSessionsStore(api: WorkbenchApi): () => void {
  const offs = [
    api.on('sessions/changed', (list) => syncList(api, list)),
    api.on('session/patches', (event) => {
      let list = queued.get(event.sessionId);
      if (!list) queued.set(event.sessionId, (list = []));
      list.push(event);
      scheduler.schedule();
    }),
    api.on('session/status', (event) => applyStatus(event)),
    api.on('session/elicitations', (event) => applyElicitations(event)),
    api.on('history/changed', () => historyUi.changed()),
  ];
  void api.request('sessions/live').then((list) => syncList(api, list));
  return () => offs.forEach((off) => off());
}

function applyStatus(event: SessionStatusEvent): void {
  const state = useSessions.getState();
  const view = state.views[event.sessionId];
  if (!view) return;
  useSessions.setState({
    views: { ...state.views, [event.sessionId]: { ...view, summary: { ...view.summary, status: event.status, waiting: event.waiting } } },
  });
}

function applyElicitations(event: SessionElicitationsEvent): void {
  const state = useSessions.getState();
  const view = state.views[event.sessionId];
  if (!view) return;
  useSessions.setState({ views: { ...state.views, [event.sessionId]: { ...view, elicitations: event.pending } } });
}

function syncList(api: WorkbenchApi, list: LiveSessionSummary[]): void {
  const state = useSessions.getState();
  const views: Record<string, SessionView> = {};
  for (const summary of list) {
    const old = state.views[summary.sessionId];
    views[summary.sessionId] = old ? { ...old, summary: { ...summary, status: old.summary.status.status === 'starting' ? summary.status : summary.status } } : { summary, transcript: emptyTranscript(), seq: 0, loaded: false, elicitations: [] };
    if (!old) void loadSession(api, summary.sessionId);
  }
  for (const id of Object.keys(state.views)) if (!views[id]) appliers.delete(id);
  useSessions.setState({ views, order: list.map((s) => s.sessionId) });
}

/** Windows of entries until the whole transcript is here, then patches follow (by seq). */
export async function loadSession(api: WorkbenchApi, sessionId: string): Promise<void> {
  try {
    const snapshot = await api.request('session/snapshot', { sessionId });
    const ids: string[] = [];
    const entries: Record<string, Entry> = {};
    let seq = snapshot.seq;
    for (let offset = 0; ; ) {
      const window = await api.request('session/entries', { sessionId, offset, limit: 1000 });
      for (const entry of window.items) {
        ids.push(entry.id);
        entries[entry.id] = entry;
      }
      seq = Math.max(seq, window.seq);
      offset += window.items.length;
      if (window.items.length === 0 || (window.total !== null && offset >= window.total)) break;
    }
    const transcript: Transcript = { ids, entries, session: snapshot.session, fileChanges: snapshot.fileChanges, terminals: snapshot.terminals };
    const applier = new TranscriptApplier(transcript, { shareContainers: true });
    appliers.set(sessionId, applier);
    const state = useSessions.getState();
    const view = state.views[sessionId];
    if (!view) return;
    useSessions.setState({ views: { ...state.views, [sessionId]: { ...view, transcript: applier.snapshot(), seq, loaded: true, elicitations: snapshot.elicitations } } });
    scheduler.schedule(); // apply patches that arrived while loading
  } catch (err) {
    const state = useSessions.getState();
    const view = state.views[sessionId];
    if (view) useSessions.setState({ views: { ...state.views, [sessionId]: { ...view, loadError: err instanceof Error ? err.message : String(err) } } });
  }
}

/** Hooks for components: each selects the smallest piece it shows. */
export const useSessionView = (sessionId: string) => useSessions((s) => s.views[sessionId]);
export const useEntry = (sessionId: string, entryId: string) => useSessions((s) => s.views[sessionId]?.transcript.entries[entryId]);
export const useEntryCount = (sessionId: string) => useSessions((s) => s.views[sessionId]?.transcript.ids.length ?? 0);
export const useSessionState = (sessionId: string) => useSessions((s) => s.views[sessionId]?.transcript.session);

export type { Patch };
