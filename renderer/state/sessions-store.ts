/**
 * The renderer's mirror of the live sessions: per session a normalized transcript (an id list and
 * an id → entry map, shared across frames, see TranscriptApplier `shareContainers`), its summary
 * and status. Patches arrive in batches from the core and are applied once per animation frame;
 * rows select their own entry, so a streaming chunk re-renders one row.
 *
 * A transcript is loaded end first (see `loadSession`): the last entries show at once, the older
 * ones follow in small windows and join the store in one commit. A transcript already shown that
 * must load again (a reconnect, a missed batch) is swapped in whole once every entry is here, so a
 * reader scrolled up keeps their place.
 */
import { create } from 'zustand';
import type { ElicitationView } from '../../common/api/elicitation-types';
import type { LiveSessionSummary, SessionElicitationsEvent, SessionPatchesEvent, SessionStatusEvent } from '../../common/api/session-api-types';
import type { WorkbenchApi } from '../../common/api/client';
import { MAX_WINDOW } from '../../common/api/window';
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
  /** The end of the transcript is here (the pane can show it). */
  loaded: boolean;
  /** Every entry is here (older entries load after the end, see `loadSession`). */
  complete: boolean;
  /**
   * Patches were missed (the connection dropped, or a batch number was skipped): the transcript
   * shown is being loaded again; patches wait until it is here.
   */
  stale?: boolean;
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
/**
 * Older entries of a session still loading, by window: patches about them are applied here until
 * they join the transcript (a window holds its entries as of its `seq`; later patches follow).
 */
const olderEntries = new Map<string, TranscriptApplier>();
/**
 * Transcripts loading again behind the one shown (a reload of a shown transcript, see `loadSession`):
 * patches are applied here, by seq, and nothing is published until the whole transcript is here.
 */
const reloading = new Map<string, { applier: TranscriptApplier; seq: number }>();
/** The latest load of each session; an earlier one that is still running stops at its next step. */
const loads = new Map<string, number>();
/** The connection the store listens to (for reloads the patch scheduler decides on). */
let connectedApi: WorkbenchApi | null = null;

const scheduler = createFrameScheduler(() => {
  const state = useSessions.getState();
  const views = { ...state.views };
  let changed = false;
  const missed: string[] = [];
  for (const [sessionId, batches] of queued) {
    const view = views[sessionId];
    if (!view) continue;
    const hidden = reloading.get(sessionId);
    const applier = hidden?.applier ?? appliers.get(sessionId);
    if (!applier || (!hidden && (!view.loaded || view.stale))) continue;
    let seq = hidden?.seq ?? view.seq;
    const older = olderEntries.get(sessionId);
    let gap = false;
    for (const batch of batches) {
      if (batch.seq <= seq) continue; // already in the snapshot we loaded
      if (batch.seq !== seq + 1) {
        gap = true; // the core numbers each session's batches 1, 2, 3…: one never reached us
        break;
      }
      applier.apply(batch.patches);
      older?.apply(batch.patches.filter(isAboutAnEntry));
      seq = batch.seq;
    }
    if (gap) {
      missed.push(sessionId);
      if (hidden) reloading.delete(sessionId); // that reload missed it too: the next one starts over
      else {
        views[sessionId] = { ...view, stale: true };
        changed = true;
      }
      continue; // the batches stay queued: the reload skips those it already holds
    }
    queued.delete(sessionId);
    if (hidden) hidden.seq = seq; // applied out of sight: published when the reload is whole
    else if (seq !== view.seq) {
      views[sessionId] = { ...view, transcript: applier.snapshot(), seq };
      changed = true;
    }
  }
  if (changed) useSessions.setState({ views, frame: state.frame + 1 });
  if (connectedApi) for (const sessionId of missed) void loadSession(connectedApi, sessionId);
  return changed;
});

/**
 * Core events → store. Call once per connection to the core: on a new connection (a reconnect) the
 * sessions the store already shows load again, since events sent while disconnected are lost.
 */
