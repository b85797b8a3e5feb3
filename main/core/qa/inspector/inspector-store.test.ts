import { rmSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { InspectorFilter } from '../../../../common/api/qa-types';
import type { TraceRecord } from '../../../../common/trace/records';
import { InspectorStore } from './inspector-store';
import { cleanUpTestTraces, openTestTrace } from './test-trace';
import { TraceLines } from './trace-lines';

const S = 'SESS1';
cleanUpTestTraces();

/**
 * A store fed as a connection feeds it: each record is appended to a real trace file first, and the
 * store gets its line number and where the line is — the store keeps no text, it reads it back.
 */
async function traced() {
  const writer = await openTestTrace('acpwb-inspector-');
  const store = new InspectorStore(new TraceLines(writer));
  let line = 1;
  const add = (record: TraceRecord, msgBytes?: Uint8Array): boolean => {
    const offset = writer.bytesAppended;
    writer.append(record, msgBytes);
    return store.add(record, ++line, msgBytes?.length, { offset, length: writer.bytesAppended - offset });
  };
  return { store, writer, add, feed: (records: TraceRecord[]) => records.forEach((r) => add(r)) };
}

const update = (t: number, kind: string, text?: string, sessionId: string | null = S): TraceRecord => ({
  kind: 'wire',
  t,
  dir: 'in',
  ...(sessionId ? { sessionId, agentSessionId: 'a1' } : { agentSessionId: 'a1' }),
  msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'a1', update: { sessionUpdate: kind, ...(text ? { content: { type: 'text', text } } : {}) } } },
});

const conversation: TraceRecord[] = [
  { kind: 'spawn', t: 1, pid: 42 },
  { kind: 'wire', t: 2, dir: 'out', msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } } },
  { kind: 'noise', t: 3, dir: 'in', text: 'Welcome to the agent' },
  { kind: 'wire', t: 10, dir: 'in', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } } },
  { kind: 'stderr', t: 11, text: 'debug: ready' },
  { kind: 'wire', t: 20, dir: 'out', sessionId: S, msg: { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 'a1', prompt: [] } } },
  update(21, 'agent_message_chunk', 'Hello there'),
  // The agent's own request 0: another id space than our request 0.
  { kind: 'wire', t: 22, dir: 'in', sessionId: S, msg: { jsonrpc: '2.0', id: 0, method: 'session/request_permission', params: { sessionId: 'a1', toolCall: { toolCallId: 'c1' }, options: [] } } },
  { kind: 'permission-decided', t: 30, sessionId: S, requestId: 0, outcome: 'selected', optionId: 'allow', by: 'user' },
  { kind: 'wire', t: 30.5, dir: 'out', sessionId: S, msg: { jsonrpc: '2.0', id: 0, result: { outcome: { outcome: 'selected', optionId: 'allow' } } } },
  update(31, 'tool_call'),
  { kind: 'wire', t: 40, dir: 'in', sessionId: S, msg: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } } },
  { kind: 'oversize', t: 41, dir: 'in', length: 40_000_000, sha256: 'ab', head: '{"jsonrpc"' },
];

const ids = async (store: InspectorStore, f: InspectorFilter) => (await store.matching(S, f)).slice(0, Infinity);

