import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../common/trace/records';
import { workingMs } from './comparison';
import { agentFigures, LAST_ANSWER_CHARS, unionLength } from './figures';

const S = 'W1';
const out = (t: number, msg: object): TraceRecord => ({ kind: 'wire', dir: 'out', t, sessionId: S, agentSessionId: 'a1', msg: { jsonrpc: '2.0', ...msg } as never });
const inn = (t: number, msg: object): TraceRecord => ({ kind: 'wire', dir: 'in', t, sessionId: S, agentSessionId: 'a1', msg: { jsonrpc: '2.0', ...msg } as never });
const update = (t: number, update: object) => inn(t, { method: 'session/update', params: { sessionId: 'a1', update } });

describe('agentFigures', () => {
  it('counts turns, durations, permission waits (overlaps once) and tool calls by kind', () => {
    const records: TraceRecord[] = [
      { kind: 'session', t: 5, action: 'created', sessionId: S, agentSessionId: 'a1' },
      out(10, { id: 1, method: 'session/prompt', params: { sessionId: 'a1', prompt: [] } }),
      update(25, { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read' }),
      update(26, { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit', kind: 'edit' }),
      update(27, { sessionUpdate: 'tool_call', toolCallId: 't3', title: 'Edit again', kind: 'edit' }),
      inn(30, { id: 0, method: 'session/request_permission', params: { sessionId: 'a1', toolCall: { toolCallId: 't2' }, options: [] } }),
      inn(40, { id: 1, method: 'session/request_permission', params: { sessionId: 'a1', toolCall: { toolCallId: 't3' }, options: [] } }),
      out(50, { id: 0, result: { outcome: { outcome: 'cancelled' } } }),
      out(70, { id: 1, result: { outcome: { outcome: 'cancelled' } } }),
      inn(110, { id: 1, result: { stopReason: 'end_turn' } }),
      out(200, { id: 2, method: 'session/prompt', params: { sessionId: 'a1', prompt: [] } }),
      update(210, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }),
      inn(250, { id: 2, result: { stopReason: 'max_tokens', usage: { totalTokens: 9 } } }),
    ];
    expect(agentFigures(records, S)).toEqual({
      stopReason: 'max_tokens',
      turns: 2,
      updates: 4,
      firstUpdateMs: 15,
      durationMs: 150,
      permissionWaitMs: 40,
      toolCalls: 3,
      toolCallsByKind: { read: 1, edit: 2 },
      permissionRequests: 2,
      usage: { totalTokens: 9 },
      lastAnswer: 'x',
    });
  });

  it('keeps the last message of the agent as its answer, cut to LAST_ANSWER_CHARS; none without one', () => {
    const says = (t: number, text: string) => update(t, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    const prompt = out(0, { id: 1, method: 'session/prompt', params: { sessionId: 'a1', prompt: [] } });
    const first = agentFigures([prompt, says(1, 'I will look first.'), update(2, { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', kind: 'read' }), says(3, '  Fixed the '), says(4, 'parser.  '), inn(5, { id: 1, result: { stopReason: 'end_turn' } })], S);
    expect(first.lastAnswer).toBe('Fixed the parser.');
    const long = agentFigures([prompt, says(1, 'y'.repeat(LAST_ANSWER_CHARS + 10))], S);
    expect(long.lastAnswer).toBe(`${'y'.repeat(LAST_ANSWER_CHARS)}…`);
    expect(agentFigures([prompt], S).lastAnswer).toBeNull();
  });

  it('takes the waits for permission out of the working time, never below zero', () => {
    expect(workingMs(150, 40)).toBe(110);
    expect(workingMs(null, 0)).toBeNull();
    expect(workingMs(30, 45)).toBe(0);
  });

  it('measures the union of intervals', () => {
    expect(unionLength([])).toBe(0);
    expect(unionLength([[0, 10], [5, 15], [20, 25], [21, 22]])).toBe(20);
  });
});
