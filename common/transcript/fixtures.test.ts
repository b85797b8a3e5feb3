/**
 * The hand-written traces in e2e/fixtures/traces, one per real agent's habits (real-agents.md) and
 * per family of client mistakes (acp-reference §22), rebuilt through the reducer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTraceText } from '../trace/parse';
import { listTraceSessions, recordsForSession } from '../trace/sessions';
import { entryList, type Entry, type ToolCallEntry, type Transcript } from './model';
import { rebuildTranscript } from './rebuild';

const FIXTURES = new URL('../../e2e/fixtures/traces/', import.meta.url);

function load(name: string): { t: Transcript; entries: Entry[] } {
  const trace = parseTraceText(readFileSync(new URL(name, FIXTURES), 'utf8'));
  expect(trace.corrupt).toEqual([]);
  expect(trace.header?.format).toBe('acp-workbench-trace');
  const t = rebuildTranscript(trace.records);
  return { t, entries: entryList(t) };
}
const tool = (entries: Entry[], id: string) => entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === id)!;
const text = (e: Entry | undefined) => (e && 'content' in e && e.kind !== 'tool_call' ? e.content.map((b) => (b.type === 'text' ? b.text : '')).join('') : undefined);
const summary = (entries: Entry[]) => entries.map((e) => (text(e) !== undefined ? `${e.kind}: ${text(e)}` : e.kind));

describe('claude-agent-acp.jsonl (Claude Code adapter 0.49)', () => {
  const { t, entries } = load('claude-agent-acp.jsonl');

  it('rebuilds the whole turn in order', () => {
    expect(summary(entries)).toEqual([
      'available_commands',
      'user_message: Fix the typo in README.md',
      'thought: Let me look at the file.',
      "agent_message: I'll fix the typo.",
      'tool_call',
      'plan',
      'agent_message: Done.',
      'usage',
      'turn_end',
    ]);
    expect(t.session).toMatchObject({ sessionId: '01JDQ9000000000000000SESS1', agentSessionId: 'claude-sess-1', opened: 'created', turnStatus: 'idle' });
  });

  it('keeps updates sent before the session/new answer (§22.4)', () => {
    expect(entries[0]).toMatchObject({ kind: 'available_commands', turn: 0, commands: [{ name: 'compact' }, { name: 'review' }] });
  });

  it('shows the prompt once although the agent echoes it (§22.12), with the origin from the prompt event', () => {
    expect(entries.filter((e) => e.kind === 'user_message')).toHaveLength(1);
    expect(entries[1]).toMatchObject({ origin: 'user', requestId: 2, flags: ['echoed-by-agent'] });
  });

  it('takes the real input, title and diff from the update after a `rawInput: {}` tool_call', () => {
    expect(tool(entries, 'toolu_01')).toMatchObject({
      title: 'Edit `README.md`',
      toolKind: 'edit',
      status: 'completed',
      rawInput: { file_path: '/work/proj/README.md', old_string: 'teh', new_string: 'the' },
      content: [{ type: 'diff', path: '/work/proj/README.md' }],
      locations: [{ path: '/work/proj/README.md', line: 1 }],
    });
  });

  it('records the permission decision by option kind and who decided; the diff in the request is not repeated as context', () => {
    const [permission] = tool(entries, 'toolu_01').permissions;
    expect(permission).toMatchObject({ requestId: 0, status: 'selected', optionId: 'allow', optionKind: 'allow_once', decidedBy: 'user' });
    expect(permission!.context).toBeUndefined();
  });

  it('shows a plan sent twice once', () => {
    expect(entries.filter((e) => e.kind === 'plan')).toHaveLength(1);
    expect(t.session.planEntryId).toBe(entries[5]!.id);
  });

  it('keeps the non-standard per-turn usage of the prompt answer and the usage_update gauge', () => {
    expect(entries.at(-1)).toMatchObject({ kind: 'turn_end', stopReason: 'end_turn', usage: { inputTokens: 1000, outputTokens: 200 } });
    expect(t.session.usage).toEqual({ used: 1200, size: 200000, cost: { amount: 0.0123, currency: 'USD' } });
  });

  it('starts with the modes and config options of the session/new answer', () => {
    expect(t.session.modes?.currentModeId).toBe('default');
    expect(t.session.configOptions?.[0]).toMatchObject({ id: 'model', currentValue: 'sonnet' });
    expect(t.session.process).toEqual({ pid: 4242, exited: { code: 0, signal: null } });
  });
});

describe('claude-code-acp.jsonl (claude-code-acp 0.16)', () => {
  const { t, entries } = load('claude-code-acp.jsonl');

  it('a re-sent tool_call without kind or diff keeps both and adds its text', () => {
    expect(tool(entries, 'toolu_edit')).toMatchObject({
      toolKind: 'edit',
      status: 'completed',
      rawInput: { file_path: '/work/proj/main.py' },
      content: [{ type: 'diff', path: '/work/proj/main.py' }, { type: 'content' }],
      flags: ['tool-call-resent'],
    });
    expect(entries.filter((e) => e.kind === 'tool_call')).toHaveLength(2);
  });

  it('tracks a terminal created without cwd or args, its output, exit and release', () => {
    expect(t.terminals['term-1']).toMatchObject({ command: 'pytest -q', cwd: '/work/proj', status: 'exited', exitCode: 1, output: 'F.\n1 failed, 1 passed\n', released: true });
    expect(t.terminals['term-1']!.args).toBeUndefined();
    expect(tool(entries, 'toolu_bash')).toMatchObject({ status: 'failed', content: [{ type: 'terminal', terminalId: 'term-1' }] });
  });

  it('answers to the agent’s requests 1 and 2 do not end our prompt 2', () => {
    expect(entries.filter((e) => e.kind === 'turn_end')).toHaveLength(1);
    expect(entries.at(-1)).toMatchObject({ kind: 'turn_end', stopReason: 'end_turn', t: 4800 });
  });
});

describe('codex.jsonl (codex-acp)', () => {
  const { t, entries } = load('codex.jsonl');

  it('a permission request whose content is reason text keeps the diff and shows the reason beside it (§22.9)', () => {
    const call = tool(entries, 'call_patch_1');
    expect(call.content).toEqual([{ type: 'diff', path: '/work/proj/app.ts', oldText: 'export {};\n', newText: '// SPDX-License-Identifier: MIT\nexport {};\n' }]);
    expect(call.permissions).toMatchObject([
      { requestId: '6f1c2e0a-6d2b-4c55-9a3e-1f2d3c4b5a69', optionKind: 'allow_once', decidedBy: 'policy', rule: 'allow edits in worktree', context: [{ type: 'content' }] },
    ]);
  });

  it('set_mode is confirmed by its empty answer; the config_option_update after it is applied too (§22.10)', () => {
    expect(entries.slice(-2)).toMatchObject([
      { kind: 'config_change', source: 'agent', changes: [{ configId: 'mode', from: 'read-only', to: 'auto' }] },
      { kind: 'mode_change', modeId: 'auto', previousModeId: 'read-only', source: 'set_mode' },
    ]);
    expect(t.session.modes?.currentModeId).toBe('auto');
  });
});

describe('codex-cancel.jsonl (§17.2, §22.6, §22.14)', () => {
  const { entries } = load('codex-cancel.jsonl');

  it('running calls become cancelled, one the agent failed stays failed, finished ones stay finished', () => {
    expect(['call_read', 'call_exec', 'call_done'].map((id) => tool(entries, id).status)).toEqual(['cancelled', 'failed', 'completed']);
  });

  it('the pending permission was answered cancelled by the cancel rule; the turn ends cancelled without an error', () => {
    expect(tool(entries, 'call_exec').permissions).toMatchObject([{ status: 'cancelled', decidedBy: 'cancel' }]);
    expect(entries.at(-1)).toMatchObject({ kind: 'turn_end', stopReason: 'cancelled' });
    expect(entries.some((e) => e.kind === 'error')).toBe(false);
  });
});

describe('gemini.jsonl (gemini-cli)', () => {
  const { t, entries } = load('gemini.jsonl');

  it('permission requests for never-announced ids create the tool calls (the todo tool, the write) (§22.7)', () => {
    expect(tool(entries, 'write_todos-1795948802000')).toMatchObject({ title: 'Update todo list', toolKind: 'other', status: 'completed', flags: ['created-lazily'] });
    expect(tool(entries, 'write_file-1795948802400')).toMatchObject({ toolKind: 'edit', status: 'completed', content: [{ type: 'diff', oldText: null }] });
    expect(entries.some((e) => e.kind === 'plan')).toBe(false);
  });

  it('decisions keep gemini’s own option ids with their kinds', () => {
    expect(tool(entries, 'write_todos-1795948802000').permissions[0]).toMatchObject({ optionId: 'proceed_once', optionKind: 'allow_once' });
    expect(tool(entries, 'write_file-1795948802400').permissions[0]).toMatchObject({ optionId: 'proceed_always', optionKind: 'allow_always', decidedBy: 'user' });
  });

  it('the write after a failed read is one file change with its old text (none: a new file), tied to the running call; a null write answer is fine (§22.15)', () => {
    expect(t.fileChanges).toEqual([
      { id: 'req:n:3', path: '/work/proj/notes.md', oldText: null, newText: '# Notes\n- [ ] write more\n', t: 3110, turn: 1, toolCallId: 'write_file-1795948802400' },
    ]);
  });

  it('keeps `_meta.quota` of the prompt answer', () => {
    expect(entries.at(-1)).toMatchObject({ kind: 'turn_end', meta: { quota: { token_count: { input_tokens: 812 } } } });
  });
});

describe('opencode.jsonl (opencode)', () => {
  const { t, entries } = load('opencode.jsonl');

  it('its todo list stays a tool call of kind other', () => {
    expect(tool(entries, 'call_todo')).toMatchObject({ toolKind: 'other', title: 'todowrite' });
    expect(entries.some((e) => e.kind === 'plan')).toBe(false);
  });

  it('writes through fs/write_text_file after permission; the change is tied to the tool call', () => {
    expect(t.fileChanges).toMatchObject([{ path: '/work/proj/hello.txt', oldText: 'hi\n', newText: 'hello\n', toolCallId: 'call_write' }]);
    expect(tool(entries, 'call_write').permissions).toMatchObject([{ optionId: 'once', optionKind: 'allow_once' }]);
    expect(tool(entries, 'call_write').permissions).toHaveLength(1);
  });

  it('tolerates updates after the prompt answer (§22.5): the tail joins its message and is flagged', () => {
    const message = entries.find((e) => e.kind === 'agent_message')!;
    expect(text(message)).toBe('Wrote hello.txt. (tail after the answer)');
    expect(message.flags).toEqual(['after-turn-end']);
    expect(t.session.usage).toEqual({ used: 3100, size: 128000 });
  });

  it('the legacy models list and set_model', () => {
    expect(t.session.models?.currentModelId).toBe('local/other');
    expect(entries.at(-1)).toMatchObject({ kind: 'config_change', source: 'set_model', changes: [{ from: 'local/scripted', to: 'local/other' }] });
  });
});

describe('pi.jsonl (pi-acp)', () => {
  const { entries } = load('pi.jsonl');

  it('keeps terminal output sent in _meta although the client said terminal: false', () => {
    const call = tool(entries, 'bash-1');
    expect(call.status).toBe('completed');
    expect(call.meta).toEqual({ terminal_exit: { terminal_id: 'pi-term-1', exit_code: 0, signal: null } });
    expect(call.content).toEqual([]);
  });
});

describe('load-replay.jsonl (§12 session/load, §22.13)', () => {
  const { t, entries } = load('load-replay.jsonl');

  it('replayed chunks without messageIds keep their message boundaries by type and tool calls', () => {
    expect(summary(entries)).toEqual([
      'user_message: What does main.py do?',
      'thought: Read it first.',
      'agent_message: Let me read it.',
      'tool_call',
      'agent_message: It adds two numbers.',
      'plan',
      'user_message: Thanks. Now add tests.',
      'agent_message: Added test_main.py.',
      'plan',
      'user_message: Run them.',
      'agent_message: All tests pass.',
      'turn_end',
    ]);
  });

  it('flags replayed entries, numbers replayed turns, then continues live', () => {
    expect(entries.slice(0, 9).every((e) => e.flags?.includes('replayed'))).toBe(true);
    expect(entries.slice(9).every((e) => !e.flags)).toBe(true);
    expect(entries.map((e) => e.turn)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
    expect(t.session).toMatchObject({ opened: 'loaded', userTitle: 'main.py questions', tags: ['demo', 'python'], turn: 3 });
  });
});

describe('modes-config-updates.jsonl (§11, §22.10, §22.11)', () => {
  const { t, entries } = load('modes-config-updates.jsonl');

  it('modes: the modeId key is accepted and flagged; the ack confirms set_mode; an echo adds nothing', () => {
    expect(entries.filter((e) => e.kind === 'mode_change')).toMatchObject([
      { modeId: 'code', previousModeId: 'ask', source: 'agent', flags: ['mode-id-key'] },
      { modeId: 'architect', previousModeId: 'code', source: 'set_mode' },
    ]);
    expect(t.session.modes).toMatchObject({ currentModeId: 'architect', availableModes: [{ id: 'ask' }, { id: 'code' }, { id: 'architect' }] });
  });

  it('config: the set_config_option answer replaces all options (dependent ones too); an error is shown; updates replace', () => {
    expect(entries.filter((e) => e.kind === 'config_change' || e.kind === 'error')).toMatchObject([
      { kind: 'config_change', source: 'set_config_option', changes: [{ configId: 'model', to: 'smart' }, { configId: 'effort', to: 'high' }] },
      { kind: 'error', code: -32602, method: 'session/set_config_option', data: { details: 'unknown value bogus for effort' } },
      { kind: 'config_change', source: 'agent', changes: [{ configId: 'effort', from: 'high', to: 'medium' }] },
    ]);
    expect(t.session.configOptions?.map((o) => [o.id, o.currentValue])).toEqual([
      ['model', 'smart'],
      ['effort', 'medium'],
    ]);
  });

  it('session info patches with null clearing; command lists replace', () => {
    expect(t.session).toMatchObject({ title: null, updatedAt: '2026-11-29T11:20:00Z' });
    expect(t.session.availableCommands?.map((c) => c.name)).toEqual(['init', 'web']);
    expect(entries.filter((e) => e.kind === 'available_commands')).toHaveLength(1);
  });

  it('keeps every content block, notices and every unknown or malformed update', () => {
    const reply = entries.find((e) => e.kind === 'agent_message');
    expect(reply && 'content' in reply && reply.content.map((b) => b.type)).toEqual(['text', 'image', 'text', 'resource_link']);
    expect(entries.find((e) => e.kind === 'user_message')).toMatchObject({ content: [{ type: 'text' }, { type: 'resource_link', uri: 'file:///work/proj/a.png' }] });
    expect(entries.filter((e) => e.kind === 'notice')).toMatchObject([
      { source: 'agent', severity: 'warning', title: 'Context nearly full', description: 'Consider /compact' },
      { source: 'workbench', title: 'The turn has run for 60 s.' },
    ]);
    expect(entries.filter((e) => e.kind === 'unknown_update').map((e) => e.kind === 'unknown_update' && e.sessionUpdate)).toEqual([
      'compaction_update',
      'async_task_spawned',
      null,
      'tool_call',
      'agent_message_chunk',
    ]);
    expect(entries.at(-1)).toMatchObject({ kind: 'turn_end', stopReason: 'max_tokens' });
  });
});

describe('errors-and-exit.jsonl (§22.3, §22.23)', () => {
  const { t, entries } = load('errors-and-exit.jsonl');

  it('shows error.data and the stderr tail with the failed prompt; stdout noise and the -32700 reply are not in the transcript', () => {
    expect(entries[1]).toMatchObject({
      kind: 'error',
      code: -32603,
      data: { details: 'model not available for this account' },
      stderrTail: ['\u001b[33mwarn\u001b[0m config file not found, using defaults', 'Error: 403 model not available for this account'],
    });
    expect(entries[2]).toMatchObject({ kind: 'turn_end', stopReason: null });
  });

  it('an agent killed mid-turn ends the turn with an error, settles its running tool call, and notes the unrecorded oversize line', () => {
    expect(summary(entries.slice(3))).toEqual(['user_message: try again', 'tool_call', 'notice', 'error', 'turn_end']);
    expect(tool(entries, 't1').status).toBe('cancelled');
    expect(entries.at(-2)).toMatchObject({ kind: 'error', source: 'exit', stderrTail: expect.arrayContaining(['fatal error: runtime: out of memory']) });
    expect(t.session).toMatchObject({ turnStatus: 'idle', process: { pid: 1234, exited: { code: null, signal: 'SIGKILL' } } });
  });
});

describe('multi-session.jsonl (several sessions on one connection)', () => {
  const trace = parseTraceText(readFileSync(new URL('multi-session.jsonl', FIXTURES), 'utf8'));

  it('lists the sessions with their agent ids and lineage', () => {
    expect(listTraceSessions(trace.records)).toMatchObject([
      { sessionId: '01JDQ9000000000000000SESSB', agentSessionId: 's-1', action: 'created' },
      { sessionId: '01JDQ9000000000000000SESSC', agentSessionId: 's-2', action: 'forked', lineage: { parentSessionId: '01JDQ9000000000000000SESSB', forkPoint: { entryId: 'e2' } } },
    ]);
  });

  it('rebuilds each session from its own records, interleaved as they were', () => {
    const first = entryList(rebuildTranscript(recordsForSession(trace.records, '01JDQ9000000000000000SESSB')));
    const second = rebuildTranscript(recordsForSession(trace.records, '01JDQ9000000000000000SESSC'));
    expect(summary(first)).toEqual(['user_message: first session prompt', 'agent_message: answer one', 'turn_end', 'user_message: first session again', 'agent_message: answer three', 'turn_end']);
    expect(summary(entryList(second))).toEqual(['user_message: second session prompt', 'agent_message: answer two', 'turn_end']);
    expect(second.session).toMatchObject({ agentSessionId: 's-2', opened: 'forked' });
    // The fork point names an entry id of the parent, which rebuilds give deterministically.
    expect(first[1]!.id).toBe('e2');
  });
});
