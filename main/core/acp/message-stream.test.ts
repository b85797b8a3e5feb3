import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, PROTOCOL_VERSION, type AnyMessage, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk/unstable';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentProcess } from './agent-process';
import type { JsonObject, MessageInfo, NoiseLine, OversizeLine } from './line-tap';
import { AgentInputClosedError, createMessageStream, type AgentMessageStream, type MessageStreamObserver } from './message-stream';

const rawAgent = join(__dirname, 'test-support', 'raw-acp-agent.cjs');
let workDir: string;
const agents: AgentProcess[] = [];
const streams: AgentMessageStream[] = [];

interface Wire {
  incoming: Array<{ message: JsonObject; rawLength: number; info: MessageInfo }>;
  outgoing: Array<{ message: AnyMessage; text: string }>;
  noise: NoiseLine[];
  oversize: OversizeLine[];
  ended: number;
}

function recordingObserver(): { wire: Wire; observer: MessageStreamObserver } {
  const wire: Wire = { incoming: [], outgoing: [], noise: [], oversize: [], ended: 0 };
  return {
    wire,
    observer: {
      incoming: (message, rawLength, info) => wire.incoming.push({ message, rawLength, info }),
      outgoing: (message, text) => wire.outgoing.push({ message, text }),
      noise: (line) => wire.noise.push(line),
      oversize: (line) => wire.oversize.push(line),
      ended: () => wire.ended++,
    },
  };
}

function spawnAgent(args: string[], env: NodeJS.ProcessEnv = {}): AgentProcess {
  const agent = new AgentProcess({ command: process.execPath, args, env: { ...process.env, ...env } });
  agents.push(agent);
  return agent;
}

/** A client app wired through our tap + stream; records updates and permission requests. */
function connect(agent: AgentProcess, observer: MessageStreamObserver) {
  const updates: string[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const messageStream = createMessageStream(agent, { observer });
  streams.push(messageStream);
  const app = client({ name: 'workbench-test' })
    .onNotification('session/update', ({ params }: { params: SessionNotification }) => {
      const update = params.update;
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') updates.push(update.content.text);
    })
    .onRequest('session/request_permission', ({ params }: { params: RequestPermissionRequest }) => {
      permissionRequests.push(params);
      const allow = params.options.find((option) => option.kind === 'allow_once')!;
      return { outcome: { outcome: 'selected' as const, optionId: allow.optionId } };
    });
  const connection = app.connect(messageStream.stream);
  const initialize = () =>
    connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'workbench-test', version: '0.0.0' },
    });
  return { connection, updates, permissionRequests, initialize, messageStream };
}

function agentStdinLines(log: string): string[] {
  return readFileSync(log, 'utf8').split('\n').slice(0, -1);
}

beforeEach(() => {
  workDir = mkdtempSync(join(tmpdir(), 'acpwb-stream-'));
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.dispose();
  await Promise.all(agents.splice(0).map((agent) => agent.stop({ stdinGraceMs: 200, termGraceMs: 200 })));
  rmSync(workDir, { recursive: true, force: true });
});

