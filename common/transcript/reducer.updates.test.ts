/** One test group per `session/update` variant (acp-reference §6), with inline records. */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../trace/json';
import type { TraceRecord } from '../trace/records';
import { entryList, type Entry, type Transcript } from './model';
import { rebuildTranscript } from './rebuild';

let clock = 0;
const wire = (dir: 'in' | 'out', msg: JsonObject): TraceRecord => ({ kind: 'wire', t: ++clock, dir, msg: { jsonrpc: '2.0', ...msg } });
const update = (u: JsonObject) => wire('in', { method: 'session/update', params: { sessionId: 'a1', update: u } });
const chunk = (kind: string, text: string, messageId?: string) =>
  update({ sessionUpdate: kind, content: { type: 'text', text }, ...(messageId ? { messageId } : {}) });
const prompt = (id: number, text: string) => wire('out', { id, method: 'session/prompt', params: { sessionId: 'a1', prompt: [{ type: 'text', text }] } });
const answer = (id: number, result: JsonObject) => wire('in', { id, result });

function build(records: TraceRecord[]): { t: Transcript; entries: Entry[] } {
  const t = rebuildTranscript(records);
  return { t, entries: entryList(t) };
}
const texts = (entries: Entry[]) =>
  entries.map((e) => ('content' in e && e.kind !== 'tool_call' ? `${e.kind}:${e.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('')}` : e.kind));

describe('message chunks', () => {
  it('merge into the open entry of their kind and split on a kind change', () => {
    const { entries } = build([
      chunk('agent_thought_chunk', 'think '),
      chunk('agent_thought_chunk', 'more'),
      chunk('agent_message_chunk', 'Hello '),
      chunk('agent_message_chunk', 'world'),
      chunk('agent_thought_chunk', 'again'),
    ]);
    expect(texts(entries)).toEqual(['thought:think more', 'agent_message:Hello world', 'thought:again']);
  });

  it('split when the messageId changes, and adopt an id that arrives mid-message', () => {
    const { entries } = build([
      chunk('agent_message_chunk', 'a'),
      chunk('agent_message_chunk', 'b', 'm1'),
      chunk('agent_message_chunk', 'c', 'm1'),
      chunk('agent_message_chunk', 'd', 'm2'),
    ]);
    expect(texts(entries)).toEqual(['agent_message:abc', 'agent_message:d']);
    expect(entries[0]).toMatchObject({ messageId: 'm1' });
    expect(entries[1]).toMatchObject({ messageId: 'm2' });
  });

  it('split around a tool call, not around a usage update', () => {
    const { entries } = build([
      chunk('agent_message_chunk', 'before'),
      update({ sessionUpdate: 'usage_update', used: 1, size: 10 }),
      chunk('agent_message_chunk', ' still'),
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' }),
      chunk('agent_message_chunk', 'after'),
    ]);
    expect(texts(entries)).toEqual(['agent_message:before still', 'usage', 'tool_call', 'agent_message:after']);
  });

  it('keep non-text blocks in order inside the message', () => {
    const { entries } = build([
      chunk('agent_message_chunk', 'see '),
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }),
      chunk('agent_message_chunk', 'above'),
    ]);
    expect(texts(entries)).toEqual(['agent_message:see [image]above']);
  });

  it('user chunks outside a prompt (replayed history) are user messages that each start a turn', () => {
    const { t, entries } = build([
      chunk('user_message_chunk', 'q1 '),
      chunk('user_message_chunk', 'part two'),
      chunk('agent_message_chunk', 'a1'),
      chunk('user_message_chunk', 'q2'),
    ]);
    expect(texts(entries)).toEqual(['user_message:q1 part two', 'agent_message:a1', 'user_message:q2']);
    expect(entries.map((e) => e.turn)).toEqual([1, 1, 2]);
    expect(t.session.turn).toBe(2);
  });

  it('an agent echo of the prompt does not show the prompt twice', () => {
    const { entries } = build([prompt(1, 'do it'), chunk('user_message_chunk', 'do '), chunk('user_message_chunk', 'it'), chunk('agent_message_chunk', 'ok')]);
    expect(texts(entries)).toEqual(['user_message:do it', 'agent_message:ok']);
    expect(entries[0]!.flags).toEqual(['echoed-by-agent']);
  });

  it('a user chunk after the agent has started answering is not an echo', () => {
    const { entries } = build([prompt(1, 'q'), chunk('agent_message_chunk', 'a'), chunk('user_message_chunk', 'injected')]);
    expect(texts(entries)).toEqual(['user_message:q', 'agent_message:a', 'user_message:injected']);
  });

  it('a chunk without content is kept as an unknown update', () => {
    const { entries } = build([update({ sessionUpdate: 'agent_message_chunk' })]);
    expect(entries).toMatchObject([{ kind: 'unknown_update', sessionUpdate: 'agent_message_chunk' }]);
  });
});

