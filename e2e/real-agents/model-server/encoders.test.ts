import { describe, expect, it } from 'vitest';
import { encodeAnthropicStream, parseAnthropicRequest } from './anthropic';
import { encodeGeminiStream, parseGeminiPath, parseGeminiRequest } from './gemini';
import { encodeChatStream, parseChatRequest } from './openai-chat';
import { encodeResponsesStream, parseResponsesRequest } from './openai-responses';
import { parseSse } from './sse-parse';
import type { ModelReply } from './types';

const toolReply: ModelReply = {
  textChunks: ['Step 1: ', 'edit.'],
  toolCalls: [{ id: 'toolu_1', name: 'Edit', input: { file_path: '/p/notes.txt', old_string: 'a', new_string: 'b' } }],
  frameDelayMs: 0,
};
const textReply: ModelReply = { textChunks: ['Hello ', 'world'], toolCalls: [], frameDelayMs: 0 };

type Rec = Record<string, unknown>;

describe('Anthropic Messages stream', () => {
  it('emits the event sequence with text and tool_use blocks whose partial JSON rebuilds the input', () => {
    const events = parseSse(encodeAnthropicStream(toolReply, 'claude-x').frames);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect((e.data as Rec)['type']).toBe(e.event);
    const toolStart = events[6]!.data as { content_block: Rec; index: number };
    expect(toolStart.index).toBe(1);
    expect(toolStart.content_block).toMatchObject({ type: 'tool_use', id: 'toolu_1', name: 'Edit', input: {} });
    const json = events
      .filter((e) => e.event === 'content_block_delta' && (e.data as { delta: Rec }).delta['type'] === 'input_json_delta')
      .map((e) => (e.data as { delta: { partial_json: string } }).delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual(toolReply.toolCalls[0]!.input);
    expect((events[10]!.data as { delta: Rec }).delta['stop_reason']).toBe('tool_use');
  });

  it('ends a text-only reply with end_turn', () => {
    const events = parseSse(encodeAnthropicStream(textReply, 'claude-x').frames);
    const text = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data as { delta: { text: string } }).delta.text)
      .join('');
    expect(text).toBe('Hello world');
    expect((events.find((e) => e.event === 'message_delta')!.data as { delta: Rec }).delta['stop_reason']).toBe('end_turn');
  });

  it('parses tool results, reminders and the JSON output format of title requests', () => {
    const req = parseAnthropicRequest({
      model: 'm',
      stream: true,
      system: [{ type: 'text', text: 'sys' }],
      output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { title: { type: 'string' } } } } },
      tools: [{ name: 'Edit', input_schema: { type: 'object' } }, { type: 'web_search_20250305', name: 'web_search' }],
      messages: [
        { role: 'user', content: 'go [scenario:text]' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Edit', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'ok' }], is_error: true }, { type: 'text', text: '<system-reminder>' }] },
      ],
    });
    expect(req.tools.map((t) => t.name)).toEqual(['Edit']);
    expect(req.system).toBe('sys');
    expect(req.jsonSchema).toBeDefined();
    expect(req.conversation).toEqual([
      { role: 'user', text: 'go [scenario:text]' },
      { role: 'assistant', text: '', toolCalls: ['Edit'] },
      { role: 'tool_result', callId: 't1', text: 'ok', isError: true },
      { role: 'user', text: '<system-reminder>' },
    ]);
  });
});

describe('OpenAI Chat Completions stream', () => {
  it('streams content and tool_calls deltas, a finish_reason, usage on request, then [DONE]', () => {
    const events = parseSse(encodeChatStream({ ...toolReply, toolCalls: [{ ...toolReply.toolCalls[0]!, id: 'call_1', name: 'edit' }] }, 'm', true).frames);
    expect(events[events.length - 1]!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => e.data as { object: string; choices: { delta: Rec; finish_reason: string | null }[]; usage?: Rec });
    for (const c of chunks) expect(c.object).toBe('chat.completion.chunk');
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    const deltas = chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
    expect(deltas.map((d) => d['content'] ?? '').join('')).toBe('Step 1: edit.');
    const calls = deltas.flatMap((d) => (d['tool_calls'] as { index: number; id?: string; function: { name?: string; arguments: string } }[] | undefined) ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: 'call_1', type: 'function', function: { name: 'edit', arguments: '' } });
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(''))).toEqual(toolReply.toolCalls[0]!.input);
    const finish = chunks.flatMap((c) => c.choices).find((ch) => ch.finish_reason !== null);
    expect(finish?.finish_reason).toBe('tool_calls');
    expect(chunks[chunks.length - 1]!.choices).toEqual([]);
    expect(chunks[chunks.length - 1]!.usage).toMatchObject({ prompt_tokens: expect.any(Number) });
  });

  it('parses system, tool and assistant messages', () => {
    const req = parseChatRequest({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }],
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: [{ type: 'text', text: 'hi [scenario:shell]' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', function: { name: 'bash', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'acp-shell-ok' },
      ],
    });
    expect(req.includeUsage).toBe(true);
    expect(req.system).toBe('sys');
    expect(req.conversation.map((e) => e.role)).toEqual(['user', 'assistant', 'tool_result']);
  });
});