export function connectSessionsStore(api: WorkbenchApi): () => void {
  connectedApi = api;
  const offs = [
    api.on('sessions/changed', (list) => syncList(api, list, false)),
    api.on('session/patches', (event) => {
      let list = queued.get(event.sessionId);
      if (!list) queued.set(event.sessionId, (list = []));
      list.push(event);
      scheduler.schedule();
    }),
    api.on('session/status', (event) => applyStatus(event)),
    api.on('session/elicitations', (event) => applyElicitations(event)),
    api.on('history/changed', () => historyUi.changed()),
    api.on('history/progress', (p) => historyUi.indexing(p)),
  ];
  void api.request('sessions/live').then((list) => syncList(api, list, true));
  return () => {
    offs.forEach((off) => off());
    if (connectedApi === api) connectedApi = null;
  };
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

/** `reloadShown`: the list came with a new connection, so the transcripts already shown are reloaded. */
function syncList(api: WorkbenchApi, list: LiveSessionSummary[], reloadShown: boolean): void {
  const state = useSessions.getState();
  const views: Record<string, SessionView> = {};
  const load: string[] = [];
  for (const summary of list) {
    const old = state.views[summary.sessionId];
    views[summary.sessionId] = old
      ? { ...old, summary, stale: old.stale || reloadShown }
      : { summary, transcript: emptyTranscript(), seq: 0, loaded: false, complete: false, elicitations: [] };
    if (!old || reloadShown) load.push(summary.sessionId);
  }
  for (const id of Object.keys(state.views)) {
    if (views[id]) continue;
    appliers.delete(id);
    olderEntries.delete(id);
    reloading.delete(id);
    loads.delete(id);
  }
  useSessions.setState({ views, order: list.map((s) => s.sessionId) });
  for (const sessionId of load) void loadSession(api, sessionId);
}

/** Entries in the first window, the end of the transcript: what a pane shows first. */
export const FIRST_WINDOW = 150;
/**
 * Entries in the first window of the older part. Small, so that no message takes long to parse (a
 * window of tool calls with large diffs is ~1.5 MB at 100) and the UI stays responsive while it
 * loads (issue #11). Windows that come back quickly (small entries) let the next one double, up to
 * `MAX_WINDOW`; a slow one halves it.
 */
export const OLDER_WINDOW = 100;
const QUICK_WINDOW_MS = 16;
const SLOW_WINDOW_MS = 40;

/**
 * Loads a session's transcript, end first: the last `FIRST_WINDOW` entries show at once and patches
 * follow (by seq); the older entries then come in windows of `OLDER_WINDOW`, newest first, and
 * join the transcript in one commit when all are here. The core sends the patches emitted before
 * an answer ahead of it, so once the queued batches are applied, a window's entries are exactly
 * as of its `seq` and every later patch about them arrives afterwards.
 *
 * A transcript the pane already shows (loaded again after a reconnect or a missed batch) is loaded
 * the same way out of sight and replaces the one shown in one commit when whole: showing its end
 * first would shrink the list under a reader scrolled up, who would lose their place.
 */
export async function loadSession(api: WorkbenchApi, sessionId: string): Promise<void> {
  const load = (loads.get(sessionId) ?? 0) + 1;
  loads.set(sessionId, load);
  const superseded = () => loads.get(sessionId) !== load;
  const whole = useSessions.getState().views[sessionId]?.loaded === true;
  let applier: TranscriptApplier | null = null;
  const ours = () => applier !== null && (whole ? reloading.get(sessionId)?.applier : appliers.get(sessionId)) === applier;
  try {
    const snapshot = await api.request('session/snapshot', { sessionId });
    // One answer holds the end as of its seq: entries appended since the snapshot are in it too
    // (asked again from a later start in the rare case that they do not fit in one window). Its end
    // is kept within WINDOW_BYTES: of large tool calls, fewer than FIRST_WINDOW, still a screen.
    let tail = await api.request('session/entries', { sessionId, offset: Math.max(0, snapshot.entryCount - FIRST_WINDOW), limit: MAX_WINDOW, fromEnd: true });
    while (tail.total !== null && tail.offset + tail.items.length < tail.total) {
      tail = await api.request('session/entries', { sessionId, offset: Math.max(0, tail.total - FIRST_WINDOW), limit: MAX_WINDOW, fromEnd: true });
    }
    const last = tail.items;
    const tailSeq = tail.seq;
    if (superseded()) return;
    let from = tail.offset;
    const transcript: Transcript = {
      ids: last.map((e) => e.id),
      entries: Object.fromEntries(last.map((e) => [e.id, e])),
      session: snapshot.session,
      fileChanges: snapshot.fileChanges,
      terminals: snapshot.terminals,
    };
    applier = new TranscriptApplier(transcript, { shareContainers: true });
    const seq = Math.max(snapshot.seq, tailSeq);
    if (whole) {
      reloading.set(sessionId, { applier, seq });
      if (!setView(sessionId, (view) => ({ ...view, elicitations: snapshot.elicitations }))) return;
    } else {
      appliers.set(sessionId, applier);
      const shown = { transcript: applier.snapshot(), seq, loaded: true, stale: false, complete: from === 0, elicitations: snapshot.elicitations, loadError: undefined };
      if (!setView(sessionId, (view) => ({ ...view, ...shown }))) return;
    }
    scheduler.schedule(); // apply patches that arrived while loading
    if (from === 0) {
      olderEntries.delete(sessionId); // an earlier load's, when this one reloads
      if (whole) showReloaded(sessionId, applier);
      return;
    }

    const older = new TranscriptApplier({ ids: [], entries: {}, session: snapshot.session, fileChanges: [], terminals: {} }, { shareContainers: true });
    olderEntries.set(sessionId, older);
    const windows: Entry[][] = [];
    for (let size = OLDER_WINDOW; from > 0; ) {
      const offset = Math.max(0, from - size);
      const asked = performance.now();
      // The core keeps a window within WINDOW_BYTES (its end, the entries nearest `from`): large
      // entries come a few per message, each quick to parse (its answer's offset says where it starts).
      const window = await api.request('session/entries', { sessionId, offset, limit: from - offset, fromEnd: true });
      const took = performance.now() - asked;
      size = took < QUICK_WINDOW_MS ? Math.min(MAX_WINDOW, size * 2) : took > SLOW_WINDOW_MS ? Math.max(OLDER_WINDOW / 4, size / 2) : size;
      if (superseded() || !ours()) return; // closed or reloaded meanwhile
      const start = Math.max(offset, window.offset);
      if (start >= from) throw new Error(`the core sent no entries before ${from}`);
      scheduler.flush(); // every batch up to this window's seq is in the queue: apply it first
      const items = window.items.slice(start - window.offset, from - window.offset);
      windows.push(items);
      for (const entry of items) older.apply([{ op: 'append-entry', entry }]);
      from = start;
    }
    // The join (copying the id list and the entry map, then the render of the longer list) gets a
    // task of its own instead of following the last window's parse in the same one (issue #11).
    await nextTask();
    if (superseded() || !ours()) return; // closed or reloaded meanwhile
    scheduler.flush();
    olderEntries.delete(sessionId);
    const current = applier.snapshot();
    const oldPart = older.snapshot();
    const ids = [...windows.reverse().flatMap((w) => w.map((e) => e.id)), ...current.ids];
    const entries = { ...oldPart.entries, ...current.entries };
    const joined = new TranscriptApplier({ ...current, ids, entries }, { shareContainers: true });
    if (whole) showReloaded(sessionId, joined);
    else {
      appliers.set(sessionId, joined);
      setView(sessionId, (view) => ({ ...view, transcript: joined.snapshot(), complete: true }));
    }
  } catch (err) {
    if (superseded()) return; // e.g. the connection dropped: the load after the reconnect takes over
    olderEntries.delete(sessionId);
    if (whole && ours()) reloading.delete(sessionId);
    setView(sessionId, (view) => ({ ...view, loadError: err instanceof Error ? err.message : String(err) }));
  }
}

/** A transcript reloaded out of sight replaces the one shown, with every patch up to its seq applied. */
function showReloaded(sessionId: string, whole: TranscriptApplier): void {
  scheduler.flush(); // the batches queued so far go to the reloaded transcript first
  const hidden = reloading.get(sessionId);
  if (!hidden) return; // a batch went missing meanwhile: the load that followed takes over
  reloading.delete(sessionId);
  appliers.set(sessionId, whole);
  const shown = { transcript: whole.snapshot(), seq: hidden.seq, loaded: true, stale: false, complete: true, loadError: undefined };
  setView(sessionId, (view) => ({ ...view, ...shown }));
}

/** Resolves in a later task (after what is queued now, input and rendering included). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Patches that change one entry (and not the list, the session or its files). */
function isAboutAnEntry(patch: Patch): boolean {
  return 'id' in patch;
}

/** Replaces one session's view; false when the session is gone. */
function setView(sessionId: string, change: (view: SessionView) => SessionView): boolean {
  const state = useSessions.getState();
  const view = state.views[sessionId];
  if (!view) return false;
  useSessions.setState({ views: { ...state.views, [sessionId]: change(view) }, frame: state.frame + 1 });
  return true;
}

/** Hooks for components: each selects the smallest piece it shows. */
export const useSessionView = (sessionId: string) => useSessions((s) => s.views[sessionId]);
export const useEntry = (sessionId: string, entryId: string) => useSessions((s) => s.views[sessionId]?.transcript.entries[entryId]);
export const useEntryCount = (sessionId: string) => useSessions((s) => s.views[sessionId]?.transcript.ids.length ?? 0);
export const useSessionState = (sessionId: string) => useSessions((s) => s.views[sessionId]?.transcript.session);

export type { Patch };
