/**
 * Gemini API (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`, `:generateContent`,
 * `:countTokens`), as gemini-cli calls it through `@google/genai`: `contents` with `text`,
 * `functionCall` and `functionResponse` parts in; SSE `data:` frames of candidates out, the last
 * with `finishReason`.
 */
import { roughTokens, sseFrame, SSE_CONTENT_TYPE } from './sse';
import type { ConversationEntry, EncodedStream, JsonSchema, ModelReply, NormalizedRequest, ToolDef } from './types';

interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { name?: string; args?: unknown; id?: string };
  functionResponse?: { name?: string; id?: string; response?: unknown };
}

interface GeminiRequest {
  contents?: { role?: string; parts?: GeminiPart[] }[];
  systemInstruction?: { parts?: GeminiPart[] } | string;
  tools?: { functionDeclarations?: { name: string; description?: string; parameters?: JsonSchema; parametersJsonSchema?: JsonSchema }[] }[];
  generationConfig?: { responseMimeType?: string; responseSchema?: JsonSchema; responseJsonSchema?: JsonSchema };
}

export function parseGeminiRequest(body: unknown, model: string, stream: boolean): NormalizedRequest {
  const req = (body ?? {}) as GeminiRequest;
  const tools: ToolDef[] = (req.tools ?? []).flatMap((t) =>
    (t.functionDeclarations ?? []).map((d) => ({ name: d.name, description: d.description, schema: d.parametersJsonSchema ?? d.parameters, type: 'function' as const })),
  );
  const conversation: ConversationEntry[] = [];
  for (const content of req.contents ?? []) {
    const parts = content.parts ?? [];
    const text = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('');
    if (content.role === 'model') {
      conversation.push({ role: 'assistant', text, toolCalls: parts.filter((p) => p.functionCall).map((p) => p.functionCall!.name ?? '') });
      continue;
    }
    for (const p of parts.filter((p) => p.functionResponse)) {
      const response = p.functionResponse!.response as { output?: unknown; error?: unknown } | undefined;
      const entry: ConversationEntry = {
        role: 'tool_result',
        callId: p.functionResponse!.id ?? p.functionResponse!.name ?? '',
        text: typeof response?.output === 'string' ? response.output : JSON.stringify(response ?? {}),
      };
      if (response?.error !== undefined) entry.isError = true;
      conversation.push(entry);
    }
    if (text) conversation.push({ role: 'user', text });
  }
  const system = typeof req.systemInstruction === 'string' ? req.systemInstruction : (req.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n');
  const request: NormalizedRequest = { api: 'gemini', model, stream, system, tools, conversation };
  const config = req.generationConfig;
  if (config?.responseMimeType === 'application/json') request.jsonSchema = config.responseJsonSchema ?? config.responseSchema ?? { type: 'object' };
  return request;
}

function usage(inputText: string, reply: ModelReply): Record<string, number> {
  const prompt = roughTokens(inputText);
  const candidates = roughTokens(reply.textChunks.join('') + JSON.stringify(reply.toolCalls));
  return { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates };
}

function candidate(parts: GeminiPart[], finishReason?: string): Record<string, unknown> {
  const c: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 };
  if (finishReason) c['finishReason'] = finishReason;
  return c;
}

export function encodeGeminiStream(reply: ModelReply, model: string, inputText = ''): EncodedStream {
  const frames: string[] = [];
  const chunk = (parts: GeminiPart[], finishReason?: string): void => {
    const data: Record<string, unknown> = { candidates: [candidate(parts, finishReason)], modelVersion: model };
    if (finishReason) data['usageMetadata'] = usage(inputText, reply);
    frames.push(sseFrame(data));
  };
  const texts = reply.textChunks.filter((t) => t !== '');
  const calls: GeminiPart[] = reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.input } }));
  texts.forEach((text, i) => {
    const last = i === texts.length - 1 && calls.length === 0;
    chunk([{ text }], last ? 'STOP' : undefined);
  });
  // Gemini sends whole function calls (no argument streaming), finishReason STOP as for text.
  if (calls.length > 0) chunk(calls, 'STOP');
  if (texts.length === 0 && calls.length === 0) chunk([{ text: '' }], 'STOP');
  return { contentType: SSE_CONTENT_TYPE, frames };
}

export function encodeGeminiResponse(reply: ModelReply, model: string, inputText = ''): unknown {
  const parts: GeminiPart[] = [];
  const text = reply.textChunks.join('');
  if (text) parts.push({ text });
  for (const c of reply.toolCalls) parts.push({ functionCall: { name: c.name, args: c.input } });
  return { candidates: [candidate(parts, 'STOP')], usageMetadata: usage(inputText, reply), modelVersion: model };
}

/** `models/{model}:{method}` from a request path such as `/v1beta/models/gemini-2.5-flash:streamGenerateContent`. */
export function parseGeminiPath(pathname: string): { model: string; method: string } | null {
  const match = /^\/v1[a-z0-9]*\/models\/([^/:]+):([A-Za-z]+)$/.exec(pathname);
  return match ? { model: decodeURIComponent(match[1]!), method: match[2]! } : null;
}
