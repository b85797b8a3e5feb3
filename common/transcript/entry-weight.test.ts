import { describe, expect, it } from 'vitest';
import { entryWeight, INTRICATE_WEIGHT } from './entry-weight';

const toolCall = (diffChars: number) => ({
  id: 'e2',
  t: 1,
  turn: 1,
  kind: 'tool_call',
  toolCallId: 'tc-1',
  title: 'Edit a.ts',
  toolKind: 'edit',
  status: 'completed',
  content: [{ type: 'diff', path: '/a.ts', oldText: 'o'.repeat(diffChars), newText: 'n'.repeat(diffChars) }],
  locations: [{ path: '/a.ts' }],
  permissions: [],
});

describe('entryWeight', () => {
  it('counts the characters of every string, nested in objects and arrays, plus a little per value', () => {
    const small = entryWeight(toolCall(0));
    const big = entryWeight(toolCall(8192));
    expect(big - small).toBe(2 * 8192);
    expect(small).toBeGreaterThan('tc-1Edit a.tseditcompleted/a.ts'.length);
    expect(small).toBeLessThan(1024);
    expect(entryWeight({ id: 'e1', t: 0, turn: 1, kind: 'agent_message', content: [{ type: 'text', text: 'x'.repeat(1000) }] })).toBeGreaterThan(1000);
  });

  it('calls an entry with more values than it walks heavy, and is not thrown off by it afterwards', () => {
    const before = entryWeight(toolCall(100));
    const intricate = { ...toolCall(0), rawOutput: { lines: Array.from({ length: 5000 }, (_, i) => ({ n: i })) } };
    expect(entryWeight(intricate)).toBeGreaterThanOrEqual(INTRICATE_WEIGHT);
    expect(entryWeight(toolCall(100))).toBe(before);
  });
});