describe('OpenAI Responses stream', () => {
  it('emits created → items → completed with increasing sequence numbers', () => {
    const events = parseSse(encodeResponsesStream({ ...toolReply, toolCalls: [{ ...toolReply.toolCalls[0]!, id: 'call_1', name: 'exec_command' }] }, 'gpt').frames);
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('response.created');
    expect(types[types.length - 1]).toBe('response.completed');
    expect(types).toContain('response.output_text.delta');
    expect(types).toContain('response.function_call_arguments.delta');
    const seq = events.map((e) => (e.data as { sequence_number: number }).sequence_number);
    expect(seq).toEqual([...seq].sort((a, b) => a - b));
    const done = events.filter((e) => e.event === 'response.output_item.done').map((e) => (e.data as { item: Rec }).item);
    expect(done[0]).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Step 1: edit.' }] });
    expect(done[1]).toMatchObject({ type: 'function_call', call_id: 'call_1', name: 'exec_command' });
    expect(JSON.parse(String(done[1]!['arguments']))).toEqual(toolReply.toolCalls[0]!.input);
    const completed = events[events.length - 1]!.data as { response: { status: string; output: unknown[]; usage: Rec } };
    expect(completed.response.status).toBe('completed');
    expect(completed.response.output).toHaveLength(2);
    expect(completed.response.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
  });

  it('sends a free-form (custom) tool call with its raw input', () => {
    const patch = '*** Begin Patch\n*** End Patch\n';
    const events = parseSse(encodeResponsesStream({ textChunks: [], toolCalls: [{ id: 'call_2', name: 'apply_patch', input: {}, rawInput: patch }], frameDelayMs: 0 }, 'gpt').frames);
    const item = events.filter((e) => e.event === 'response.output_item.done').map((e) => (e.data as { item: Rec }).item)[0];
    expect(item).toMatchObject({ type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: patch });
    expect(events.map((e) => e.event)).toContain('response.custom_tool_call_input.delta');
  });

  it('parses instructions, messages, calls and outputs; keeps custom tools; skips hosted ones', () => {
    const req = parseResponsesRequest({
      model: 'gpt',
      instructions: 'be codex',
      tools: [{ type: 'function', name: 'exec_command', parameters: {} }, { type: 'custom', name: 'apply_patch' }, { type: 'web_search' }],
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'do [scenario:edit-file]' }] },
        { type: 'custom_tool_call', name: 'apply_patch', call_id: 'c1', input: 'x' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: 'Success' },
      ],
    });
    expect(req.tools).toEqual([
      { name: 'exec_command', description: undefined, schema: {}, type: 'function' },
      { name: 'apply_patch', description: undefined, type: 'custom' },
    ]);
    expect(req.system).toBe('be codex\ndev');
    expect(req.conversation.map((e) => e.role)).toEqual(['user', 'assistant', 'tool_result']);
  });
});

describe('Gemini streamGenerateContent', () => {
  it('sends text chunks, then the function call with finishReason STOP and usage', () => {
    const events = parseSse(encodeGeminiStream({ ...toolReply, toolCalls: [{ ...toolReply.toolCalls[0]!, name: 'replace' }] }, 'gemini-2.5-flash').frames);
    const candidates = events.map((e) => (e.data as { candidates: { content: { role: string; parts: Rec[] }; finishReason?: string }[] }).candidates[0]!);
    expect(candidates.map((c) => c.content.role)).toEqual(['model', 'model', 'model']);
    expect(candidates.slice(0, 2).map((c) => c.content.parts[0]!['text']).join('')).toBe('Step 1: edit.');
    expect(candidates[2]!.content.parts[0]).toEqual({ functionCall: { name: 'replace', args: toolReply.toolCalls[0]!.input } });
    expect(candidates[2]!.finishReason).toBe('STOP');
    expect(candidates[0]!.finishReason).toBeUndefined();
    expect((events[2]!.data as Rec)['usageMetadata']).toMatchObject({ totalTokenCount: expect.any(Number) });
  });

  it('parses paths, function declarations, responses and JSON-mode requests', () => {
    expect(parseGeminiPath('/v1beta/models/gemini-2.5-flash:streamGenerateContent')).toEqual({ model: 'gemini-2.5-flash', method: 'streamGenerateContent' });
    expect(parseGeminiPath('/v1/chat/completions')).toBeNull();
    const req = parseGeminiRequest(
      {
        systemInstruction: { parts: [{ text: 'sys' }] },
        tools: [{ functionDeclarations: [{ name: 'replace', parametersJsonSchema: { type: 'object' } }] }],
        generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } },
        contents: [
          { role: 'user', parts: [{ text: 'go [scenario:shell]' }] },
          { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'acp-shell-ok' } } }] },
        ],
      },
      'gemini-2.5-flash',
      true,
    );
    expect(req.system).toBe('sys');
    expect(req.tools[0]).toMatchObject({ name: 'replace', schema: { type: 'object' } });
    expect(req.jsonSchema).toEqual({ type: 'object' });
    expect(req.conversation[2]).toEqual({ role: 'tool_result', callId: 'run_shell_command', text: 'acp-shell-ok' });
  });
});
