import { describe, expect, it, vi } from 'vitest';
import type { WorkbenchApi } from '../../common/api/client';
import type { LiveSessionSummary } from '../../common/api/session-api-types';
import { emptyTranscript, type AgentMessageEntry, type Entry, type Transcript } from '../../common/transcript/model';
import type { Patch } from '../../common/transcript/patches';
import { TranscriptApplier } from '../../common/transcript/apply-patches';
import { MAX_WINDOW } from '../../common/api/window';
import { connectSessionsStore, FIRST_WINDOW, markSending, OLDER_WINDOW, useSessions } from './sessions-store';

/**
 * A core holding one session's transcript, answering as the real bridges do: the patches emitted
 * before an answer are delivered before it. `beforeEntries(k)` runs before the k-th entries answer.
 */
function fakeCore(count: number, beforeEntries: (k: number, emit: (patches: Patch[]) => void) => void, cutTo = Infinity, sessionId = 's1') {
  const entry = (i: number): AgentMessageEntry => ({ id: `e${i}`, kind: 'agent_message', t: i, turn: 1, content: [{ type: 'text', text: `m${i}` }] });
  const core = new TranscriptApplier({ ...emptyTranscript(), ids: [], entries: {} });
  core.apply(Array.from({ length: count }, (_, i) => ({ op: 'append-entry', entry: entry(i + 1) }) as Patch));
  let seq = 0;
  let entriesAsked = 0;
  const requests: Array<{ offset: number; limit: number; fromEnd?: boolean }> = [];
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const summary = { sessionId, status: { status: 'ready' }, entryCount: count } as unknown as LiveSessionSummary;
  /** `deliver: false`: the batch is lost on the way (a dropped connection). */
  const emit = (patches: Patch[], deliver = true) => {
    core.apply(patches);
    seq++;
    if (deliver) for (const l of listeners.get('session/patches') ?? []) l({ sessionId, seq, patches });
  };
  const api = {
    on(name: string, listener: (p: unknown) => void) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(listener);
      return () => listeners.get(name)!.delete(listener);
    },
    async request(name: string, params: { offset: number; limit: number; fromEnd?: boolean }) {
      await Promise.resolve();
      if (name === 'sessions/live') return [summary];
      if (name === 'session/snapshot') return { ...summary, session: { turn: 1, turnStatus: 'idle' }, fileChanges: [], terminals: {}, seq, elicitations: [] };
      if (name === 'session/entries') {
        requests.push({ offset: params.offset, limit: params.limit, ...(params.fromEnd ? { fromEnd: true } : {}) });
        beforeEntries(entriesAsked++, emit);
        const t = core.snapshot();
        const end = Math.min(t.ids.length, params.offset + params.limit);
        // A core that bounds windows by bytes keeps their end when asked to (here: `cutTo` entries).
        const offset = params.fromEnd ? Math.max(params.offset, end - cutTo) : params.offset;
        const items = t.ids.slice(offset, end).map((id) => structuredClone(t.entries[id]!));
        return { items, offset, total: t.ids.length, seq };
      }
      throw new Error(`unexpected request ${name}`);
    },
  } as unknown as WorkbenchApi;
  const status = (status: string) => {
    for (const l of listeners.get('session/status') ?? []) l({ sessionId, status: { status }, waiting: 0 });
  };
  return { api, requests, emit, status, transcript: () => core.snapshot() };
}

const textOf = (e: Entry | undefined) => (e as AgentMessageEntry).content.map((b) => (b.type === 'text' ? b.text : '')).join('');

