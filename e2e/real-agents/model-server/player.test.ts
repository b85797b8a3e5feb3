import { describe, expect, it } from 'vitest';
import { play, sampleFromSchema } from './player';
import { guessCwd, parseMarker, type Action } from './scenarios';
import { addPatch, mapAction, updatePatch } from './tool-mapping';
import type { ConversationEntry, NormalizedRequest, ToolDef } from './types';

const fn = (name: string, properties: Record<string, unknown>, required: string[] = []): ToolDef => ({
  name,
  type: 'function',
  schema: { type: 'object', properties: properties as never, required },
});
const str = { type: 'string' };

const claudeTools = [
  fn('Read', { file_path: str }, ['file_path']),
  fn('Edit', { file_path: str, old_string: str, new_string: str }, ['file_path', 'old_string', 'new_string']),
  fn('Write', { file_path: str, content: str }, ['file_path', 'content']),
  fn('Bash', { command: str, description: str }, ['command']),
  fn('TodoWrite', { todos: { type: 'array', items: { type: 'object', properties: { content: str, status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] }, activeForm: str } } } }),
];
const opencodeTools = [
  fn('read', { filePath: str }),
  fn('edit', { filePath: str, oldString: str, newString: str }),
  fn('write', { filePath: str, content: str }),
  fn('bash', { command: str, description: str }, ['command', 'description']),
  fn('todowrite', { todos: { type: 'array', items: { type: 'object', properties: { content: str, status: str, priority: str, id: str } } } }),
];
const codexTools: ToolDef[] = [
  fn('exec_command', { cmd: str, sandbox_permissions: { type: 'string', enum: ['use_default', 'require_escalated'] }, justification: str }, ['cmd']),
  fn('update_plan', { explanation: str, plan: { type: 'array', items: { type: 'object', properties: { step: str, status: str }, required: ['step', 'status'] } } }),
  { name: 'apply_patch', type: 'custom' },
];
const geminiTools = [
  fn('read_file', { file_path: str }),
  fn('replace', { file_path: str, instruction: str, old_string: str, new_string: str }, ['file_path', 'instruction', 'old_string', 'new_string']),
  fn('write_file', { file_path: str, content: str }),
  fn('run_shell_command', { command: { type: 'STRING' } }),
  fn('write_todos', { todos: { type: 'array', items: { type: 'object', properties: { description: str, status: str } } } }),
];

function request(conversation: ConversationEntry[], tools: ToolDef[], extra: Partial<NormalizedRequest> = {}): NormalizedRequest {
  return { api: 'anthropic', model: 'm', stream: true, system: '', tools, conversation, ...extra };
}

describe('scenario markers', () => {
  it('parses names and plain or quoted arguments', () => {
    expect(parseMarker('x [scenario:shell cmd="echo a > b" escalate=true] y')).toEqual({ name: 'shell', args: { cmd: 'echo a > b', escalate: 'true' } });
    expect(parseMarker('[scenario:text]')).toEqual({ name: 'text', args: {} });
    expect(parseMarker('no marker')).toBeNull();
  });

  it('guesses the working directory from each agent\'s wording', () => {
    expect(guessCwd(['<env>\n<cwd>/work/p</cwd>'])).toBe('/work/p');
    expect(guessCwd(['Working directory: /tmp/x\nmore'])).toBe('/tmp/x');
    expect(guessCwd(["I'm currently working in the directory: /home/u/p"])).toBe('/home/u/p');
    expect(guessCwd(['- **Workspace Directories:**\n  - /tmp/g\n- **Directory Structure:**'])).toBe('/tmp/g');
    expect(guessCwd([' - Primary working directory: /tmp/c\n  - Is a git repository: false'])).toBe('/tmp/c');
  });
});

