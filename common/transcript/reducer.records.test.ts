/** Every trace record kind, and our requests with their answers, through the reducer. */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../trace/json';
import type { TraceRecord } from '../trace/records';
import { entryList, type Entry, type ToolCallEntry, type Transcript } from './model';
import { rebuildTranscript } from './rebuild';
import { initialReducerState, reduce } from './reducer';
import { toolCallInfo } from './tool-call-index';

let clock = 0;
const wire = (dir: 'in' | 'out', msg: JsonObject): TraceRecord => ({ kind: 'wire', t: ++clock, dir, msg: { jsonrpc: '2.0', ...msg } });
const update = (u: JsonObject) => wire('in', { method: 'session/update', params: { sessionId: 'a1', update: u } });
const ours = (id: number | string, method: string, params: JsonObject = {}) => wire('out', { id, method, params: { sessionId: 'a1', ...params } });
const theirs = (id: number | string, method: string, params: JsonObject = {}) => wire('in', { id, method, params: { sessionId: 'a1', ...params } });
const agentAnswer = (id: number | string, result: JsonObject | null) => wire('in', { id, result });
const agentError = (id: number | string, error: JsonObject) => wire('in', { id, error });
const ourAnswer = (id: number | string, result: JsonObject | null) => wire('out', { id, result });
const ourError = (id: number | string, error: JsonObject) => wire('out', { id, error });
const prompt = (id: number, text = 'go') => ours(id, 'session/prompt', { prompt: [{ type: 'text', text }] });
type Fields<R> = R extends unknown ? Omit<R, 'kind' | 't'> : never;
const rec = <K extends TraceRecord['kind']>(kind: K, fields: Fields<Extract<TraceRecord, { kind: K }>>): TraceRecord =>
  ({ kind, t: ++clock, ...fields }) as TraceRecord;
const permissionRequest = (id: number | string, toolCall: JsonObject) =>
  theirs(id, 'session/request_permission', {
    toolCall,
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
  });

function build(records: TraceRecord[]): { t: Transcript; entries: Entry[] } {
  const t = rebuildTranscript(records);
  return { t, entries: entryList(t) };
}
const kinds = (entries: Entry[]) => entries.map((e) => e.kind);
const tool = (entries: Entry[], id: string) => entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === id)!;

