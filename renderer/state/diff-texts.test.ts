import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkbenchApi } from '../../common/api/client';
import type { LiveSessionSummary, SessionPatchesEvent } from '../../common/api/session-api-types';
import { previewOfDiff } from '../../common/diff/large-diff-preview';
import type { DiffContent } from '../../common/transcript/acp-types';
import { toolCallEntry } from '../../common/transcript/test-entries';
import type { Entry, ToolCallEntry } from '../../common/transcript/model';
import { windowEntry } from '../../common/transcript/window-diffs';
import { setApi } from '../api/api-context';
import { diffKey, fetchDiffTexts, previewsIn, useDiffFetches } from './diff-texts';
import { connectSessionsStore, useSessions } from './sessions-store';

const side = (tag: string) => Array.from({ length: 300 }, (_, i) => `${tag} line number ${i} of the file`).join('\n');
const big: DiffContent = { type: 'diff', path: '/p/big.ts', oldText: side('old'), newText: side('new') };
const note = { type: 'content', content: { type: 'text', text: 'why' } } as const;
const call = toolCallEntry('e1', { status: 'completed', content: [note, big] });

/** A core with one session whose tool call e1 has a large diff: the window gets it as the core's windowEntry makes it. */
function fakeCore(answer: (params: { sessionId: string; entryId: string; index: number }) => Promise<{ diff: DiffContent }>) {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const summary = { sessionId: 's1', status: { status: 'ready' }, entryCount: 1 } as unknown as LiveSessionSummary;
  const asked: unknown[] = [];
  const api = {
    on(name: string, listener: (p: unknown) => void) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(listener);
      return () => listeners.get(name)!.delete(listener);
    },
    async request(name: string, params: { sessionId: string; entryId: string; index: number }) {
      await Promise.resolve();
      if (name === 'sessions/live') return [summary];
      if (name === 'session/snapshot') return { ...summary, session: { turn: 1, turnStatus: 'idle' }, fileChanges: [], terminals: {}, seq: 0, elicitations: [] };
      if (name === 'session/entries') return { items: [windowEntry(structuredClone(call))], offset: 0, total: 1, seq: 0 };
      if (name === 'session/diff-texts') {
        asked.push(params);
        return answer(params);
      }
      throw new Error(`unexpected request ${name}`);
    },
  } as unknown as WorkbenchApi;
  const emit = (event: SessionPatchesEvent) => listeners.get('session/patches')?.forEach((l) => l(event));
  return { api, asked, emit };
}

const shown = () => useSessions.getState().views.s1?.transcript.entries.e1 as ToolCallEntry | undefined;

async function connected(answer: Parameters<typeof fakeCore>[0]) {
  useSessions.setState({ order: [], views: {}, frame: 0 });
  useDiffFetches.setState({ byKey: {} });
  const core = fakeCore(answer);
  setApi(core.api);
  const off = connectSessionsStore(core.api);
  offs.push(off);
  await vi.waitFor(() => expect(shown()?.content[1]?.type).toBe('diff_preview'), { timeout: 10_000 });
  const [ref] = previewsIn(useSessions.getState().views.s1!.transcript);
  return { ...core, ref: ref! };
}

const offs: Array<() => void> = [];
afterEach(() => offs.splice(0).forEach((off) => off()));

describe('fetched diff texts', () => {
  it('take the preview’s place in the shown transcript; the rest of the entry is unchanged, one request for two readers', async () => {
    const { ref, asked } = await connected(async () => ({ diff: structuredClone(big) }));
    expect(ref).toMatchObject({ entryId: 'e1', index: 1, preview: previewOfDiff(big) });
    const before = shown()!;
    const [a, b] = await Promise.all([fetchDiffTexts('s1', 'e1', 1, ref.preview), fetchDiffTexts('s1', 'e1', 1, ref.preview)]);
    expect(a).toEqual(big);
    expect(b).toBe(a);
    expect(asked).toEqual([{ sessionId: 's1', entryId: 'e1', index: 1 }]);
    const after = shown()!;
    expect(after).not.toBe(before); // a new entry object: its row renders again
    expect(after.content).toEqual([note, big]);
    expect({ ...after, content: [] }).toEqual({ ...before, content: [] });
    expect(useDiffFetches.getState().byKey[diffKey('s1', 'e1', 1)]).toBeUndefined();
  });

  it('keep a clear error, and the preview, when the session is gone', async () => {
    const { ref } = await connected(async () => {
      throw Object.assign(new Error('No live session s1'), { hint: 'It may have been closed; open it from history.' });
    });
    expect(await fetchDiffTexts('s1', 'e1', 1, ref.preview)).toBeNull();
    expect(useDiffFetches.getState().byKey[diffKey('s1', 'e1', 1)]).toEqual({ status: 'error', message: 'No live session s1 — It may have been closed; open it from history.' });
    expect(shown()!.content[1]!.type).toBe('diff_preview');
  });

  it('are refused when they are not the texts previewed (the tool call changed meanwhile)', async () => {
    const { ref } = await connected(async () => ({ diff: { ...big, newText: `${big.newText}\nmore` } }));
    expect(await fetchDiffTexts('s1', 'e1', 1, ref.preview)).toBeNull();
    expect(useDiffFetches.getState().byKey[diffKey('s1', 'e1', 1)]).toMatchObject({ status: 'error' });
    expect(shown()!.content[1]!.type).toBe('diff_preview');
  });

  it('do not overwrite content a later patch replaced', async () => {
    let release!: () => void;
    const { ref, emit } = await connected(() => new Promise((resolve) => (release = () => resolve({ diff: structuredClone(big) }))));
    const pending = fetchDiffTexts('s1', 'e1', 1, ref.preview);
    await vi.waitFor(() => expect(release).toBeDefined(), { timeout: 10_000 });
    const replaced = [note, { type: 'diff', path: '/p/other.ts', oldText: 'a', newText: 'b' }] as ToolCallEntry['content'];
    emit({ sessionId: 's1', seq: 1, patches: [{ op: 'patch-tool-call', id: 'e1', fields: { content: replaced } }] });
    await vi.waitFor(() => expect(shown()!.content).toEqual(replaced), { timeout: 10_000 });
    release();
    expect(await pending).toBeNull(); // and an error, so that no reader asks again for what is gone
    expect(useDiffFetches.getState().byKey[diffKey('s1', 'e1', 1)]).toMatchObject({ status: 'error' });
    expect(shown()!.content).toEqual(replaced);
  });
});

describe('previewsIn', () => {
  it('lists the previews of the tool calls kept', () => {
    const e2 = windowEntry(toolCallEntry('e2', { content: [big, note, big] }));
    const entries: Record<string, Entry> = { e1: windowEntry(call), e2, e3: toolCallEntry('e3') };
    const all = previewsIn({ ids: ['e1', 'e2', 'e3'], entries });
    expect(all.map((r) => [r.entryId, r.index])).toEqual([['e1', 1], ['e2', 0], ['e2', 2]]);
    expect(previewsIn({ ids: ['e1', 'e2', 'e3'], entries }, (id) => id === 'e2')).toHaveLength(2);
  });
});
