/**
 * The store selectors of one transcript view (TranscriptView), made once per session (the pane
 * header's and the window's own are in renderer/state/pane-selectors.ts). zustand's `useStore` hands
 * React's `useSyncExternalStore` a `getSnapshot` built from the selector (`useCallback` on the
 * selector): an inline arrow is a new selector at every render, so every render of the pane gave
 * React a new `getSnapshot`, which React checks in a passive effect — and a commit with a passive
 * effect makes React's scheduler post a task (`postMessage`) after it. A scrolling pane renders every
 * frame (issue #11, scrolling long transcripts); with these selectors its renders have no effect to run.
 */
import type { SessionsStore } from '../state/sessions-store';
import { paneExists, paneLoadError } from '../state/pane-selectors';
import type { Transcript } from '../../common/transcript/model';

export interface TranscriptSelectors {
  loaded(s: SessionsStore): boolean;
  complete(s: SessionsStore): boolean;
  loadError(s: SessionsStore): string | undefined;
  exists(s: SessionsStore): boolean;
  /** The id list (shared across frames; appends are signalled by `count`, a reload gives a new list). */
  ids(s: SessionsStore): readonly string[] | undefined;
  count(s: SessionsStore): number;
  /** Whether the user has prompted yet (a user message is in the transcript). */
  prompted(s: SessionsStore): boolean;
}

export function transcriptSelectors(sessionId: string): TranscriptSelectors {
  return {
    loaded: (s) => s.views[sessionId]?.loaded ?? false,
    complete: (s) => s.views[sessionId]?.complete ?? false,
    loadError: paneLoadError(sessionId),
    exists: paneExists(sessionId),
    ids: (s) => s.views[sessionId]?.transcript.ids,
    count: (s) => s.views[sessionId]?.transcript.ids.length ?? 0,
    prompted: (s) => hasUserMessage(s.views[sessionId]?.transcript),
  };
}

/**
 * Whether the user has prompted yet. The selector runs at every render of every pane (each frame of
 * a scroll) and a transcript may hold no user message at all (an agent that does not echo it, a
 * session loaded from a trace): each id list is scanned once, later only its new entries.
 */
const promptedScans = new WeakMap<readonly string[], { scanned: number; found: boolean }>();
export function hasUserMessage(transcript: Transcript | undefined): boolean {
  if (!transcript) return false;
  const { ids, entries } = transcript;
  let scan = promptedScans.get(ids);
  if (!scan) promptedScans.set(ids, (scan = { scanned: 0, found: false }));
  for (; !scan.found && scan.scanned < ids.length; scan.scanned++) if (entries[ids[scan.scanned]!]?.kind === 'user_message') scan.found = true;
  return scan.found;
}