describe('message stream: the SDK client through our line tap', () => {
  it('runs initialize, session/new and a prompt with updates and a permission round trip; noise never reaches the SDK or the agent', async () => {
    const log = join(workDir, 'agent-stdin.jsonl');
    const agent = spawnAgent([rawAgent], { RAW_AGENT_NOISE: '1', RAW_AGENT_LOG: log });
    const { wire, observer } = recordingObserver();
    const { connection, updates, permissionRequests, initialize } = connect(agent, observer);

    const init = await initialize();
    expect(init).toEqual({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] });
    const { sessionId } = await connection.agent.request('session/new', { cwd: workDir, mcpServers: [] });
    expect(sessionId).toBe('sess-1');
    const result = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });

    expect(result).toEqual({ stopReason: 'end_turn' });
    expect(updates).toEqual(['Hello', ' world', 'permission: selected/yes-once']);
    expect(permissionRequests).toEqual([expect.objectContaining({ sessionId: 'sess-1', toolCall: expect.objectContaining({ toolCallId: 'call-1' }) })]);

    // The noise before the initialize answer went to the observer only.
    expect(wire.noise).toEqual(['Welcome to RawAgent 1.0 (this banner is stdout noise)', { base64: Buffer.from([0x62, 0x61, 0x64, 0xff]).toString('base64') }]);
    const notJsonRpc = wire.incoming.find(({ message }) => 'hello' in message);
    expect(notJsonRpc?.info).toEqual({ shape: 'invalid', forward: false, problem: 'neither a request, a notification nor a response' });
    // The observer saw every incoming message in wire order: updates before the prompt's answer.
    const kinds = wire.incoming.map(({ message, info }) =>
      info.shape === 'invalid' ? 'invalid' : ((message.method as string | undefined) ?? `response:${String(message.id)}`),
    );
    expect(kinds).toEqual(['invalid', 'response:0', 'response:1', 'session/update', 'session/update', 'session/request_permission', 'session/update', 'response:2']);
    expect(wire.incoming[1]!.rawLength).toBe(Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 0, result: init })));

    // The agent received exactly what we sent, serialized once: no -32700/-32600 answers to its noise.
    const received = agentStdinLines(log);
    expect(received).toEqual(wire.outgoing.map(({ text }) => text));
    expect(received.map((line) => JSON.parse(line) as AnyMessage)).toEqual(wire.outgoing.map(({ message }) => message));
    expect(received.some((line) => line.includes('"error"'))).toBe(false);
    expect(wire.outgoing.map(({ message }) => ('method' in message ? message.method : `response:${String(message.id)}`))).toEqual([
      'initialize',
      'session/new',
      'session/prompt',
      'response:0',
    ]);
  });

  it('delivers many updates in order', async () => {
    const agent = spawnAgent([rawAgent]);
    const { wire, observer } = recordingObserver();
    const { connection, updates, initialize } = connect(agent, observer);
    await initialize();
    const result = await connection.agent.request('session/prompt', { sessionId: 'sess-1', prompt: [{ type: 'text', text: 'many' }] });
    expect(result).toEqual({ stopReason: 'end_turn' });
    expect(updates).toEqual(Array.from({ length: 500 }, (_, i) => `#${i}`));
    expect(wire.noise).toEqual([]);
  });

  it('rejects pending requests and closes the connection when the agent dies', async () => {
    const agent = spawnAgent([rawAgent]);
    const { wire, observer } = recordingObserver();
    const { connection, initialize } = connect(agent, observer);
    await initialize();
    const prompt = connection.agent.request('session/prompt', { sessionId: 'sess-1', prompt: [{ type: 'text', text: 'die' }] });
    await expect(prompt).rejects.toThrow('ACP connection closed');
    await connection.closed;
    expect(connection.signal.aborted).toBe(true);
    await expect(agent.exited).resolves.toEqual({ code: 3, signal: null });
    expect(agent.stderrTail()).toContain('dying on purpose');
    expect(wire.ended).toBe(1);
    await expect(connection.agent.request('session/new', { cwd: workDir, mcpServers: [] })).rejects.toThrow();
  });

  it('fails a request instead of hanging when the agent no longer reads its stdin', async () => {
    // Alive, but its stdin is closed (fd 0 closed): writes fail with EPIPE, so the SDK closes the
    // connection and the request rejects instead of waiting for an answer that cannot come.
    const agent = spawnAgent(['-e', "require('node:fs').closeSync(0); process.stdout.write('closed\\n'); setInterval(() => {}, 1000)"]);
    const { observer } = recordingObserver();
    const { connection, initialize } = connect(agent, observer);
    await new Promise<void>((resolve) => agent.onStdout(() => resolve()));
    const outcome = await initialize().then(
      () => 'resolved',
      (error: unknown) => error,
    );
    // The first write may still reach the pipe before the agent's end is noticed; the next cannot.
    const second = outcome instanceof Error ? outcome : await initialize().catch((error: unknown) => error);
    expect(second).toBeInstanceOf(AgentInputClosedError);
    await connection.closed;
  });

  it('keeps tapping for the observer after the SDK closed the connection', async () => {
    const agent = spawnAgent([rawAgent]);
    const { wire, observer } = recordingObserver();
    const { connection, initialize, messageStream } = connect(agent, observer);
    await initialize();
    connection.close();
    await connection.closed;
    // The agent still writes (it answers a request we send by hand); the trace still sees it.
    await agent.write(JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'session/new', params: { cwd: '/', mcpServers: [] } }) + '\n');
    await new Promise<void>((resolve) => {
      const check = (): void => (wire.incoming.some(({ message }) => message.id === 99) ? resolve() : void setTimeout(check, 25));
      check();
    });
    expect(wire.incoming.at(-1)?.message).toEqual({ jsonrpc: '2.0', id: 99, result: { sessionId: 'sess-1' } });
    messageStream.dispose();
    messageStream.dispose();
  });
});
