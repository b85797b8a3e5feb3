import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../common/trace/records';
import { ConformanceContext } from './context';

type Json = Record<string, unknown>;

let t = 0;
const out = (msg: Json): TraceRecord => ({ kind: 'wire', t: ++t, dir: 'out', msg: { jsonrpc: '2.0', ...msg } });
const inn = (msg: Json): TraceRecord => ({ kind: 'wire', t: ++t, dir: 'in', msg: { jsonrpc: '2.0', ...msg } });
const update = (sessionId: string, sessionUpdate: string): TraceRecord =>
  inn({ method: 'session/update', params: { sessionId, update: { sessionUpdate, content: { type: 'text', text: 'x' } } } });

/** Feeds records as the engine does (begin, end); returns the request each answer answers, as the rules see it then. */
function feed(ctx: ConformanceContext, records: TraceRecord[]): Array<{ method: string; updates: number } | undefined> {
  const answered: Array<{ method: string; updates: number } | undefined> = [];
  records.forEach((record, i) => {
    ctx.begin(record, i + 2);
    const a = ctx.current.answers;
    if (record.kind === 'wire' && record.dir === 'in' && 'result' in record.msg) answered.push(a && { method: a.method, updates: a.updates });
    ctx.end();
  });
  return answered;
}

describe('ConformanceContext: conversation updates seen while a request was pending', () => {
  it('counts, for the request an answer answers, the conversation updates of its session between request and answer', () => {
    const ctx = new ConformanceContext(undefined);
    const answered = feed(ctx, [
      update('a', 'agent_message_chunk'), // before the request: not counted
      out({ id: 1, method: 'session/load', params: { sessionId: 'a', cwd: '/p', mcpServers: [] } }),
      out({ id: 2, method: 'session/load', params: { sessionId: 'b', cwd: '/p', mcpServers: [] } }),
      update('a', 'user_message_chunk'),
      update('a', 'available_commands_update'), // not a conversation update
      update('b', 'tool_call'), // another session
      update('a', 'agent_thought_chunk'),
      out({ id: 3, method: 'session/prompt', params: { sessionId: 'a', prompt: [] } }),
      update('a', 'plan'),
      inn({ id: 1, result: {} }),
      update('a', 'agent_message_chunk'), // after the answer: not counted
      update('b', 'agent_message_chunk'),
      inn({ id: 2, result: {} }),
      inn({ id: 3, result: { stopReason: 'end_turn' } }),
    ]);
    expect(answered).toEqual([
      { method: 'session/load', updates: 3 },
      { method: 'session/load', updates: 2 },
      { method: 'session/prompt', updates: 2 },
    ]);
  });

  it('keeps an answered request’s count, and counts nothing for a request without a session', () => {
    const ctx = new ConformanceContext(undefined);
    const [load, init] = feed(ctx, [
      out({ id: 1, method: 'session/load', params: { sessionId: 'a', cwd: '/p', mcpServers: [] } }),
      out({ id: 2, method: 'initialize', params: { protocolVersion: 1 } }),
      update('a', 'agent_message_chunk'),
      inn({ id: 1, result: {} }),
      inn({ id: 2, result: { protocolVersion: 1 } }),
    ]);
    expect(load).toEqual({ method: 'session/load', updates: 1 });
    expect(init).toEqual({ method: 'initialize', updates: 0 });
    // The request object the rules saw keeps its count after the answer.
    ctx.begin(out({ id: 3, method: 'session/prompt', params: { sessionId: 'a', prompt: [] } }), 10);
    ctx.end();
    ctx.begin(inn({ id: 3, result: {} }), 11);
    const prompt = ctx.current.answers!;
    ctx.end();
    feed(ctx, [update('a', 'agent_message_chunk'), update('a', 'agent_message_chunk')]);
    expect(prompt.updates).toBe(0);
    expect([...ctx.outgoing.values()]).toEqual([]);
  });
});
