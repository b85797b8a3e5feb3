/**
 * OpenAI Responses API (`POST /v1/responses`), as codex calls it: `input` items in, and a stream
 * of `response.created`, `response.output_item.added/done` (messages, `function_call`,
 * `custom_tool_call`), text and argument deltas, and `response.completed` with usage out.
 */
import { newId, roughTokens, splitInTwo, sseFrame, SSE_CONTENT_TYPE } from './sse';
import type { ConversationEntry, EncodedStream, JsonSchema, ModelReply, NormalizedRequest, ToolCallOut, ToolDef } from './types';

interface ResponsesItem {
  type?: string;
  role?: string;
  content?: string | { type?: string; text?: string }[];
  name?: string;
  call_id?: string;
  output?: unknown;
}

interface ResponsesRequest {
  model?: string;
  stream?: boolean;
  instructions?: string;
  input?: string | ResponsesItem[];
  tools?: { type?: string; name?: string; description?: string; parameters?: JsonSchema }[];
  text?: { format?: { type?: string; schema?: JsonSchema } };
}

export function parseResponsesRequest(body: unknown): NormalizedRequest {
  const req = (body ?? {}) as ResponsesRequest;
  const tools: ToolDef[] = [];
  for (const t of req.tools ?? []) {
    if (!t.name) continue; // hosted tools (web_search, local_shell) carry no name
    if (t.type === 'function') tools.push({ name: t.name, description: t.description, schema: t.parameters, type: 'function' });
    else if (t.type === 'custom') tools.push({ name: t.name, description: t.description, type: 'custom' });
  }
  const system = [req.instructions ?? ''];
  const conversation: ConversationEntry[] = [];
  const items: ResponsesItem[] = typeof req.input === 'string' ? [{ type: 'message', role: 'user', content: req.input }] : (req.input ?? []);
  for (const item of items) {
    const type = item.type ?? (item.role ? 'message' : '');
    if (type === 'message') {
      const text = contentText(item.content);
      if (item.role === 'system' || item.role === 'developer') system.push(text);
      else if (item.role === 'assistant') conversation.push({ role: 'assistant', text, toolCalls: [] });
      else conversation.push({ role: 'user', text });
    } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
      conversation.push({ role: 'assistant', text: '', toolCalls: [item.name ?? type] });
    } else if (type.endsWith('_call_output')) {
      conversation.push({ role: 'tool_result', callId: item.call_id ?? '', text: outputText(item.output) });
    }
  }
  const request: NormalizedRequest = {
    api: 'openai-responses',
    model: req.model ?? 'unknown',
    stream: req.stream !== false,
    system: system.filter(Boolean).join('\n'),
    tools,
    conversation,
  };
  if (req.text?.format?.type === 'json_schema' && req.text.format.schema) request.jsonSchema = req.text.format.schema;
  return request;
}

function contentText(content: ResponsesItem['content']): string {
  if (!content) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text ?? '').join('\n');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((p: { text?: string }) => p.text ?? '').join('\n');
  if (output && typeof output === 'object' && 'content' in output) return outputText((output as { content: unknown }).content);
  return JSON.stringify(output ?? '');
}

function callItem(call: ToolCallOut, status: string, withInput: boolean): Record<string, unknown> {
  const id = `fc_${call.id.replace(/^call_/, '')}`;
  if (call.rawInput !== undefined) {
    return { type: 'custom_tool_call', id, call_id: call.id, name: call.name, input: withInput ? call.rawInput : '', status };
  }
  return { type: 'function_call', id, call_id: call.id, name: call.name, arguments: withInput ? JSON.stringify(call.input) : '', status };
}

export function encodeResponsesStream(reply: ModelReply, model: string, inputText = ''): EncodedStream {
  const responseId = newId('resp_');
  const created = Math.floor(Date.now() / 1000);
  let seq = 0;
  const frames: string[] = [];
  const emit = (type: string, fields: Record<string, unknown>): void => {
    frames.push(sseFrame({ type, sequence_number: seq++, ...fields }, type));
  };
  const response = (status: string, output: unknown[], usage: unknown = null): Record<string, unknown> => ({
    id: responseId,
    object: 'response',
    created_at: created,
    status,
    model,
    output,
    usage,
  });

  emit('response.created', { response: response('in_progress', []) });
  emit('response.in_progress', { response: response('in_progress', []) });
  const output: unknown[] = [];
  const text = reply.textChunks.join('');
  if (text !== '') {
    const itemId = newId('msg_');
    const index = output.length;
    emit('response.output_item.added', { output_index: index, item: { type: 'message', id: itemId, status: 'in_progress', role: 'assistant', content: [] } });
    emit('response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const chunk of reply.textChunks) {
      if (chunk !== '') emit('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta: chunk });
    }
    const part = { type: 'output_text', text, annotations: [] };
    emit('response.output_text.done', { item_id: itemId, output_index: index, content_index: 0, text });
    emit('response.content_part.done', { item_id: itemId, output_index: index, content_index: 0, part });
    const item = { type: 'message', id: itemId, status: 'completed', role: 'assistant', content: [part] };
    emit('response.output_item.done', { output_index: index, item });
    output.push(item);
  }
  for (const call of reply.toolCalls) {
    const index = output.length;
    const added = callItem(call, 'in_progress', false);
    const itemId = added['id'];
    emit('response.output_item.added', { output_index: index, item: added });
    const custom = call.rawInput !== undefined;
    const input = custom ? call.rawInput! : JSON.stringify(call.input);
    const kind = custom ? 'response.custom_tool_call_input' : 'response.function_call_arguments';
    for (const part of splitInTwo(input)) emit(`${kind}.delta`, { item_id: itemId, output_index: index, delta: part });
    emit(`${kind}.done`, { item_id: itemId, output_index: index, ...(custom ? { input } : { arguments: input }) });
    const done = callItem(call, 'completed', true);
    emit('response.output_item.done', { output_index: index, item: done });
    output.push(done);
  }
  const inputTokens = roughTokens(inputText);
  const outputTokens = roughTokens(text + JSON.stringify(reply.toolCalls));
  emit('response.completed', {
    response: response('completed', output, {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    }),
  });
  return { contentType: SSE_CONTENT_TYPE, frames };
}