describe('wire: our requests and their answers', () => {
  it('session/prompt gives the user entry and a running turn; its answer the turn end with per-turn usage', () => {
    const { t, entries } = build([prompt(7, 'hi'), agentAnswer(7, { stopReason: 'end_turn', usage: { totalTokens: 9 }, _meta: { quota: { n: 1 } } })]);
    expect(entries).toMatchObject([
      { kind: 'user_message', content: [{ type: 'text', text: 'hi' }], requestId: 7, turn: 1 },
      { kind: 'turn_end', stopReason: 'end_turn', usage: { totalTokens: 9 }, meta: { quota: { n: 1 } }, turn: 1 },
    ]);
    expect((entries[1] as { durationMs: number }).durationMs).toBe(1);
    expect(t.session).toMatchObject({ turn: 1, turnStatus: 'idle' });
  });

  it('keeps the two id spaces apart: the agent’s request 0 and ours 0 do not meet', () => {
    const { entries } = build([
      ours(0, 'session/set_mode', { modeId: 'code' }),
      permissionRequest(0, { toolCallId: 't1', title: 'Edit' }),
      ourAnswer(0, { outcome: { outcome: 'selected', optionId: 'no' } }),
      agentAnswer(0, {}),
    ]);
    expect(tool(entries, 't1').permissions).toMatchObject([{ requestId: 0, status: 'selected', optionId: 'no', optionKind: 'reject_once' }]);
    expect(entries.filter((e) => e.kind === 'mode_change')).toMatchObject([{ modeId: 'code', source: 'set_mode' }]);
  });

  it('a number id and the same digits as a string are different requests', () => {
    const { entries } = build([prompt(1), agentAnswer('1', { stopReason: 'end_turn' })]);
    expect(kinds(entries)).toEqual(['user_message']);
  });

  it('session/set_mode: the empty (or null) ack is the confirmation; an error changes nothing', () => {
    const { t, entries } = build([
      ours(1, 'session/set_mode', { modeId: 'plan' }),
      agentAnswer(1, null),
      ours(2, 'session/set_mode', { modeId: 'yolo' }),
      agentError(2, { code: -32602, message: 'Invalid params' }),
    ]);
    expect(entries).toMatchObject([
      { kind: 'mode_change', modeId: 'plan', source: 'set_mode' },
      { kind: 'error', code: -32602, method: 'session/set_mode', source: 'response' },
    ]);
    expect(t.session.modes?.currentModeId).toBe('plan');
  });

  it('session/set_config_option: the answer’s full option set replaces; an answer without it applies the asked value', () => {
    const option = (id: string, currentValue: string) => ({ id, name: id.toUpperCase(), type: 'select', currentValue, options: [] });
    const { t, entries } = build([
      ours(1, 'session/new', { cwd: '/w' }),
      agentAnswer(1, { sessionId: 'a1', configOptions: [option('model', 'a'), option('effort', 'low')] }),
      ours(2, 'session/set_config_option', { configId: 'model', value: 'b' }),
      agentAnswer(2, { configOptions: [option('model', 'b'), option('effort', 'high')] }),
      ours(3, 'session/set_config_option', { configId: 'effort', value: 'max' }),
      agentAnswer(3, {}),
    ]);
    expect(entries).toMatchObject([
      { kind: 'config_change', source: 'set_config_option', changes: [{ configId: 'model', from: 'a', to: 'b' }, { configId: 'effort', from: 'low', to: 'high' }] },
      { kind: 'config_change', source: 'set_config_option', changes: [{ configId: 'effort', name: 'EFFORT', from: 'high', to: 'max' }] },
    ]);
    // The selector shows what the transcript says: the asked value, in a copy of the set.
    expect(t.session.configOptions?.map((o) => o.currentValue)).toEqual(['b', 'max']);
  });

  it('a mode change moves the `mode` config option with it when the agent left that option at the old mode', () => {
    const modeOption: JsonObject = { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }, { group: 'g', name: 'More', options: [{ value: 'code', name: 'Code' }] }] };
    const model: JsonObject = { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm', options: [{ value: 'm', name: 'M' }] };
    const modes = { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }, { id: 'yolo', name: 'Yolo' }] };
    const { t, entries } = build([
      ours(1, 'session/new', { cwd: '/w' }),
      agentAnswer(1, { sessionId: 'a1', modes, configOptions: [modeOption, model] }),
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }),
    ]);
    expect(t.session.configOptions?.map((o) => o.currentValue)).toEqual(['code', 'm']);
    // The mode change is the record; the option following it is not a second one.
    expect(kinds(entries)).toEqual(['mode_change']);
    // A mode the option does not offer leaves it alone.
    const other = build([
      ours(1, 'session/new', { cwd: '/w' }),
      agentAnswer(1, { sessionId: 'a1', modes, configOptions: [modeOption, model] }),
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'yolo' }),
    ]);
    expect(other.t.session.configOptions?.map((o) => o.currentValue)).toEqual(['ask', 'm']);
    // An agent that moves the option itself, before or after the mode: one record of each, no more.
    const moved = build([
      ours(1, 'session/new', { cwd: '/w' }),
      agentAnswer(1, { sessionId: 'a1', modes, configOptions: [modeOption, model] }),
      update({ sessionUpdate: 'config_option_update', configOptions: [{ ...modeOption, currentValue: 'code' }, model] }),
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }),
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'ask' }),
      update({ sessionUpdate: 'config_option_update', configOptions: [modeOption, model] }),
    ]);
    expect(moved.t.session.configOptions?.map((o) => o.currentValue)).toEqual(['ask', 'm']);
    expect(kinds(moved.entries)).toEqual(['config_change', 'mode_change', 'mode_change']);
  });

  it('legacy session/set_model: the ack changes the current model', () => {
    const { t, entries } = build([
      ours(1, 'session/new'),
      agentAnswer(1, { sessionId: 'a1', models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'M1' }, { modelId: 'm2', name: 'M2' }] } }),
      ours(2, 'session/set_model', { modelId: 'm2' }),
      agentAnswer(2, {}),
    ]);
    expect(entries).toMatchObject([{ kind: 'config_change', source: 'set_model', changes: [{ configId: 'model', from: 'm1', to: 'm2' }] }]);
    expect(t.session.models?.currentModelId).toBe('m2');
  });

  it('session/new: the answer gives the agent session id, modes and options without entries', () => {
    const { t, entries } = build([
      ours(1, 'session/new', { cwd: '/w' }),
      agentAnswer(1, { sessionId: 'agent-9', modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] }, configOptions: [] }),
    ]);
    expect(entries).toEqual([]);
    expect(t.session).toMatchObject({ agentSessionId: 'agent-9', modes: { currentModeId: 'ask' }, configOptions: [] });
  });

  it('session/load: what comes before the answer is flagged replayed; a null answer is accepted; the next chunk starts a new entry', () => {
    const { entries } = build([
      ours(1, 'session/load', { sessionId: 'old' }),
      update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'old q' } }),
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'old a' } }),
      agentAnswer(1, null),
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'new' } }),
    ]);
    expect(entries).toMatchObject([{ kind: 'user_message', flags: ['replayed'] }, { kind: 'agent_message', flags: ['replayed'] }, { kind: 'agent_message' }]);
    expect(entries[2]!.flags).toBeUndefined();
  });

  it('errors answering session lifecycle requests become error entries naming the method', () => {
    const { entries } = build([ours(1, 'session/load', { sessionId: 'gone' }), agentError(1, { code: -32002, message: 'Resource not found', data: { sessionId: 'gone' } })]);
    expect(entries).toMatchObject([{ kind: 'error', code: -32002, method: 'session/load', data: { sessionId: 'gone' } }]);
  });

  it('an error answering the prompt gives an error entry with the stderr tail and a turn end without stop reason', () => {
    const { entries } = build([rec('stderr', { text: 'boom: quota' }), prompt(1), agentError(1, { code: -32603, message: 'Internal error', data: { details: 'quota' } })]);
    expect(entries).toMatchObject([
      { kind: 'user_message' },
      { kind: 'error', code: -32603, data: { details: 'quota' }, stderrTail: ['boom: quota'], method: 'session/prompt' },
      { kind: 'turn_end', stopReason: null, error: { code: -32603, message: 'Internal error' } },
    ]);
  });

  it('responses with id null and answers to requests never made are ignored', () => {
    const { entries } = build([wire('in', { id: null, error: { code: -32700, message: 'Parse error' } }), agentAnswer(99, { stopReason: 'end_turn' }), ourAnswer(5, {})]);
    expect(entries).toEqual([]);
  });

  it('session/cancel marks the turn cancelling; tool calls still running when it ends cancelled become cancelled', () => {
    const records = [
      prompt(1),
      update({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'run', status: 'in_progress' }),
      update({ sessionUpdate: 'tool_call', toolCallId: 'wait', title: 'wait' }),
      update({ sessionUpdate: 'tool_call', toolCallId: 'done', title: 'done', status: 'completed' }),
      wire('out', { method: 'session/cancel', params: { sessionId: 'a1' } }),
    ];
    const during = build(records);
    expect(during.t.session.turnStatus).toBe('cancelling');
    expect(tool(during.entries, 'run').status).toBe('in_progress');

    const after = build([...records, update({ sessionUpdate: 'tool_call_update', toolCallId: 'wait', status: 'failed' }), agentAnswer(1, { stopReason: 'cancelled' })]);
    expect(['run', 'wait', 'done'].map((id) => tool(after.entries, id).status)).toEqual(['cancelled', 'failed', 'completed']);
    expect(after.entries.at(-1)).toMatchObject({ kind: 'turn_end', stopReason: 'cancelled' });
    expect(kinds(after.entries)).not.toContain('error');
    expect(after.t.session.turnStatus).toBe('idle');
  });

  it('a turn that ends normally leaves its tool calls as the agent last said', () => {
    const { entries } = build([prompt(1), update({ sessionUpdate: 'tool_call', toolCallId: 'bg', title: 'bg', status: 'in_progress' }), agentAnswer(1, { stopReason: 'end_turn' })]);
    expect(tool(entries, 'bg').status).toBe('in_progress');
  });
});

