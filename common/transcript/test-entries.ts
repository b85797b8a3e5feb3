/** Entries and helpers the transcript's tests share (not used by the product). */
import type { ToolCallEntry } from './model';

/** A tool-call entry `id` of turn 1 (an edit, pending, one diff), with `extra` over it. */
export const toolCallEntry = (id: string, extra: Partial<ToolCallEntry> = {}): ToolCallEntry => ({
  id,
  kind: 'tool_call',
  t: 1,
  turn: 1,
  toolCallId: `tc-${id}`,
  title: 'Edit',
  toolKind: 'edit',
  status: 'pending',
  content: [{ type: 'diff', path: '/a', oldText: 'x', newText: 'y' }],
  locations: [],
  permissions: [],
  ...extra,
});

/** Freezes `value` and everything in it: a test that something is not mutated fails loudly. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
