/**
 * The full texts of diffs the core sent as previews (issue #11: a large diff reaches the window as
 * what its collapsed view shows, common/transcript/window-diffs.ts). A reader that needs the texts —
 * the expanded inline diff, the diff editor, a permission card, the changes panel — asks for them
 * here; once fetched they take the preview's place in the session's transcript (sessions-store's
 * `mergeDiffTexts`), so every reader sees the whole diff from then on. While a fetch runs, and when
 * it failed (the session closed, the tool call changed meanwhile), its state is kept per diff for
 * the readers to show.
 */
import { useEffect, useMemo } from 'react';
import { create } from 'zustand';
import { isDiffPreview, textsMatchPreview } from '../../common/diff/large-diff-preview';
import type { DiffContent, DiffPreviewContent } from '../../common/transcript/acp-types';
import type { Transcript } from '../../common/transcript/model';
import { api, errorText } from '../api/api-context';
import { mergeDiffTexts } from './sessions-store';

export type DiffFetch = { status: 'loading' } | { status: 'error'; message: string };

/** Fetches running or failed, by `diffKey`; a diff fetched and merged has no entry. */
export const useDiffFetches = create<{ byKey: Record<string, DiffFetch> }>(() => ({ byKey: {} }));

export function diffKey(sessionId: string, entryId: string, index: number): string {
  return `${sessionId}\u0000${entryId}\u0000${index}`;
}

function setFetch(key: string, state: DiffFetch | null): void {
  const byKey = { ...useDiffFetches.getState().byKey };
  if (state) byKey[key] = state;
  else delete byKey[key];
  useDiffFetches.setState({ byKey });
}

const running = new Map<string, Promise<DiffContent | null>>();

/**
 * Asks the core for the texts of `preview` (the `index`th content item of tool call `entryId`) and
 * merges them into the transcript. Resolves to the diff, or null when it could not be had (the state
 * then says why). One request per diff at a time.
 */
export function fetchDiffTexts(sessionId: string, entryId: string, index: number, preview: DiffPreviewContent): Promise<DiffContent | null> {
  const key = diffKey(sessionId, entryId, index);
  const known = running.get(key);
  if (known) return known;
  setFetch(key, { status: 'loading' });
  const done = (async () => {
    try {
      const { diff } = await api().request('session/diff-texts', { sessionId, entryId, index });
      if (!isFullDiff(diff) || !textsMatchPreview(preview, diff)) throw new Error('This diff changed since it was shown; its new version is on its way.');
      // Not merged: a later patch replaced the preview meanwhile (a reader would otherwise ask again and again).
      if (!mergeDiffTexts(sessionId, entryId, index, preview, diff)) throw new Error('This diff changed since it was shown; its new version is on its way.');
      setFetch(key, null);
      return diff;
    } catch (err) {
      setFetch(key, { status: 'error', message: errorText(err) });
      return null;
    } finally {
      running.delete(key);
    }
  })();
  running.set(key, done);
  return done;
}

function isFullDiff(d: unknown): d is DiffContent {
  const v = d as DiffContent | null;
  return typeof v === 'object' && v !== null && v.type === 'diff' && typeof v.path === 'string' && typeof v.newText === 'string' && (v.oldText === undefined || v.oldText === null || typeof v.oldText === 'string');
}

/** The state of one diff's fetch (undefined: none running, none failed). */
export function useDiffFetch(sessionId: string, entryId: string, index: number): DiffFetch | undefined {
  return useDiffFetches((s) => s.byKey[diffKey(sessionId, entryId, index)]);
}

/** Why one diff's fetch failed, read outside React (undefined: it did not fail). */
export function fetchError(sessionId: string, entryId: string, index: number): string | undefined {
  const st = useDiffFetches.getState().byKey[diffKey(sessionId, entryId, index)];
  return st?.status === 'error' ? st.message : undefined;
}

export interface PreviewRef {
  entryId: string;
  index: number;
  preview: DiffPreviewContent;
}

/** The previews among the content of the given tool calls (all of the transcript's by default). */
export function previewsIn(transcript: Pick<Transcript, 'ids' | 'entries'>, keep: (entryId: string) => boolean = () => true): PreviewRef[] {
  const out: PreviewRef[] = [];
  for (const id of transcript.ids) {
    const e = transcript.entries[id];
    if (e?.kind !== 'tool_call' || !keep(id)) continue;
    e.content.forEach((item, index) => {
      if (isDiffPreview(item)) out.push({ entryId: id, index, preview: item });
    });
  }
  return out;
}

/**
 * Fetches the texts of every preview in `refs` (a reader that needs them all: the changes panel,
 * a permission card) and says how many are still loading and the first error.
 */
export function useFullTexts(sessionId: string, refs: readonly PreviewRef[]): { loading: number; error: string | null } {
  useEffect(() => {
    // Not again after a failure: the reader offers to try again (`retryFullTexts`).
    for (const r of refs) if (!useDiffFetches.getState().byKey[diffKey(sessionId, r.entryId, r.index)]) void fetchDiffTexts(sessionId, r.entryId, r.index, r.preview);
  }, [sessionId, refs]);
  const byKey = useDiffFetches((s) => s.byKey);
  return useMemo(() => {
    let error: string | null = null;
    let failed = 0;
    for (const r of refs) {
      const st = byKey[diffKey(sessionId, r.entryId, r.index)];
      if (st?.status !== 'error') continue;
      failed++;
      error ??= st.message;
    }
    // A preview not fetched yet counts as loading: its fetch starts after this render.
    return { loading: refs.length - failed, error };
  }, [byKey, refs, sessionId]);
}

/** Tries the failed fetches among `refs` again. */
export function retryFullTexts(sessionId: string, refs: readonly PreviewRef[]): void {
  for (const r of refs) if (useDiffFetches.getState().byKey[diffKey(sessionId, r.entryId, r.index)]?.status === 'error') void fetchDiffTexts(sessionId, r.entryId, r.index, r.preview);
}