describe('tool mapping', () => {
  const edit = { kind: 'edit', path: '/p/n.txt', oldText: 'Hello', newText: 'Bye' } as const;

  it('maps edit onto each agent\'s edit tool with its own field names', () => {
    expect(mapAction(edit, claudeTools)![0]!).toMatchObject({ tool: { name: 'Edit' }, input: { file_path: '/p/n.txt', old_string: 'Hello', new_string: 'Bye' } });
    expect(mapAction(edit, opencodeTools)![0]!.input).toEqual({ filePath: '/p/n.txt', oldString: 'Hello', newString: 'Bye' });
    expect(mapAction(edit, geminiTools)![0]!.input).toMatchObject({ file_path: '/p/n.txt', instruction: expect.any(String) });
    expect(mapAction(edit, codexTools)![0]!).toMatchObject({ tool: { name: 'apply_patch' }, rawInput: updatePatch('/p/n.txt', 'Hello', 'Bye') });
  });

  it('writes codex patches in the apply_patch grammar', () => {
    expect(addPatch('/p/a.txt', 'one\ntwo\n')).toBe('*** Begin Patch\n*** Add File: /p/a.txt\n+one\n+two\n*** End Patch\n');
    expect(updatePatch('/p/a.txt', 'x', 'y')).toBe('*** Begin Patch\n*** Update File: /p/a.txt\n@@\n-x\n+y\n*** End Patch\n');
  });

  it('falls back to an argv shell running apply_patch when there is no patch tool', () => {
    const shell = fn('shell', { command: { type: 'array', items: str } });
    const call = mapAction({ kind: 'write', path: '/p/a.txt', content: 'x\n' }, [shell])![0]!;
    expect(call.input).toEqual({ command: ['apply_patch', addPatch('/p/a.txt', 'x\n')] });
  });

  it('maps shell onto string and argv commands, escalating only where the tool can', () => {
    const shell = { kind: 'shell', command: 'echo hi', escalate: true } as const;
    expect(mapAction(shell, claudeTools)![0]!.input).toEqual({ command: 'echo hi', description: 'Run echo hi' });
    expect(mapAction(shell, codexTools)![0]!.input).toMatchObject({ cmd: 'echo hi', sandbox_permissions: 'require_escalated' });
    expect(mapAction(shell, [fn('shell', { command: { type: 'array' } })])![0]!.input).toEqual({ command: ['bash', '-lc', 'echo hi'] });
    expect(mapAction(shell, geminiTools)![0]!.input).toEqual({ command: 'echo hi' });
  });

  it('fills plan items from each todo schema, or one TaskCreate per entry', () => {
    const plan: Action = { kind: 'plan', entries: [{ content: 'A', status: 'completed' }, { content: 'B', status: 'pending' }] };
    expect(mapAction(plan, claudeTools)![0]!.input).toEqual({
      todos: [
        { content: 'A', status: 'completed', activeForm: 'Working on: A' },
        { content: 'B', status: 'pending', activeForm: 'Working on: B' },
      ],
    });
    expect(mapAction(plan, opencodeTools)![0]!.input['todos']).toEqual([
      { content: 'A', status: 'completed', priority: 'medium', id: '1' },
      { content: 'B', status: 'pending', priority: 'medium', id: '2' },
    ]);
    expect(mapAction(plan, codexTools)![0]!.input).toEqual({ plan: [{ step: 'A', status: 'completed' }, { step: 'B', status: 'pending' }], explanation: 'Scripted plan' });
    expect(mapAction(plan, geminiTools)![0]!.input).toEqual({ todos: [{ description: 'A', status: 'completed' }, { description: 'B', status: 'pending' }] });
    const tasks = mapAction(plan, [fn('TaskCreate', { subject: str, description: str, activeForm: str })])!;
    expect(tasks.map((t) => t.input['subject'])).toEqual(['A', 'B']);
  });

  it('returns null when no tool fits', () => {
    expect(mapAction({ kind: 'plan', entries: [] }, [fn('Bash', { command: str })])).toBeNull();
  });
});

