/**
 * The scripted model server: one HTTP server on 127.0.0.1 that answers the model APIs real ACP
 * agents call (Anthropic Messages, OpenAI Chat Completions and Responses, Gemini) by playing the
 * scenario named in the prompt. Every request body and every decision is appended to a JSON-lines
 * log for debugging.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { encodeAnthropicMessage, encodeAnthropicStream, parseAnthropicRequest } from './anthropic';
import { encodeGeminiResponse, encodeGeminiStream, parseGeminiPath, parseGeminiRequest } from './gemini';
import { encodeChatCompletion, encodeChatStream, parseChatRequest } from './openai-chat';
import { encodeResponsesStream, parseResponsesRequest } from './openai-responses';
import { play } from './player';
import { roughTokens } from './sse';
import type { EncodedStream, NormalizedRequest, ReplyRecord } from './types';

export interface ModelServerOptions {
  /** Defaults to 0: a free port. */
  port?: number;
  /** JSON-lines file receiving every request (method, path, body) and every reply decision. */
  logFile?: string;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash or `/v1`. */
  url: string;
  port: number;
  /** Every decision taken, in order (scenario, step, tool played, previous tool result). */
  records: ReplyRecord[];
  /** Paths of requests that matched no route. */
  unhandled: string[];
  close(): Promise<void>;
}

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const records: ReplyRecord[] = [];
  const unhandled: string[] = [];
  const log = (entry: Record<string, unknown>): void => {
    if (!options.logFile) return;
    appendFileSync(options.logFile, `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  };
  if (options.logFile) mkdirSync(dirname(options.logFile), { recursive: true });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log({ kind: 'error', url: req.url, error: String((error as Error)?.stack ?? error) });
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: String(error) } });
      else res.destroy();
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '');
    const raw = await readBody(req);
    let body: unknown = undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
    }
    log({ kind: 'request', method: req.method, url: req.url, headers: pickHeaders(req), body });

    // Connectivity probes (Claude Code's Bun runtime sends `HEAD /`).
    if (req.method === 'HEAD') {
      res.writeHead(200);
      res.end();
      return;
    }
    if (req.method === 'GET' && /\/models$/.test(path)) {
      return sendJson(res, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'scripted' }], models: [] });
    }
    if (req.method !== 'POST') return notFound(res, req, path);

    if (path.endsWith('/messages/count_tokens')) {
      return sendJson(res, 200, { input_tokens: roughTokens(JSON.stringify(body ?? '')) });
    }
    if (path.endsWith('/messages')) {
      const request = parseAnthropicRequest(body);
      const { reply, inputText } = decide(request);
      if (!request.stream) return sendJson(res, 200, encodeAnthropicMessage(reply, request.model, inputText));
      return sendStream(res, encodeAnthropicStream(reply, request.model, inputText), reply.frameDelayMs);
    }
    if (path.endsWith('/chat/completions')) {
      const request = parseChatRequest(body);
      const { reply, inputText } = decide(request);
      if (!request.stream) return sendJson(res, 200, encodeChatCompletion(reply, request.model));
      return sendStream(res, encodeChatStream(reply, request.model, request.includeUsage, inputText), reply.frameDelayMs);
    }
    if (path.endsWith('/responses')) {
      const request = parseResponsesRequest(body);
      const { reply, inputText } = decide(request);
      return sendStream(res, encodeResponsesStream(reply, request.model, inputText), reply.frameDelayMs);
    }
    const gemini = parseGeminiPath(path);
    if (gemini) {
      if (gemini.method === 'countTokens') return sendJson(res, 200, { totalTokens: roughTokens(JSON.stringify(body ?? '')) });
      const stream = gemini.method === 'streamGenerateContent';
      if (!stream && gemini.method !== 'generateContent') return notFound(res, req, path);
      const request = parseGeminiRequest(body, gemini.model, stream);
      const { reply, inputText } = decide(request);
      if (!stream) return sendJson(res, 200, encodeGeminiResponse(reply, request.model, inputText));
      return sendStream(res, encodeGeminiStream(reply, request.model, inputText), reply.frameDelayMs);
    }
    return notFound(res, req, path);
  }

  function decide(request: NormalizedRequest): ReturnType<typeof play> & { inputText: string } {
    const result = play(request);
    records.push(result.record);
    log({ kind: 'reply', ...result.record, tools: request.tools.map((t) => t.name) });
    const inputText = request.system + request.conversation.map((e) => e.text).join('\n');
    return { ...result, inputText };
  }

  function notFound(res: ServerResponse, req: IncomingMessage, path: string): void {
    unhandled.push(`${req.method} ${path}`);
    log({ kind: 'unhandled', method: req.method, path });
    sendJson(res, 404, { error: { type: 'not_found_error', message: `scripted model server: no route for ${req.method} ${path}` } });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    records,
    unhandled,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const decoders: Record<string, (buf: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  const decode = decoders[encoding];
  return decode ? decode(raw) : raw;
}

function pickHeaders(req: IncomingMessage): Record<string, unknown> {
  const keep = ['user-agent', 'content-type', 'content-encoding', 'anthropic-version', 'anthropic-beta', 'x-goog-api-client', 'accept'];
  return Object.fromEntries(keep.filter((k) => req.headers[k] !== undefined).map((k) => [k, req.headers[k]]));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes the frames, pausing between them when asked; stops quietly when the client hangs up. */
async function sendStream(res: ServerResponse, stream: EncodedStream, delayMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': stream.contentType, 'cache-control': 'no-cache', connection: 'keep-alive' });
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  for (const frame of stream.frames) {
    if (closed) return;
    res.write(frame);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  res.end();
}