describe('sessions store: loading a transcript', () => {
  it('shows the end first, then joins the older entries with every patch about them applied once', async () => {
    const count = 1000;
    let loadedWhenOlderAsked: number | null = null;
    const { api, requests } = fakeCore(count, (k, emit) => {
      const view = useSessions.getState().views.s1;
      if (k === 1) loadedWhenOlderAsked = view?.loaded && !view.complete ? view.transcript.ids.length : -1;
      // While the older windows load, the agent writes to an old entry, to a tail entry and appends one.
      if (k === 3) {
        emit([{ op: 'append-text', id: 'e5', text: '+old' }]); // in a window not fetched yet
        emit([{ op: 'append-text', id: `e${count - 200}`, text: '+fetched' }]); // in a window already here
        emit([{ op: 'append-text', id: `e${count}`, text: '+tail' }]);
        emit([{ op: 'append-entry', entry: { id: 'e9999', kind: 'agent_message', t: 0, turn: 1, content: [{ type: 'text', text: 'new' }] } as Entry }]);
      }
    });
    const off = connectSessionsStore(api);
    try {
      await vi.waitFor(() => expect(useSessions.getState().views.s1?.transcript.ids.length).toBe(count + 1), { timeout: 10_000 });
      expect(loadedWhenOlderAsked).toBe(FIRST_WINDOW); // the end was in the store before the older part was asked for
      expect(requests[0]).toEqual({ offset: count - FIRST_WINDOW, limit: expect.any(Number), fromEnd: true });
      expect(requests[1]!.limit).toBe(OLDER_WINDOW); // the first older window is small; quick ones let the next grow
      expect(requests.slice(2).every((r) => r.limit <= MAX_WINDOW)).toBe(true);
      expect(useSessions.getState().views.s1!.complete).toBe(true);
      const t = useSessions.getState().views.s1!.transcript;
      expect(t.ids).toEqual([...Array.from({ length: count }, (_, i) => `e${i + 1}`), 'e9999']);
      expect(textOf(t.entries.e5)).toBe('m5+old');
      expect(textOf(t.entries[`e${count - 200}`])).toBe(`m${count - 200}+fetched`);
      expect(textOf(t.entries[`e${count}`])).toBe(`m${count}+tail`);
    } finally {
      off();
    }
  });

  it('loads every older entry, in order, when the core cuts the windows short (bounded by bytes, their end kept)', async () => {
    useSessions.setState({ order: [], views: {}, frame: 0 }); // a fresh window
    const count = 700;
    const { api, requests } = fakeCore(count, () => {}, 37);
    const off = connectSessionsStore(api);
    try {
      await vi.waitFor(() => expect(useSessions.getState().views.s1?.complete).toBe(true), { timeout: 10_000 });
      const t = useSessions.getState().views.s1!.transcript;
      expect(t.ids).toEqual(Array.from({ length: count }, (_, i) => `e${i + 1}`));
      expect(Object.keys(t.entries)).toHaveLength(count);
      expect(requests[0]!.fromEnd).toBe(true); // the end, too, is cut to its last entries
      expect(useSessions.getState().views.s1!.transcript.entries[`e${count}`]).toBeDefined();
      const older = requests.slice(1);
      expect(older.every((r) => r.fromEnd === true)).toBe(true);
      // Each window asked ends where the previous answer started.
      expect(older.length).toBeGreaterThanOrEqual(Math.ceil((count - FIRST_WINDOW) / 37));
    } finally {
      off();
    }
  });
});

