import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../../common/trace/records';
import { InspectorStore } from './inspector-store';

const S = 'SESS1';

function feed(store: InspectorStore, records: TraceRecord[]): void {
  records.forEach((r, i) => store.add(r, i + 2));
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

describe('InspectorStore', () => {
  it('lists messages, noise and stderr (not workbench events) with kind, method, update kind, id, size, and latency by direction and id', () => {
    const store = new InspectorStore();
    feed(store, conversation);
    const w = store.window(S, {}, { offset: 0, limit: 100 });
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
    expect(permissionAnswer).toMatchObject({ latency: 8.5, peer: 6 });
    expect(w.items[9]).toMatchObject({ latency: 20, peer: 4, error: { code: -32603, message: 'Internal error' }, preview: '-32603 Internal error' });
    expect(w.items[5]!.preview).toBe('Hello there');
    expect(w.items[1]!.size).toBe('Welcome to the agent'.length);
    expect(w.items[0]!.size).toBe(JSON.stringify(conversation[1]!.kind === 'wire' ? conversation[1]!.msg : null).length);
    expect(w.facets).toEqual({ methods: ['initialize', 'session/prompt', 'session/request_permission', 'session/update'], updateKinds: ['agent_message_chunk', 'tool_call'] });
  });

  it('filters by direction, kind, method, update kind and text, and combines them', () => {
    const store = new InspectorStore();
    feed(store, conversation);
    const idx = (f: Parameters<InspectorStore['matching']>[1]) => store.matching(S, f);
    expect(idx({ dirs: ['out'] })).toEqual([0, 4, 7]);
    expect(idx({ kinds: ['noise', 'stderr'] })).toEqual([1, 3]);
    expect(idx({ methods: ['session/request_permission'] })).toEqual([6, 7]);
    expect(idx({ updateKinds: ['tool_call'] })).toEqual([8]);
    expect(idx({ search: 'HELLO' })).toEqual([5]);
    expect(idx({ search: 'allow', dirs: ['out'] })).toEqual([7]);
    expect(idx({ indexes: [7, 0, 99, 7], dirs: ['out'] })).toEqual([0, 7]);
  });

  it('keeps a filtered list per query and extends it as rows arrive', () => {
    const store = new InspectorStore();
    feed(store, conversation);
    expect(store.window(S, { kinds: ['stderr'] }, { limit: 10 }).total).toBe(1);
    store.add({ kind: 'stderr', t: 50, text: 'more' }, 100);
    const w = store.window(S, { kinds: ['stderr'] }, { limit: 10 });
    expect(w.items.map((r) => r.preview)).toEqual(['debug: ready', 'more']);
    expect(store.rowOfLine(100)).toBe(11);
    expect(store.rowOfLine(10)).toBeUndefined(); // the permission-decided event: no row
    expect(store.window(S, { kinds: ['stderr'] }, { limit: 0, locate: 11 }).located).toBe(1);
    expect(store.window(S, { kinds: ['stderr'] }, { limit: 0, locate: 2 }).located).toBeNull();
  });

  it('scopes to a session: its records and the connection-wide ones; held records join when their session is bound', () => {
    const store = new InspectorStore();
    feed(store, conversation);
    const held = update(60, 'agent_thought_chunk', 'thinking', null);
    store.add(held, 200);
    store.add({ kind: 'wire', t: 61, dir: 'in', sessionId: 'OTHER', msg: { jsonrpc: '2.0', method: 'session/update', params: {} } }, 201);
    expect(store.matching(S, {})).not.toContain(11);
    expect(store.matching(S, {})).not.toContain(12);
    expect(store.matching(S, { scope: 'connection' })).toContain(12);
    held.sessionId = S; // the router tags held records in place when the session/new answer arrives
    expect(store.matching(S, {})).toContain(11);
  });

  it('gives one message in full and exports the filtered records as JSONL', () => {
    const store = new InspectorStore();
    feed(store, conversation);
    expect(store.message(6)?.record).toBe(conversation[7]);
    expect(store.message(99)).toBeUndefined();
    const out = store.exportJsonl(S, { methods: ['session/request_permission'] });
    expect(out.count).toBe(2);
    expect(out.text.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([conversation[7], conversation[9]]);
  });

  it('answers windows over 100,000 rows quickly, filtered and searched', () => {
    const store = new InspectorStore();
    for (let i = 0; i < 100_000; i++) store.add(update(i, i % 10 === 0 ? 'tool_call' : 'agent_message_chunk', `chunk ${i}`), i + 2);
    let t0 = performance.now();
    expect(store.window(S, {}, { offset: 99_900, limit: 200 }).items).toHaveLength(100);
    const search = store.window(S, { search: 'chunk 9999' }, { offset: 0, limit: 200 });
    expect(search.total).toBe(11); // 9999 and 99990..99999
    const first = performance.now() - t0;
    t0 = performance.now();
    for (let i = 0; i < 50; i++) store.window(S, { search: 'chunk 9999' }, { offset: i * 10, limit: 200 });
    store.add(update(100_001, 'agent_message_chunk', 'chunk 99999x'), 100_003);
    expect(store.window(S, { search: 'chunk 9999' }, { offset: 0, limit: 200 }).total).toBe(12);
    const again = performance.now() - t0;
    expect(first).toBeLessThan(3000);
    expect(again).toBeLessThan(100);
  });
});
