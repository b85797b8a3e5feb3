import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json';
import type { TraceRecord } from './records';
import { listTraceSessions, recordsForSession } from './sessions';

let t = 0;
const wire = (dir: 'in' | 'out', msg: JsonObject, tags: { sessionId?: string; agentSessionId?: string } = {}): TraceRecord => ({ kind: 'wire', t: ++t, dir, msg: { jsonrpc: '2.0', ...msg }, ...tags });
const chunk = (agentId: string, text: string) => wire('in', { method: 'session/update', params: { sessionId: agentId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });

describe('sessions in a trace', () => {
  // The core tags what it can; these records are untagged, as a trace from a thinner writer could be.
  const records: TraceRecord[] = [
    { kind: 'spawn', t: ++t, pid: 1 },
    wire('out', { id: 0, method: 'initialize', params: {} }),
    wire('in', { id: 0, result: {} }),
    wire('out', { id: 1, method: 'session/new', params: { cwd: '/w' } }),
    wire('in', { id: 1, result: { sessionId: 'A' } }),
    { kind: 'session', t: ++t, action: 'created', sessionId: 'W-A', agentSessionId: 'A' },
    wire('out', { id: 2, method: 'session/new', params: { cwd: '/w' } }),
    wire('in', { id: 2, result: { sessionId: 'B' } }),
    { kind: 'session', t: ++t, action: 'created', sessionId: 'W-B', agentSessionId: 'B' },
    wire('out', { id: 3, method: 'session/prompt', params: { sessionId: 'A', prompt: [] } }),
    wire('out', { id: 4, method: 'session/prompt', params: { sessionId: 'B', prompt: [] } }),
    chunk('B', 'to B'),
    chunk('A', 'to A'),
    wire('in', { id: 0, method: 'session/request_permission', params: { sessionId: 'B', toolCall: { toolCallId: 'x' }, options: [] } }),
    wire('out', { id: 0, result: { outcome: { outcome: 'cancelled' } } }),
    wire('in', { id: 4, result: { stopReason: 'end_turn' } }),
    wire('in', { id: 3, result: { stopReason: 'end_turn' } }),
    { kind: 'stderr', t: ++t, text: 'bye' },
    { kind: 'exit', t: ++t, code: 0, signal: null },
  ];

  it('lists each session with its agent id', () => {
    expect(listTraceSessions(records)).toEqual([
      { sessionId: 'W-A', agentSessionId: 'A', action: 'created', t: 6 },
      { sessionId: 'W-B', agentSessionId: 'B', action: 'created', t: 9 },
    ]);
  });

  it('routes untagged records by the agent session id, responses by their request, and keeps connection records for all', () => {
    const a = recordsForSession(records, 'W-A').map((r) => r.t);
    const b = recordsForSession(records, 'W-B').map((r) => r.t);
    // Both: spawn, initialize and its answer, the session/new requests (no session id yet), stderr, exit.
    expect(a).toEqual([1, 2, 3, 4, 5, 6, 7, 10, 13, 17, 18, 19]);
    expect(b).toEqual([1, 2, 3, 4, 7, 8, 9, 11, 12, 14, 15, 16, 18, 19]);
  });

  it('routes tagged records by their tag alone', () => {
    const tagged: TraceRecord[] = [wire('in', { method: 'session/update', params: { sessionId: 'A' } }, { sessionId: 'W-2', agentSessionId: 'A' }), { kind: 'cancel', t: ++t, sessionId: 'W-1' }];
    expect(recordsForSession(tagged, 'W-1').map((r) => r.kind)).toEqual(['cancel']);
    expect(recordsForSession(tagged, 'W-2').map((r) => r.kind)).toEqual(['wire']);
  });
});
