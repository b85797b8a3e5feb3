import { describe, expect, it } from 'vitest';
import type { EntryInit } from './step';
import { Step } from './step';
import { initialReducerState } from './reducer';
import type { ToolCallEntry } from './model';

const toolCallInit = (): EntryInit => ({
  kind: 'tool_call',
  toolCallId: 'tc-1',
  title: 'Edit',
  toolKind: 'edit',
  status: 'in_progress',
  content: [{ type: 'diff', path: '/a', oldText: 'x', newText: 'y' }],
  locations: [],
  permissions: [],
});

describe('Step.append', () => {
  // The spill file, the trace-less windows and every window's events carry entries as JSON: the
  // text of an entry must stay what the copy `{ ...init, id, t, turn }` (+ flags) used to print.
  it('gives the entry its fields in the order of a copy of init followed by id, t, turn and flags', () => {
    const init = toolCallInit();
    const step = new Step(initialReducerState(), 42);
    const id = step.append(init, ['created-lazily']);
    const [patch] = step.finish().patches;
    expect(patch?.op).toBe('append-entry');
    const entry = (patch as { entry: ToolCallEntry }).entry;
    expect(JSON.stringify(entry)).toBe(JSON.stringify({ ...toolCallInit(), id, t: 42, turn: 0, flags: ['created-lazily'] }));
    expect(Object.keys(entry)).toEqual([...Object.keys(toolCallInit()), 'id', 't', 'turn', 'flags']);
  });

  it('makes no flags field for an entry without flags, and takes init over as the entry (no copy)', () => {
    const init = { kind: 'agent_message', content: [{ type: 'text', text: 'hi' }] } as EntryInit;
    const step = new Step(initialReducerState(), 7);
    const id = step.append(init);
    const entry = (step.finish().patches[0] as { entry: unknown }).entry;
    expect(entry).toBe(init);
    expect(JSON.stringify(entry)).toBe(JSON.stringify({ kind: 'agent_message', content: [{ type: 'text', text: 'hi' }], id, t: 7, turn: 0 }));
  });
});
