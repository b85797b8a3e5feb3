/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`), as opencode's `@ai-sdk/openai-compatible`
 * provider calls it: `stream: true`, text in `delta.content`, tool calls in `delta.tool_calls`
 * (name first, then argument fragments), a final chunk with `finish_reason`, an optional usage
 * chunk, then `data: [DONE]`.
 */
import { newId, roughTokens, splitInTwo, sseFrame, SSE_CONTENT_TYPE } from './sse';
import type { ConversationEntry, EncodedStream, JsonSchema, ModelReply, NormalizedRequest, ToolDef } from './types';

type ChatContent = string | { type: string; text?: string }[] | null | undefined;

interface ChatRequest {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: {
    role: string;
    content?: ChatContent;
    tool_calls?: { id: string; function?: { name?: string; arguments?: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type?: string; function?: { name: string; description?: string; parameters?: JsonSchema } }[];
  response_format?: { type?: string; json_schema?: { schema?: JsonSchema } };
}

export function parseChatRequest(body: unknown): NormalizedRequest & { includeUsage: boolean } {
  const req = (body ?? {}) as ChatRequest;
  const tools: ToolDef[] = (req.tools ?? [])
    .filter((t) => t.function?.name)
    .map((t) => ({ name: t.function!.name, description: t.function!.description, schema: t.function!.parameters, type: 'function' }));
  const system: string[] = [];
  const conversation: ConversationEntry[] = [];
  for (const m of req.messages ?? []) {
    const text = contentText(m.content);
    if (m.role === 'system' || m.role === 'developer') system.push(text);
    else if (m.role === 'tool') conversation.push({ role: 'tool_result', callId: m.tool_call_id ?? '', text });
    else if (m.role === 'assistant') conversation.push({ role: 'assistant', text, toolCalls: (m.tool_calls ?? []).map((c) => c.function?.name ?? '') });
    else conversation.push({ role: 'user', text });
  }
  const request: NormalizedRequest & { includeUsage: boolean } = {
    api: 'openai-chat',
    model: req.model ?? 'unknown',
    stream: req.stream === true,
    system: system.join('\n'),
    tools,
    conversation,
    includeUsage: req.stream_options?.include_usage === true,
  };
  if (req.response_format?.type === 'json_schema' && req.response_format.json_schema?.schema) {
    request.jsonSchema = req.response_format.json_schema.schema;
  }
  return request;
}

function contentText(content: ChatContent): string {
  if (!content) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text ?? '').join('\n');
}

export function encodeChatStream(reply: ModelReply, model: string, includeUsage: boolean, inputText = ''): EncodedStream {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish: string | null = null): string =>
    sseFrame({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  for (const text of reply.textChunks) if (text !== '') frames.push(chunk({ content: text }));
  reply.toolCalls.forEach((call, index) => {
    frames.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const part of splitInTwo(JSON.stringify(call.input))) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    }
  });
  frames.push(chunk({}, finishReason(reply)));
  if (includeUsage) {
    const prompt = roughTokens(inputText);
    const completion = roughTokens(reply.textChunks.join('') + JSON.stringify(reply.toolCalls));
    frames.push(
      sseFrame({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }),
    );
  }
  frames.push(sseFrame('[DONE]'));
  return { contentType: SSE_CONTENT_TYPE, frames };
}

export function encodeChatCompletion(reply: ModelReply, model: string): unknown {
  const text = reply.textChunks.join('');
  const message: Record<string, unknown> = { role: 'assistant', content: text };
  if (reply.toolCalls.length > 0) {
    message['tool_calls'] = reply.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } }));
  }
  return {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: finishReason(reply) }],
    usage: { prompt_tokens: 1, completion_tokens: roughTokens(text), total_tokens: 1 + roughTokens(text) },
  };
}

function finishReason(reply: ModelReply): string {
  return reply.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}