describe('sessions store: patches that never arrived', () => {
  const entry = (id: string, text: string) => ({ id, kind: 'agent_message', t: 0, turn: 1, content: [{ type: 'text', text }] }) as Entry;
  const shown = (sessionId: string) => useSessions.getState().views[sessionId];
  const sameAsCore = (sessionId: string, core: { transcript: () => Transcript }) => {
    const t = shown(sessionId)!.transcript;
    expect(t.ids).toEqual(core.transcript().ids);
    for (const id of t.ids) expect(textOf(t.entries[id])).toBe(textOf(core.transcript().entries[id]));
  };

  it('a skipped batch number reloads the transcript, and later batches apply on top of the reload', async () => {
    const core = fakeCore(300, () => {}, Infinity, 'gap');
    const off = connectSessionsStore(core.api);
    try {
      await vi.waitFor(() => expect(shown('gap')?.complete).toBe(true), { timeout: 10_000 });
      core.emit([{ op: 'append-text', id: 'e300', text: '+one' }]);
      core.emit([{ op: 'append-text', id: 'e300', text: '+lost' }], false);
      core.emit([{ op: 'append-entry', entry: entry('n1', 'after the gap') }]);
      await vi.waitFor(() => expect(shown('gap')?.transcript.ids.at(-1)).toBe('n1'), { timeout: 10_000 });
      await vi.waitFor(() => expect(shown('gap')?.stale).toBe(false), { timeout: 10_000 });
      expect(textOf(shown('gap')!.transcript.entries.e300)).toBe('m300+one+lost');
      core.emit([{ op: 'append-text', id: 'n1', text: ', and more' }]);
      await vi.waitFor(() => expect(textOf(shown('gap')!.transcript.entries.n1)).toBe('after the gap, and more'), { timeout: 10_000 });
      sameAsCore('gap', core);
    } finally {
      off();
    }
  });

  it('a shown transcript reloaded after a reconnect applies what streams meanwhile once, and shows only when whole', async () => {
    let reloading = false;
    let asked = 0;
    const core = fakeCore(
      1000,
      (_k, emit) => {
        if (!reloading) return;
        asked++;
        // While the reload's windows come in, the agent writes to an old entry, the last one, and appends.
        if (asked === 2) emit([{ op: 'append-text', id: 'e5', text: '+old' }]);
        if (asked === 3) emit([{ op: 'append-text', id: 'e1000', text: '+tail' }]);
        if (asked === 4) emit([{ op: 'append-entry', entry: entry('n2', 'appended during the reload') }]);
      },
      Infinity,
      'busy',
    );
    let off = connectSessionsStore(core.api);
    await vi.waitFor(() => expect(shown('busy')?.complete).toBe(true), { timeout: 10_000 });
    off();
    core.emit([{ op: 'append-entry', entry: entry('n1', 'written while away') }]);
    const lengths: number[] = [];
    const unsubscribe = useSessions.subscribe((s) => lengths.push(s.views.busy?.transcript.ids.length ?? 0));
    reloading = true;
    off = connectSessionsStore(core.api);
    try {
      await vi.waitFor(() => expect(shown('busy')?.transcript.ids.at(-1)).toBe('n2'), { timeout: 10_000 });
      await vi.waitFor(() => expect(shown('busy')?.stale).toBe(false), { timeout: 10_000 });
      expect(asked).toBeGreaterThanOrEqual(4); // the reload took several windows
      expect(Math.min(...lengths)).toBe(1000);
      sameAsCore('busy', core);
      expect(textOf(shown('busy')!.transcript.entries.e5)).toBe('m5+old');
      expect(textOf(shown('busy')!.transcript.entries.e1000)).toBe('m1000+tail');
      core.emit([{ op: 'append-text', id: 'n2', text: ', and after' }]);
      await vi.waitFor(() => expect(textOf(shown('busy')!.transcript.entries.n2)).toBe('appended during the reload, and after'), { timeout: 10_000 });
    } finally {
      unsubscribe();
      off();
    }
  });

  it('a new connection reloads the transcripts shown: what changed while disconnected shows', async () => {
    const core = fakeCore(300, () => {}, Infinity, 'away');
    let off = connectSessionsStore(core.api);
    await vi.waitFor(() => expect(shown('away')?.complete).toBe(true), { timeout: 10_000 });
    off(); // the connection drops; the core goes on
    core.emit([{ op: 'append-text', id: 'e1', text: '+while away' }]);
    core.emit([{ op: 'append-entry', entry: entry('n1', 'written while away') }]);
    expect(shown('away')!.transcript.ids.at(-1)).toBe('e300'); // nothing reached the store
    // Every transcript the store shows from now on: the reload must not show its end alone first.
    const lengths: number[] = [];
    const unsubscribe = useSessions.subscribe((s) => lengths.push(s.views.away?.transcript.ids.length ?? 0));
    off = connectSessionsStore(core.api);
    try {
      await vi.waitFor(() => expect(shown('away')?.transcript.ids.at(-1)).toBe('n1'), { timeout: 10_000 });
      await vi.waitFor(() => expect(shown('away')?.complete).toBe(true), { timeout: 10_000 });
      expect(shown('away')!.stale).toBe(false);
      // Shown whole in one go: a reader scrolled up keeps the entries around them.
      expect(Math.min(...lengths)).toBe(300);
      expect(lengths.at(-1)).toBe(301);
      expect(new Set(lengths)).toEqual(new Set([300, 301]));
      expect(shown('away')!.seq).toBe(2);
      sameAsCore('away', core);
      expect(textOf(shown('away')!.transcript.entries.e1)).toBe('m1+while away');
    } finally {
      unsubscribe();
      off();
    }
  });
});

