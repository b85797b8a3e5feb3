/**
 * Anthropic Messages API (`POST /v1/messages`), as Claude Code calls it: request parsing and the
 * SSE stream `message_start`, `content_block_start/delta/stop` (text and `tool_use` with
 * `input_json_delta`), `message_delta` with the stop reason, `message_stop`.
 */
import { newId, roughTokens, splitInTwo, sseFrame, SSE_CONTENT_TYPE } from './sse';
import type { ConversationEntry, EncodedStream, JsonSchema, ModelReply, NormalizedRequest, ToolDef } from './types';

interface AnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | AnthropicBlock[];
  is_error?: boolean;
}

interface AnthropicRequest {
  model?: string;
  stream?: boolean;
  system?: string | AnthropicBlock[];
  messages?: { role: string; content: string | AnthropicBlock[] }[];
  tools?: { name: string; description?: string; input_schema?: JsonSchema; type?: string }[];
  output_format?: { type?: string; schema?: JsonSchema };
  /** Claude Code 2.1's title request asks for JSON here. */
  output_config?: { format?: { type?: string; schema?: JsonSchema } };
}

export function parseAnthropicRequest(body: unknown): NormalizedRequest {
  const req = (body ?? {}) as AnthropicRequest;
  const tools: ToolDef[] = (req.tools ?? [])
    .filter((t) => t.input_schema !== undefined)
    .map((t) => ({ name: t.name, description: t.description, schema: t.input_schema, type: 'function' }));
  const conversation: ConversationEntry[] = [];
  for (const message of req.messages ?? []) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (message.role === 'assistant') {
      const text = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('');
      const toolCalls = blocks.filter((b) => b.type === 'tool_use').map((b) => b.name ?? '');
      conversation.push({ role: 'assistant', text, toolCalls });
      continue;
    }
    // A user message may hold tool results and text (reminders) side by side.
    for (const b of blocks.filter((b) => b.type === 'tool_result')) {
      const entry: ConversationEntry = { role: 'tool_result', callId: b.tool_use_id ?? '', text: blockText(b.content) };
      if (b.is_error) entry.isError = true;
      conversation.push(entry);
    }
    const text = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n');
    if (text) conversation.push({ role: 'user', text });
  }
  const request: NormalizedRequest = {
    api: 'anthropic',
    model: req.model ?? 'unknown',
    stream: req.stream === true,
    system: typeof req.system === 'string' ? req.system : blockText(req.system),
    tools,
    conversation,
  };
  const format = req.output_config?.format ?? req.output_format;
  if (format?.type === 'json_schema' && format.schema) request.jsonSchema = format.schema;
  return request;
}

function blockText(content: string | AnthropicBlock[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n');
}

/** The reply as Anthropic content blocks (for the non-streaming answer and for the stream). */
function contentBlocks(reply: ModelReply): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  const text = reply.textChunks.join('');
  if (text) blocks.push({ type: 'text', text });
  for (const call of reply.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  return blocks;
}

function stopReason(reply: ModelReply): string {
  return reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

export function encodeAnthropicStream(reply: ModelReply, model: string, inputText = ''): EncodedStream {
  const id = newId('msg_');
  const frames: string[] = [];
  const usage = { input_tokens: roughTokens(inputText), output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  frames.push(
    sseFrame(
      { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } },
      'message_start',
    ),
  );
  let index = 0;
  let outputText = '';
  if (reply.textChunks.join('') !== '') {
    frames.push(sseFrame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
    frames.push(sseFrame({ type: 'ping' }, 'ping'));
    for (const chunk of reply.textChunks) {
      if (chunk === '') continue;
      outputText += chunk;
      frames.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } }, 'content_block_delta'));
    }
    frames.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  for (const call of reply.toolCalls) {
    frames.push(
      sseFrame({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }, 'content_block_start'),
    );
    const json = JSON.stringify(call.input);
    outputText += json;
    // Split the arguments like the real API does, so clients must concatenate partial JSON.
    for (const part of splitInTwo(json)) {
      frames.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta'));
    }
    frames.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  frames.push(
    sseFrame(
      { type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: roughTokens(outputText) } },
      'message_delta',
    ),
  );
  frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'));
  return { contentType: SSE_CONTENT_TYPE, frames };
}

export function encodeAnthropicMessage(reply: ModelReply, model: string, inputText = ''): unknown {
  return {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: contentBlocks(reply),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { input_tokens: roughTokens(inputText), output_tokens: roughTokens(reply.textChunks.join('')) },
  };
}