describe('wire: the agent’s requests and our answers', () => {
  it('a permission request shows on its tool call without erasing its diff; the answer records the choice by kind', () => {
    const diff = { type: 'diff', path: '/w/a', oldText: '1', newText: '2' };
    const reason = { type: 'content', content: { type: 'text', text: 'needs approval' } };
    const { entries } = build([
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit a', kind: 'edit', content: [diff] }),
      permissionRequest('req-uuid', { toolCallId: 't1', content: [reason, diff] }),
      ourAnswer('req-uuid', { outcome: { outcome: 'selected', optionId: 'yes' } }),
    ]);
    const t1 = tool(entries, 't1');
    expect(t1.content).toEqual([diff]);
    expect(t1.permissions).toMatchObject([{ requestId: 'req-uuid', status: 'selected', optionId: 'yes', optionKind: 'allow_once', optionName: 'Yes', context: [reason] }]);
  });

  it('a permission request for a tool call never announced creates it, with the request’s fields', () => {
    const { entries } = build([permissionRequest(3, { toolCallId: 'new', title: 'Write f', kind: 'edit', content: [{ type: 'diff', path: '/f', newText: 'x' }] })]);
    expect(tool(entries, 'new')).toMatchObject({ title: 'Write f', toolKind: 'edit', status: 'pending', content: [{ type: 'diff' }], flags: ['created-lazily'] });
    expect(tool(entries, 'new').permissions[0]!.context).toBeUndefined();
  });

  it('a permission answered cancelled, or with an error, says so', () => {
    const { entries } = build([
      permissionRequest(1, { toolCallId: 'a' }),
      permissionRequest(2, { toolCallId: 'b' }),
      ourAnswer(1, { outcome: { outcome: 'cancelled' } }),
      ourError(2, { code: -32603, message: 'broker gone' }),
    ]);
    expect(tool(entries, 'a').permissions[0]).toMatchObject({ status: 'cancelled' });
    expect(tool(entries, 'b').permissions[0]).toMatchObject({ status: 'failed', error: 'broker gone' });
  });

  it('the agent withdrawing its permission request ($/cancel_request) marks it cancelled by the agent', () => {
    const { entries } = build([permissionRequest(1, { toolCallId: 'a' }), wire('in', { method: '$/cancel_request', params: { requestId: 1 } })]);
    expect(tool(entries, 'a').permissions[0]).toMatchObject({ status: 'cancelled', decidedBy: 'agent' });
  });

  it('fs/write_text_file records a file change, attributed to the running tool call; an error answer is kept', () => {
    const { t } = build([
      update({ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'write', status: 'in_progress' }),
      theirs(4, 'fs/write_text_file', { path: '/w/f', content: 'new' }),
      ourAnswer(4, null),
      theirs(5, 'fs/write_text_file', { path: '/w/g', content: 'x' }),
      ourError(5, { code: -32002, message: 'outside the workspace' }),
    ]);
    expect(t.fileChanges).toMatchObject([
      { id: 'req:n:4', path: '/w/f', newText: 'new', toolCallId: 'w' },
      { id: 'req:n:5', path: '/w/g', error: 'outside the workspace' },
    ]);
    expect(t.fileChanges[0]!.oldText).toBeUndefined();
  });

  it('terminal requests and our answers track the terminal (claude-code-acp sends no cwd or args)', () => {
    const { t } = build([
      theirs(1, 'terminal/create', { command: 'npm test' }),
      ourAnswer(1, { terminalId: 'term-1' }),
      theirs(2, 'terminal/output', { terminalId: 'term-1' }),
      ourAnswer(2, { output: 'ok\n', truncated: false }),
      theirs(3, 'terminal/wait_for_exit', { terminalId: 'term-1' }),
      ourAnswer(3, { exitCode: 0, signal: null }),
      theirs(4, 'terminal/release', { terminalId: 'term-1' }),
      ourAnswer(4, {}),
    ]);
    expect(t.terminals['term-1']).toEqual({ terminalId: 'term-1', command: 'npm test', status: 'exited', output: 'ok\n', truncated: false, exitCode: 0, signal: null, released: true });
  });
});

