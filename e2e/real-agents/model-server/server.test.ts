import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './server';
import { parseSse } from './sse-parse';

let server: ModelServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'model-server-test-'));
  server = await startModelServer({ logFile: join(dir, 'requests.jsonl') });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('model server over HTTP', () => {
  it('answers Anthropic messages with an SSE stream and logs the request', async () => {
    const res = await post('/v1/messages?beta=true', {
      model: 'claude-x',
      stream: true,
      tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
      messages: [{ role: 'user', content: 'run [scenario:shell]' }],
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    const start = events.find((e) => (e.data as { content_block?: { type: string } }).content_block?.type === 'tool_use');
    expect(start).toBeDefined();
    const log = readFileSync(join(dir, 'requests.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.some((e) => e['kind'] === 'request' && e['url'] === '/v1/messages?beta=true')).toBe(true);
    expect(log.some((e) => e['kind'] === 'reply' && e['toolName'] === 'Bash')).toBe(true);
  });

  it('answers count_tokens, non-streaming messages and HEAD probes', async () => {
    const count = (await (await post('/v1/messages/count_tokens', { messages: [{ role: 'user', content: 'hi' }] })).json()) as { input_tokens: number };
    expect(count.input_tokens).toBeGreaterThan(0);
    const message = (await (await post('/v1/messages', { model: 'm', messages: [{ role: 'user', content: 'hi' }] })).json()) as { type: string; content: unknown[] };
    expect(message.type).toBe('message');
    expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
  });

  it('routes Chat Completions, Responses and Gemini requests', async () => {
    const chat = parseSse(await (await post('/v1/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: '[scenario:text]' }], tools: [{ type: 'function', function: { name: 'bash', parameters: {} } }] })).text());
    expect(chat[chat.length - 1]!.data).toBe('[DONE]');
    const responses = parseSse(await (await post('/v1/responses', { model: 'gpt', stream: true, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: '[scenario:text]' }] }], tools: [] })).text());
    expect(responses[responses.length - 1]!.event).toBe('response.completed');
    const gemini = parseSse(await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })).text());
    expect(JSON.stringify(gemini)).toContain('"finishReason":"STOP"');
    const tokens = (await (await post('/v1beta/models/gemini-2.5-flash:countTokens', { contents: [] })).json()) as { totalTokens: number };
    expect(tokens.totalTokens).toBeGreaterThan(0);
  });

  it('answers unknown routes with 404 and remembers them', async () => {
    const res = await post('/v2/unknown', {});
    expect(res.status).toBe(404);
    expect(server.unhandled).toContain('POST /v2/unknown');
  });

  it('streams the slow scenario frame by frame and survives the client hanging up', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: '[scenario:slow chunks=100 interval=20]' }], tools: [{ type: 'function', function: { name: 'bash', parameters: {} } }] }),
    });
    const reader = res.body!.getReader();
    const started = Date.now();
    let text = '';
    while (!text.includes('word3')) text += new TextDecoder().decode((await reader.read()).value);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    // The server keeps serving after the abort.
    const after = await post('/v1/messages/count_tokens', {});
    expect(after.status).toBe(200);
  });
});