describe('tool_call / tool_call_update', () => {
  it('tool_call creates an entry with the protocol defaults', () => {
    const { entries } = build([update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Think' })]);
    expect(entries[0]).toMatchObject({ kind: 'tool_call', toolCallId: 't1', title: 'Think', toolKind: 'other', status: 'pending', content: [], locations: [], permissions: [] });
  });

  it('a repeated tool_call upserts: present fields change, absent ones and an existing diff stay', () => {
    const diff = { type: 'diff', path: '/p/a.ts', oldText: 'a', newText: 'b' };
    const { entries } = build([
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', rawInput: { path: '/p/a.ts' }, content: [diff] }),
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit a.ts', status: 'completed', rawInput: {}, content: [] }),
    ]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ title: 'Edit a.ts', toolKind: 'edit', status: 'completed', rawInput: { path: '/p/a.ts' }, content: [diff], flags: ['tool-call-resent'] });
  });

  it('tool_call_update patches only present fields; content and locations replace; null means unchanged', () => {
    const { entries } = build([
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Run', kind: 'execute', content: [{ type: 'terminal', terminalId: 'x' }], locations: [{ path: '/a' }] }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress', title: null }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', content: [{ type: 'content', content: { type: 'text', text: 'out' } }], locations: [] }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', rawOutput: { code: 0 }, _meta: { terminal_exit: { exit_code: 0 } } }),
    ]);
    expect(entries[0]).toMatchObject({
      title: 'Run',
      toolKind: 'execute',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'out' } }],
      locations: [],
      rawOutput: { code: 0 },
      meta: { terminal_exit: { exit_code: 0 } },
    });
  });

  it('an update for an unknown id creates the entry lazily from what arrived', () => {
    const { entries } = build([update({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'in_progress', kind: 'read' })]);
    expect(entries[0]).toMatchObject({ kind: 'tool_call', toolCallId: 'ghost', title: '', toolKind: 'read', status: 'in_progress', flags: ['created-lazily'] });
  });

  it('a tool call or update without toolCallId is kept raw', () => {
    const { entries } = build([update({ sessionUpdate: 'tool_call', title: 'x' }), update({ sessionUpdate: 'tool_call_update', status: 'failed' })]);
    expect(entries.map((e) => e.kind)).toEqual(['unknown_update', 'unknown_update']);
  });
});

describe('plan', () => {
  it('replaces the turn’s plan, and a new turn gets its own plan entry', () => {
    const step = (status: string) => update({ sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status }] });
    const { t, entries } = build([prompt(1, 'a'), step('pending'), step('in_progress'), answer(1, { stopReason: 'end_turn' }), prompt(2, 'b'), step('completed')]);
    const plans = entries.filter((e) => e.kind === 'plan');
    expect(plans.map((p) => p.kind === 'plan' && p.entries[0]!.status)).toEqual(['in_progress', 'completed']);
    expect(t.session.planEntryId).toBe(plans[1]!.id);
  });
});

