import { describe, expect, it } from 'vitest';
import { MAX_PACKED_ENTRY, packToolCallInfo, toolCallInfo, unpackToolCallInfo, type ToolCallInfo } from './tool-call-index';
import { initialReducerState, reduce } from './reducer';
import type { TraceRecord } from '../trace/records';

const STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'];

function every(entryId: string, status: string): ToolCallInfo[] {
  const out: ToolCallInfo[] = [];
  for (let bits = 0; bits < 8; bits++) out.push({ entryId, status, hasContent: (bits & 1) !== 0, hasDiff: (bits & 2) !== 0, hasRawInput: (bits & 4) !== 0 });
  return out;
}

describe('tool call index values', () => {
  it('reads back exactly what was written, packed into one number for the reducer’s ids and ACP’s statuses', () => {
    for (const entryId of ['e1', 'e2', 'e9', 'e10', 'e123456', `e${MAX_PACKED_ENTRY}`]) {
      for (const status of STATUSES) {
        for (const info of every(entryId, status)) {
          const stored = packToolCallInfo(info);
          expect(typeof stored).toBe('number');
          expect(unpackToolCallInfo(stored)).toEqual(info);
        }
      }
    }
  });

  it('different values pack differently', () => {
    const seen = new Set<unknown>();
    for (const entryId of ['e1', 'e2', 'e31', 'e32', 'e33']) for (const status of STATUSES) for (const info of every(entryId, status)) seen.add(packToolCallInfo(info));
    expect(seen.size).toBe(5 * STATUSES.length * 8);
  });

  it('keeps as objects what would not round-trip: other statuses, ids not of the reducer’s form, numbers too large', () => {
    const odd: ToolCallInfo[] = [
      ...every('e1', 'canceled'),
      ...every('e1', ''),
      ...every('e01', 'pending'),
      ...every('e0', 'pending'),
      ...every('e-1', 'pending'),
      ...every('e1.5', 'pending'),
      ...every('e1e3', 'pending'),
      ...every('e 1', 'pending'),
      ...every('e', 'pending'),
      ...every('x1', 'pending'),
      ...every('entry-7', 'completed'),
      ...every(`e${MAX_PACKED_ENTRY + 1}`, 'completed'),
      ...every('e12345678901', 'completed'),
    ];
    for (const info of odd) {
      const stored = packToolCallInfo(info);
      expect(stored).toBe(info);
      expect(unpackToolCallInfo(stored)).toEqual(info);
    }
  });

  it('packed values are small integers (stored in the map’s own slot, no heap number)', () => {
    const stored = packToolCallInfo({ entryId: `e${MAX_PACKED_ENTRY}`, status: 'cancelled', hasContent: true, hasDiff: true, hasRawInput: true });
    expect(Number.isInteger(stored)).toBe(true);
    expect(stored as number).toBeGreaterThan(0);
    expect(stored as number).toBeLessThan(2 ** 30);
  });

  it('the reducer keeps its tool calls packed and reads them back', () => {
    const update = (u: Record<string, unknown>, t: number): TraceRecord =>
      ({ t, kind: 'wire', dir: 'in', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: u } } }) as unknown as TraceRecord;
    let state = initialReducerState();
    state = reduce(state, update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }, 1)).state;
    state = reduce(state, update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'edit', status: 'in_progress', rawInput: { x: 1 } }, 2)).state;
    state = reduce(state, update({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed', content: [{ type: 'diff', path: '/p', oldText: 'a', newText: 'b' }] }, 3)).state;
    state = reduce(state, update({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'odd', status: 'weird' }, 4)).state;
    expect(typeof state.toolCalls.get('a')).toBe('number');
    expect(toolCallInfo(state.toolCalls, 'a')).toEqual({ entryId: 'e2', status: 'completed', hasContent: true, hasDiff: true, hasRawInput: true });
    expect(toolCallInfo(state.toolCalls, 'b')).toEqual({ entryId: 'e3', status: 'weird', hasContent: false, hasDiff: false, hasRawInput: false });
    expect(toolCallInfo(state.toolCalls, 'c')).toBeUndefined();
  });
});