describe('sessions store: a status and the patches before it', () => {
  const shown = (sessionId: string) => useSessions.getState().views[sessionId];
  it('a status that follows patches still waiting for the frame shows with them, never before them', async () => {
    const core = fakeCore(10, () => {}, Infinity, 'order');
    const off = connectSessionsStore(core.api);
    // Every (status, entry count) the store has shown.
    const seen: Array<[string, number]> = [];
    const unsubscribe = useSessions.subscribe((st) => {
      const v = st.views.order;
      if (v?.loaded) seen.push([v.summary.status.status, v.transcript.ids.length]);
    });
    try {
      await vi.waitFor(() => expect(shown('order')?.complete).toBe(true), { timeout: 10_000 });
      core.status('working');
      expect(shown('order')!.summary.status.status).toBe('working'); // nothing waiting: at once
      seen.length = 0;
      // The turn's last entries, then its end, in the core's order: the status must not overtake them.
      core.emit([{ op: 'append-entry', entry: { id: 'last', kind: 'agent_message', t: 0, turn: 1, content: [{ type: 'text', text: 'done' }] } as Entry }]);
      core.status('ready');
      expect(shown('order')!.summary.status.status).toBe('working');
      await vi.waitFor(() => expect(shown('order')!.summary.status.status).toBe('ready'), { timeout: 10_000 });
      expect(shown('order')!.transcript.ids.at(-1)).toBe('last');
      expect(seen.filter(([status, n]) => status === 'ready' && n !== 11)).toEqual([]);
    } finally {
      unsubscribe();
      off();
    }
  });
});

describe('sessions store: a prompt on its way', () => {
  const shown = (sessionId: string) => useSessions.getState().views[sessionId];
  it('is sending from the send until the next status of the session; a status from before the send does not end it', async () => {
    const core = fakeCore(3, () => {}, Infinity, 'send');
    const off = connectSessionsStore(core.api);
    try {
      await vi.waitFor(() => expect(shown('send')?.complete).toBe(true), { timeout: 10_000 });
      markSending(['send', 'not-a-session'], true);
      expect(shown('send')!.sending).toBe(true);
      expect(shown('not-a-session')).toBeUndefined();
      core.status('prompting');
      expect(shown('send')!.sending).toBe(false);
      expect(shown('send')!.summary.status.status).toBe('prompting');

      // The end of the last turn is still waiting for its frame when the next prompt leaves.
      core.emit([{ op: 'append-text', id: 'e3', text: ' and the end' }]);
      core.status('ready');
      markSending(['send'], true);
      expect(shown('send')!.summary.status.status).toBe('ready');
      await vi.waitFor(() => expect(textOf(shown('send')!.transcript.entries.e3)).toBe('m3 and the end'), { timeout: 10_000 });
      expect(shown('send')!.sending).toBe(true);
      // A failed request ends it too.
      markSending(['send'], false);
      expect(shown('send')!.sending).toBe(false);
    } finally {
      off();
    }
  });
});