describe('player', () => {
  const prompt: ConversationEntry = { role: 'user', text: 'please [scenario:edit-file file=/p/notes.txt]' };
  const call = (name: string): ConversationEntry => ({ role: 'assistant', text: 'Step', toolCalls: [name] });
  const result = (text: string): ConversationEntry => ({ role: 'tool_result', callId: 'x', text });

  it('advances one step per completed tool call run and ends with text', () => {
    const step0 = play(request([prompt], claudeTools));
    expect(step0.record).toMatchObject({ scenario: 'edit-file', step: 0, action: 'read', toolName: 'Read' });
    expect(step0.reply.toolCalls[0]!.id).toMatch(/^toolu_/);
    const step1 = play(request([prompt, call('Read'), result('Hello, world!')], claudeTools));
    expect(step1.record).toMatchObject({ step: 1, action: 'edit', toolName: 'Edit', previousToolResult: 'Hello, world!' });
    const step2 = play(request([prompt, call('Read'), result('1'), { role: 'user', text: '<reminder>' }, call('Edit'), result('ok')], claudeTools));
    expect(step2.record).toMatchObject({ step: 2, action: 'text' });
    expect(step2.reply.toolCalls).toEqual([]);
  });

  it('skips the optional read for agents without a read tool', () => {
    const r = play(request([prompt], codexTools, { api: 'openai-responses' }));
    expect(r.record).toMatchObject({ step: 0, action: 'edit', toolName: 'apply_patch' });
    expect(r.reply.toolCalls[0]!.rawInput).toContain('*** Update File: /p/notes.txt');
  });

  it('counts parallel calls (one Responses item each) as one step', () => {
    const plan: ConversationEntry = { role: 'user', text: '[scenario:plan]' };
    const r = play(request([plan, call('TaskCreate'), call('TaskCreate'), result('1'), result('2')], [fn('TaskCreate', { subject: str })]));
    expect(r.record).toMatchObject({ step: 1, action: 'text', previousToolResult: '1\n2' });
  });

  it('resolves relative file arguments against the working directory in the system prompt', () => {
    const r = play(request([{ role: 'user', text: '[scenario:create-file]' }], claudeTools, { system: 'Working directory: /w/p' }));
    expect(r.reply.toolCalls[0]!.input).toEqual({ file_path: '/w/p/created.txt', content: 'Created by the scripted model.\n' });
  });

  it('says so in text when the agent lacks a required tool', () => {
    const r = play(request([{ role: 'user', text: '[scenario:shell]' }], [fn('Read', { file_path: str })]));
    expect(r.reply.toolCalls).toEqual([]);
    expect(r.reply.textChunks.join('')).toContain('offered no tool for "shell"');
  });

  it('answers side requests without tools, and JSON requests with a matching object', () => {
    expect(play(request([prompt], [])).record.action).toBe('side-request');
    const json = play(request([prompt], claudeTools, { jsonSchema: { type: 'object', properties: { title: str } } }));
    expect(JSON.parse(json.reply.textChunks.join(''))).toEqual({ title: 'Scripted session' });
    expect(sampleFromSchema({ type: 'OBJECT', properties: { reasoning: str, next_speaker: { type: 'string', enum: ['model', 'user'] } } })).toEqual({
      reasoning: 'scripted',
      next_speaker: 'user',
    });
  });

  it('plays the full scenario: plan, read, edit, new file, escalated shell, text', () => {
    const full: ConversationEntry = { role: 'user', text: '[scenario:full]' };
    const steps: string[] = [];
    const conversation: ConversationEntry[] = [full];
    for (let i = 0; i < 8; i++) {
      const r = play(request(conversation, claudeTools, { system: 'Working directory: /w/p' }));
      steps.push(r.record.toolName ? `${r.record.action}(${r.record.toolName})` : r.record.action);
      if (r.record.action === 'write') expect(r.reply.toolCalls[0]!.input).toMatchObject({ file_path: '/w/p/created.txt' });
      if (r.record.action === 'shell') expect(r.reply.toolCalls[0]!.input).toMatchObject({ command: 'echo acp-shell-ok > shell-ok.txt' });
      if (!r.record.toolName) break;
      conversation.push(call(r.record.toolName), result('ok'));
    }
    expect(steps).toEqual(['plan(TodoWrite)', 'read(Read)', 'edit(Edit)', 'write(Write)', 'shell(Bash)', 'text']);
    const codex = play(request([full, call('update_plan'), result('ok')], codexTools, { api: 'openai-responses', system: '<cwd>/w/p</cwd>' }));
    expect(codex.record).toMatchObject({ step: 1, action: 'edit', toolName: 'apply_patch' });
  });

  it('streams the slow scenario as many delayed chunks', () => {
    const r = play(request([{ role: 'user', text: '[scenario:slow chunks=5 interval=50]' }], claudeTools));
    expect(r.reply.textChunks).toHaveLength(5);
    expect(r.reply.frameDelayMs).toBe(50);
  });
});