describe('record kinds', () => {
  it('noise changes nothing; oversize leaves a notice', () => {
    const { entries } = build([
      rec('noise', { dir: 'in', text: 'banner' }),
      rec('noise', { dir: 'in', base64: '/w==' }),
      rec('oversize', { dir: 'in', length: 99, sha256: 'ab', head: '{' }),
    ]);
    expect(entries).toMatchObject([{ kind: 'notice', severity: 'warning', source: 'workbench' }]);
  });

  it('stderr keeps only the last 20 lines for error entries', () => {
    const lines = Array.from({ length: 25 }, (_, i) => rec('stderr', { text: `line ${i}` }));
    const { entries } = build([...lines, rec('spawn', { error: { message: 'ENOENT', code: 'ENOENT' } })]);
    const error = entries[0] as { stderrTail: string[]; source: string; message: string };
    expect(error.source).toBe('spawn');
    expect(error.message).toContain('ENOENT');
    expect(error.stderrTail).toHaveLength(20);
    expect(error.stderrTail[0]).toBe('line 5');
  });

  it('spawn records the pid; exit during a turn ends it as an error and settles running tool calls', () => {
    const { t, entries } = build([
      rec('spawn', { pid: 42 }),
      prompt(1),
      update({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'x', status: 'in_progress' }),
      permissionRequest(0, { toolCallId: 'x' }),
      rec('exit', { code: null, signal: 'SIGKILL' }),
    ]);
    expect(t.session.process).toEqual({ pid: 42, exited: { code: null, signal: 'SIGKILL' } });
    expect(tool(entries, 'x')).toMatchObject({ status: 'cancelled', permissions: [{ status: 'cancelled', decidedBy: 'exit' }] });
    expect(entries.slice(-2)).toMatchObject([
      { kind: 'error', source: 'exit', message: expect.stringContaining('SIGKILL') },
      { kind: 'turn_end', stopReason: null },
    ]);
    expect(t.session.turnStatus).toBe('idle');
  });

  it('exit between turns: an error when unexpected and failing, a notice when clean, nothing when asked for', () => {
    expect(build([rec('exit', { code: 1, signal: null })]).entries).toMatchObject([{ kind: 'error', source: 'exit' }]);
    expect(build([rec('exit', { code: 0, signal: null })]).entries).toMatchObject([{ kind: 'notice', severity: 'info' }]);
    expect(build([rec('exit', { code: null, signal: 'SIGTERM', expected: true })]).entries).toEqual([]);
  });

  it('prompt event and wire line give one user entry, in either order; the event adds its origin', () => {
    const eventFirst = build([rec('prompt', { requestId: 1, origin: 'compare-run' }), prompt(1, 'x')]).entries;
    const wireFirst = build([prompt(1, 'x'), rec('prompt', { requestId: 1, origin: 'compare-run', prompt: [{ type: 'text', text: 'x' }] })]).entries;
    for (const entries of [eventFirst, wireFirst]) {
      expect(entries).toMatchObject([{ kind: 'user_message', origin: 'compare-run', requestId: 1 }]);
    }
    const eventOnly = build([rec('prompt', { requestId: 1, prompt: [{ type: 'text', text: 'y' }] })]);
    expect(eventOnly.entries).toMatchObject([{ kind: 'user_message', content: [{ type: 'text', text: 'y' }] }]);
    expect(eventOnly.t.session.turnStatus).toBe('running');
  });

  it('permission-asked alone shows the request; with the wire request it is the same one', () => {
    const alone = build([rec('permission-asked', { requestId: 5, toolCallId: 'q', options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }] })]);
    expect(tool(alone.entries, 'q').permissions).toMatchObject([{ requestId: 5, status: 'pending' }]);
    const both = build([permissionRequest(5, { toolCallId: 'q' }), rec('permission-asked', { requestId: 5, toolCallId: 'q' })]);
    expect(tool(both.entries, 'q').permissions).toHaveLength(1);
  });

  it('permission-decided says who decided, before or after our wire answer', () => {
    const decided = rec('permission-decided', { requestId: 1, outcome: 'selected', optionId: 'yes', by: 'policy', rule: 'edits in worktree' });
    const answer = ourAnswer(1, { outcome: { outcome: 'selected', optionId: 'yes' } });
    for (const order of [
      [decided, answer],
      [answer, decided],
    ]) {
      const { entries } = build([permissionRequest(1, { toolCallId: 'p' }), ...order]);
      expect(tool(entries, 'p').permissions).toMatchObject([{ status: 'selected', optionKind: 'allow_once', decidedBy: 'policy', rule: 'edits in worktree' }]);
    }
  });

  it('cancel event marks the turn cancelling like session/cancel', () => {
    expect(build([prompt(1), rec('cancel', { by: 'user' })]).t.session.turnStatus).toBe('cancelling');
    expect(build([rec('cancel', {})]).t.session.turnStatus).toBe('idle');
  });

  it('fs-write completes the change of the wire request with the old text; alone it is a change of its own', () => {
    const { t } = build([
      theirs(1, 'fs/write_text_file', { path: '/f', content: 'b' }),
      rec('fs-write', { requestId: 1, path: '/f', oldText: 'a', newText: 'b' }),
      rec('fs-write', { path: '/g', oldText: null, newText: 'new file' }),
    ]);
    expect(t.fileChanges).toMatchObject([
      { id: 'req:n:1', path: '/f', oldText: 'a', newText: 'b' },
      { id: 'write:1', path: '/g', oldText: null, newText: 'new file' },
    ]);
  });

  it('terminal events track the lifecycle', () => {
    const { t } = build([
      rec('terminal', { terminalId: 'k', action: 'created', command: 'sleep', args: ['9'], cwd: '/w' }),
      rec('terminal', { terminalId: 'k', action: 'output', output: 'zz', truncated: true }),
      rec('terminal', { terminalId: 'k', action: 'killed' }),
      rec('terminal', { terminalId: 'k', action: 'exited', exitCode: null, signal: 'SIGKILL' }),
      rec('terminal', { terminalId: 'k', action: 'released' }),
    ]);
    expect(t.terminals.k).toEqual({ terminalId: 'k', command: 'sleep', args: ['9'], cwd: '/w', status: 'exited', output: 'zz', truncated: true, exitCode: null, signal: 'SIGKILL', released: true });
  });

  it('session and session-meta set the ids, how it was opened, lineage, and the user’s title and tags', () => {
    const { t, entries } = build([
      rec('session', { action: 'forked', sessionId: 'W1', agentSessionId: 'A1', lineage: { parentSessionId: 'W0', forkPoint: { entryId: 'e4' } } }),
      rec('session-meta', { sessionId: 'W1', title: 'My fork', tags: ['x'] }),
      rec('session-meta', { sessionId: 'W1', title: null }),
    ]);
    expect(entries).toEqual([]);
    expect(t.session).toMatchObject({ sessionId: 'W1', agentSessionId: 'A1', opened: 'forked', lineage: { parentSessionId: 'W0', forkPoint: { entryId: 'e4' } }, userTitle: null, tags: ['x'] });
  });

  it('a workbench notice becomes a notice entry', () => {
    expect(build([rec('notice', { severity: 'error', message: 'disk full' })]).entries).toMatchObject([{ kind: 'notice', severity: 'error', title: 'disk full', source: 'workbench' }]);
  });

  it('records carrying session ids give the transcript its ids', () => {
    const { t } = build([{ ...prompt(1), sessionId: 'W9', agentSessionId: 'A9' } as TraceRecord]);
    expect(t.session).toMatchObject({ sessionId: 'W9', agentSessionId: 'A9' });
  });
});

describe('reduce', () => {
  it('is pure: the input state is not changed and the same inputs give the same output', () => {
    const records = [prompt(1), update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'a' }), update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } })];
    let state = initialReducerState();
    for (const r of records) state = reduce(state, r).state;
    const snapshot = { ...state, toolCalls: state.toolCalls.clone(), turn: { ...state.turn } };
    const r = update({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' });
    const first = reduce(state, r);
    const second = reduce(state, r);
    expect(second).toEqual(first);
    expect(state).toEqual(snapshot);
    expect(toolCallInfo(state.toolCalls, 'a')!.status).toBe('pending');
    expect(toolCallInfo(first.state.toolCalls, 'a')!.status).toBe('completed');
  });

  it('a streaming chunk yields one small append-text patch', () => {
    let state = initialReducerState();
    state = reduce(state, update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } })).state;
    const { patches } = reduce(state, update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'b' } }));
    expect(patches).toEqual([{ op: 'append-text', id: 'e1', text: 'b' }]);
  });
});