describe('available_commands_update', () => {
  it('replaces the command list', () => {
    const cmds = (...names: string[]) => update({ sessionUpdate: 'available_commands_update', availableCommands: names.map((name) => ({ name, description: name })) });
    const { t, entries } = build([cmds('a', 'b'), cmds('c')]);
    expect(t.session.availableCommands?.map((c) => c.name)).toEqual(['c']);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'available_commands', commands: [{ name: 'c' }] });
  });
});

describe('current_mode_update', () => {
  it('records a change, ignores a repeat, and accepts (and flags) the docs’ `modeId` key', () => {
    const { t, entries } = build([
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }),
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }),
      update({ sessionUpdate: 'current_mode_update', modeId: 'ask' }),
    ]);
    expect(entries).toMatchObject([
      { kind: 'mode_change', modeId: 'code', source: 'agent' },
      { kind: 'mode_change', modeId: 'ask', previousModeId: 'code', flags: ['mode-id-key'] },
    ]);
    expect(t.session.modes?.currentModeId).toBe('ask');
  });
});

describe('config_option_update', () => {
  const opts = (model: string, effort: string) =>
    update({
      sessionUpdate: 'config_option_update',
      configOptions: [
        { id: 'model', name: 'Model', type: 'select', currentValue: model, options: [] },
        { id: 'effort', name: 'Effort', type: 'select', currentValue: effort, options: [] },
      ],
    });
  it('replaces the whole set; the first set is a starting point, later ones record what changed', () => {
    const { t, entries } = build([opts('a', 'low'), opts('a', 'low'), opts('b', 'low')]);
    expect(entries).toMatchObject([{ kind: 'config_change', source: 'agent', changes: [{ configId: 'model', name: 'Model', from: 'a', to: 'b' }] }]);
    expect(t.session.configOptions?.map((o) => o.currentValue)).toEqual(['b', 'low']);
  });
});

describe('session_info_update', () => {
  it('patches: omitted fields stay, null clears', () => {
    const { t, entries } = build([
      update({ sessionUpdate: 'session_info_update', title: 'T1', updatedAt: '2026-01-01T00:00:00Z' }),
      update({ sessionUpdate: 'session_info_update', title: null }),
    ]);
    expect(t.session.title).toBeNull();
    expect(t.session.updatedAt).toBe('2026-01-01T00:00:00Z');
    expect(entries).toMatchObject([{ kind: 'session_info', title: null, updatedAt: '2026-01-01T00:00:00Z' }]);
  });
});

describe('usage_update', () => {
  it('updates the gauge and keeps one usage entry per turn', () => {
    const { t, entries } = build([
      prompt(1, 'q'),
      update({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } }),
      update({ sessionUpdate: 'usage_update', used: 20, size: 100, cost: null }),
    ]);
    expect(t.session.usage).toEqual({ used: 20, size: 100, cost: null });
    expect(entries.filter((e) => e.kind === 'usage')).toMatchObject([{ used: 20, size: 100, cost: null }]);
  });
});

describe('notice', () => {
  it('becomes a notice entry from the agent', () => {
    const { entries } = build([update({ sessionUpdate: 'notice', severity: 'error', title: 'Quota exceeded', description: null })]);
    expect(entries).toMatchObject([{ kind: 'notice', severity: 'error', title: 'Quota exceeded', description: null, source: 'agent' }]);
  });
});

describe('unknown updates', () => {
  it('are kept raw — unstable, vendor and malformed ones alike', () => {
    const raw = { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: '# x' } };
    const { entries } = build([
      update(raw),
      update({ sessionUpdate: 'async_task_spawned', taskId: 1 }),
      update({ noDiscriminator: true }),
      wire('in', { method: 'session/update', params: { sessionId: 'a1' } }),
      wire('in', { method: 'session/update' }),
    ]);
    expect(entries.map((e) => e.kind === 'unknown_update' && e.sessionUpdate)).toEqual(['plan_update', 'async_task_spawned', null, null, null]);
    expect(entries[0]).toMatchObject({ raw });
  });
});