describe('InspectorStore', () => {
  it('lists messages, noise and stderr (not workbench events) with kind, method, update kind, id, size, and latency by direction and id', async () => {
    const { store, feed } = await traced();
    feed(conversation);
    const w = await store.window(S, {}, { offset: 0, limit: 100 });
    expect(w.all).toBe(11);
    expect(w.items.map((r) => [r.kind, r.dir, r.method ?? r.preview, r.updateKind ?? null, r.id ?? null])).toEqual([
      ['request', 'out', 'initialize', null, 0],
      ['noise', 'in', 'Welcome to the agent', null, null],
      ['response', 'in', 'initialize', null, 0],
      ['stderr', 'in', 'debug: ready', null, null],
      ['request', 'out', 'session/prompt', null, 1],
      ['notification', 'in', 'session/update', 'agent_message_chunk', null],
      ['request', 'in', 'session/request_permission', null, 0],
      ['response', 'out', 'session/request_permission', null, 0],
      ['notification', 'in', 'session/update', 'tool_call', null],
      ['response', 'in', 'session/prompt', null, 1],
      ['other', 'in', '(40000000 bytes, not kept) {"jsonrpc"', null, null],
    ]);
    const [init, , initAnswer] = w.items;
    expect(initAnswer).toMatchObject({ latency: 8, peer: 0, line: 5 });
    expect(init).toMatchObject({ latency: 8, peer: 2, line: 3 });
    const permissionAnswer = w.items[7]!;
    expect(permissionAnswer).toMatchObject({ latency: 8.5, peer: 6, sessionId: S });
    expect(w.items[9]).toMatchObject({ latency: 20, peer: 4, error: { code: -32603, message: 'Internal error' }, preview: '-32603 Internal error' });
    expect(w.items[5]!.preview).toBe('Hello there');
    expect(w.items[1]!.size).toBe('Welcome to the agent'.length);
    expect(w.items[0]!.size).toBe(JSON.stringify(conversation[1]!.kind === 'wire' ? conversation[1]!.msg : null).length);
    expect(w.facets).toEqual({ methods: ['initialize', 'session/prompt', 'session/request_permission', 'session/update'], updateKinds: ['agent_message_chunk', 'tool_call'] });
  });

  it('gives each row its own method and update kind when they repeat and alternate, as in a flood', async () => {
    const { store, feed } = await traced();
    const request = (t: number, id: number, method: string): TraceRecord => ({ kind: 'wire', t, dir: 'out', sessionId: S, msg: { jsonrpc: '2.0', id, method, params: { sessionId: 'a1' } } });
    feed([
      update(1, 'agent_message_chunk', 'a'),
      update(2, 'agent_message_chunk', 'b'),
      update(3, 'tool_call'),
      update(4, 'tool_call'),
      update(5, 'agent_message_chunk', 'c'),
      request(6, 1, 'session/prompt'),
      request(7, 2, 'session/prompt'),
      update(8, 'agent_message_chunk', 'd'),
      request(9, 3, 'session/set_mode'),
      update(10, 'tool_call'),
    ]);
    const w = await store.window(S, {}, { offset: 0, limit: 100 });
    expect(w.items.map((r) => `${r.method}/${r.updateKind ?? '-'}`)).toEqual([
      'session/update/agent_message_chunk',
      'session/update/agent_message_chunk',
      'session/update/tool_call',
      'session/update/tool_call',
      'session/update/agent_message_chunk',
      'session/prompt/-',
      'session/prompt/-',
      'session/update/agent_message_chunk',
      'session/set_mode/-',
      'session/update/tool_call',
    ]);
    expect(await ids(store, { methods: ['session/prompt'] })).toEqual([5, 6]);
    expect(await ids(store, { updateKinds: ['tool_call'] })).toEqual([2, 3, 9]);
    // An empty name is a name too, the first row's included.
    const first = await traced();
    first.feed([request(1, 1, ''), update(2, '')]);
    expect((await first.store.window(S, {}, { offset: 0, limit: 10 })).items.map((r) => [r.method, r.updateKind])).toEqual([
      ['', undefined],
      ['session/update', ''],
    ]);
  });

  it('filters by direction, kind, method, update kind and text, and combines them', async () => {
    const { store, feed } = await traced();
    feed(conversation);
    expect(await ids(store, { dirs: ['out'] })).toEqual([0, 4, 7]);
    expect(await ids(store, { kinds: ['noise', 'stderr'] })).toEqual([1, 3]);
    expect(await ids(store, { methods: ['session/request_permission'] })).toEqual([6, 7]);
    expect(await ids(store, { methods: ['never/seen'] })).toEqual([]);
    expect(await ids(store, { updateKinds: ['never_seen'] })).toEqual([]);
    expect(await ids(store, { updateKinds: ['tool_call'] })).toEqual([8]);
    expect(await ids(store, { search: 'HELLO' })).toEqual([5]);
    expect(await ids(store, { search: 'allow', dirs: ['out'] })).toEqual([7]);
    expect(await ids(store, { indexes: [7, 0, 99, 7], dirs: ['out'] })).toEqual([0, 7]);
    expect(await ids(store, { indexes: [5, 6, 7], search: 'allow' })).toEqual([7]);
    // The message's JSON is searched, not the record around it ("wire", "dir", the session id).
    expect(await ids(store, { search: 'wire' })).toEqual([]);
    expect(await ids(store, { search: '"optionid":"allow"' })).toEqual([7]);
  });

  it('keeps a filtered list per query and extends it as rows arrive', async () => {
    const { store, feed, add } = await traced();
    feed(conversation);
    expect((await store.window(S, { kinds: ['stderr'] }, { limit: 10 })).total).toBe(1);
    expect((await store.window(S, { search: 'more' }, { limit: 10 })).total).toBe(0);
    add({ kind: 'stderr', t: 50, text: 'more' });
    const w = await store.window(S, { kinds: ['stderr'] }, { limit: 10 });
    expect(w.items.map((r) => r.preview)).toEqual(['debug: ready', 'more']);
    expect((await store.window(S, { search: 'MORE' }, { limit: 10 })).items.map((r) => r.index)).toEqual([11]);
    expect(store.rowOfLine(15)).toBe(11);
    expect(store.rowOfLine(10)).toBeUndefined(); // the permission-decided event: no row
    expect((await store.window(S, { kinds: ['stderr'] }, { limit: 0, locate: 11 })).located).toBe(1);
    expect((await store.window(S, { kinds: ['stderr'] }, { limit: 0, locate: 2 })).located).toBeNull();
  });

  it('scopes to a session: its records and the connection-wide ones; held records join when their session is bound', async () => {
    const { store, feed, add } = await traced();
    feed(conversation);
    const held = update(60, 'agent_thought_chunk', 'thinking', null);
    add(held);
    add({ kind: 'wire', t: 61, dir: 'in', sessionId: 'OTHER', msg: { jsonrpc: '2.0', method: 'session/update', params: {} } });
    expect(await ids(store, {})).not.toContain(11);
    expect(await ids(store, { search: 'thinking' })).toEqual([]);
    expect(await ids(store, {})).not.toContain(12);
    expect(await ids(store, { scope: 'connection' })).toContain(12);
    held.sessionId = S; // the router tags held records in place when the session/new answer arrives
    expect(await ids(store, {})).toContain(11);
    expect(await ids(store, { search: 'thinking' })).toEqual([11]);
    // The trace line was written before the binding: what is read back carries the session all the same.
    expect((await store.message(11))?.record).toMatchObject({ sessionId: S });
    expect((await store.window(S, { search: 'thinking' }, { limit: 5 })).items[0]).toMatchObject({ sessionId: S });
    expect(JSON.parse((await store.exportJsonl(S, { search: 'thinking' })).text)).toMatchObject({ sessionId: S, agentSessionId: 'a1' });
  });

  it('gives one message in full and exports the filtered records as JSONL, reading both from the trace file', async () => {
    const { store, feed, writer } = await traced();
    feed(conversation);
    // Nothing was flushed yet: reading back flushes the writer first.
    expect(writer.pendingBytes).toBeGreaterThan(0);
    expect((await store.message(6))?.record).toEqual(conversation[7]);
    expect(await store.message(99)).toBeUndefined();
    const out = await store.exportJsonl(S, { methods: ['session/request_permission'] });
    expect(out.count).toBe(2);
    expect(out.text.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([conversation[7], conversation[9]]);
  });

  it('reads an agent line back as the agent wrote it (its own bytes in the trace), and keeps in memory a record the closed trace did not get', async () => {
    const { store, add, writer } = await traced();
    const text = '{ "jsonrpc": "2.0", "method": "session/update", "params": {"sessionId":"a1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"caf\\u00e9 \\"quoted\\""}}}}';
    const record: TraceRecord = { kind: 'wire', t: 5, dir: 'in', sessionId: S, msg: JSON.parse(text) as Record<string, unknown> } as TraceRecord;
    add(record, Buffer.from(text));
    const message = await store.message(0);
    expect(message?.record).toEqual(record);
    expect(message?.row).toMatchObject({ size: Buffer.byteLength(text), preview: 'café "quoted"' });
    // The search looks in the message's JSON: the escape in the line is no obstacle, a quote is escaped.
    expect(await ids(store, { search: 'CAFÉ' })).toEqual([0]);
    expect(await ids(store, { search: 'café \\"quoted' })).toEqual([0]);
    expect(await ids(store, { search: 'café "quoted' })).toEqual([]);
    expect((await store.exportJsonl(S, {})).text).toBe(`{"kind":"wire","t":5,"dir":"in","sessionId":"${S}","msg":${text}}\n`);
    await writer.close();
    const late: TraceRecord = { kind: 'stderr', t: 9, text: 'after the end' };
    expect(store.add(late, 3)).toBe(true); // a closed trace: no span
    expect((await store.message(1))?.record).toEqual(late);
    expect(await ids(store, { search: 'after the end' })).toEqual([1]);
  });

  it('says what happened when the trace file is gone', async () => {
    const { store, feed, writer } = await traced();
    feed(conversation);
    await writer.close();
    rmSync(writer.path);
    await expect(store.message(0)).rejects.toThrow(/Could not read the message back from the trace file .*conn\.jsonl/);
  });

  it('searches in bounded batches (the event loop turns between them), not in one long scan', async () => {
    const { store, add } = await traced();
    const filler = 'x'.repeat(1000);
    for (let i = 0; i < 10_000; i++) add(update(i, 'agent_message_chunk', `${filler} ${i}`));
    const reads = vi.spyOn(TraceLines.prototype, 'read');
    let turns = 0;
    let searching = true;
    const tick = () => {
      turns++;
      if (searching) setImmediate(tick);
    };
    setImmediate(tick);
    const found = await store.window(S, { search: `${filler} 9999` }, { limit: 5 });
    searching = false;
    expect(found.items.map((r) => r.index)).toEqual([9999]);
    // ~11 MB of lines: read (and then searched) a batch of at most ~1 MiB at a time.
    const batches = reads.mock.calls.map(([spans]) => spans.reduce((n, s) => n + s.length, 0)).filter((bytes) => bytes > 0);
    reads.mockRestore();
    expect(batches.length).toBeGreaterThan(9);
    expect(Math.max(...batches)).toBeLessThan(1024 * 1024 + 4096);
    expect(turns).toBeGreaterThan(batches.length);
  });

  it('windows, filters and searches over 100,000 rows; the search reads the rows other filters let through', async () => {
    const { store, add } = await traced();
    for (let i = 0; i < 100_000; i++) add(update(i, i % 10 === 0 ? 'tool_call' : 'agent_message_chunk', `chunk ${i}`));
    expect((await store.window(S, {}, { offset: 99_900, limit: 200 })).items).toHaveLength(100);
    const search = await store.window(S, { search: 'chunk 9999' }, { offset: 0, limit: 200 });
    expect(search.total).toBe(11); // 9999 and 99990..99999
    expect(search.items.map((r) => r.preview)).toEqual(['chunk 9999', ...Array.from({ length: 10 }, (_, k) => `chunk 9999${k}`)]);
    expect((await store.window(S, { search: 'chunk 9999', updateKinds: ['tool_call'] }, { limit: 200 })).items.map((r) => r.index)).toEqual([99_990]);
    add(update(100_001, 'agent_message_chunk', 'chunk 99999x'));
    expect((await store.window(S, { search: 'chunk 9999' }, { offset: 0, limit: 200 })).total).toBe(12);
  });
});
