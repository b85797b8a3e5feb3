import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../../common/trace/records';
import { ReplayAgent } from './replay-agent';
import { buildReplayScript } from './replay-script';
import { Rewriter } from './rewriter';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t = 0;
const out = (msg: Json): TraceRecord => ({ kind: 'wire', t: ++t, dir: 'out', msg: { jsonrpc: '2.0', ...msg } });
const inn = (msg: Json): TraceRecord => ({ kind: 'wire', t: ++t, dir: 'in', msg: { jsonrpc: '2.0', ...msg } });
const numbered = (records: TraceRecord[]) => records.map((record, i) => ({ record, line: i + 2 }));

const RECORDED_CWD = '/home/ada/proj';
const recording: TraceRecord[] = [
  out({ id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
  inn({ id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } }),
  out({ id: 1, method: 'session/new', params: { cwd: RECORDED_CWD, mcpServers: [] } }),
  inn({ id: 1, result: { sessionId: 's-1' } }),
  out({ id: 2, method: 'session/prompt', params: { sessionId: 's-1', prompt: [{ type: 'text', text: 'hi' }] } }),
  { kind: 'noise', t: ++t, dir: 'in', text: 'debug: thinking' },
  inn({ method: 'session/update', params: { sessionId: 's-1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit', locations: [{ path: `${RECORDED_CWD}/a.ts` }] } } }),
  inn({ id: 0, method: 'session/request_permission', params: { sessionId: 's-1', toolCall: { toolCallId: 'c1' }, options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }] } }),
  out({ id: 0, result: { outcome: { outcome: 'selected', optionId: 'ok' } } }),
  inn({ id: 1, method: 'terminal/create', params: { sessionId: 's-1', command: 'make', cwd: RECORDED_CWD } }),
  out({ id: 1, result: { terminalId: 'term-old' } }),
  inn({ id: 2, method: 'terminal/output', params: { sessionId: 's-1', terminalId: 'term-old' } }),
  out({ id: 2, result: { output: 'ok', truncated: false } }),
  { kind: 'stderr', t: ++t, text: 'agent log line' },
  inn({ id: 2, result: { stopReason: 'end_turn' } }),
  { kind: 'exit', t: ++t, code: 0, signal: null, expected: true },
];

/** A scripted client: sends lines, collects what the replay writes. */
function harness(records = recording) {
  const written: Json[] = [];
  const raw: string[] = [];
  const stderr: string[] = [];
  const agent = new ReplayAgent(buildReplayScript(numbered(records)).steps, {
    writeLine: (line) => {
      raw.push(line);
      try {
        written.push(JSON.parse(line));
      } catch {
        // noise
      }
    },
    stderr: (text) => stderr.push(text),
  }, { delay: 'none' });
  const done = agent.run();
  const send = (msg: Json) => agent.receive(JSON.stringify({ jsonrpc: '2.0', ...msg }));
  const tick = () => new Promise((r) => setTimeout(r, 5));
  return { agent, done, send, written, raw, stderr, tick };
}

describe('ReplayAgent', () => {
  it('answers with the client\'s ids, rebases the cwd and maps terminal ids', async () => {
    const h = harness();
    h.send({ id: 'a', method: 'initialize', params: { protocolVersion: 1 } });
    h.send({ id: 'b', method: 'session/new', params: { cwd: '/tmp/other', mcpServers: [] } });
    h.send({ id: 'c', method: 'session/prompt', params: { sessionId: 's-1', prompt: [] } });
    await h.tick();
    expect(h.written.map((m) => m.id ?? m.method)).toEqual(['a', 'b', 'session/update', 0]);
    expect(h.raw).toContain('debug: thinking');
    expect(h.written[2]!.params.update.locations[0].path).toBe('/tmp/other/a.ts');
    h.send({ id: 0, result: { outcome: { outcome: 'selected', optionId: 'ok' } } });
    await h.tick();
    expect(h.written.at(-1)).toMatchObject({ id: 1, method: 'terminal/create', params: { cwd: '/tmp/other' } });
    h.send({ id: 1, result: { terminalId: 'term-new' } });
    await h.tick();
    expect(h.written.at(-1)).toMatchObject({ id: 2, method: 'terminal/output', params: { terminalId: 'term-new' } });
    h.send({ id: 2, result: { output: 'ok', truncated: false } });
    await h.tick();
    expect(h.written.at(-1)).toEqual({ jsonrpc: '2.0', id: 'c', result: { stopReason: 'end_turn' } });
    expect(h.stderr).toEqual(['agent log line\n']);
    h.agent.end();
    expect(await h.done).toBe(0);
  });

  it('stops at an unexpected request and answers every request still waiting with the mismatch', async () => {
    const h = harness();
    h.send({ id: 10, method: 'initialize', params: {} });
    h.send({ id: 11, method: 'session/load', params: { sessionId: 'x', cwd: '/tmp', mcpServers: [] } });
    expect(await h.done).toBe(1);
    const errors = h.written.filter((m) => m.error);
    expect(errors.map((m) => m.id)).toEqual([11]);
    expect(errors[0]!.error.message).toBe(
      "acp-workbench replay: the client diverged from the recording: expected the client's request session/new, got request session/load (trace line 4)",
    );
    expect(h.stderr.at(-1)).toContain('expected the client\'s request session/new, got request session/load');
  });

  it('answers the pending prompt with an error when the permission answer differs', async () => {
    const h = harness();
    h.send({ id: 1, method: 'initialize', params: {} });
    h.send({ id: 2, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } });
    h.send({ id: 3, method: 'session/prompt', params: { sessionId: 's-1', prompt: [] } });
    await h.tick();
    h.send({ id: 0, result: { outcome: { outcome: 'cancelled' } } });
    expect(await h.done).toBe(1);
    expect(h.written.at(-1)).toMatchObject({ id: 3, error: { code: -32603 } });
    expect(h.written.at(-1)!.error.message).toContain('the client answered the permission request with {"outcome":"cancelled"}; the recording has {"outcome":"selected","optionId":"ok"} (trace line 10)');
  });

  it('stops a client that sends a request after the recording ended', async () => {
    const h = harness(recording.slice(0, 2));
    h.send({ id: 1, method: 'initialize', params: {} });
    h.send({ id: 2, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } });
    expect(await h.done).toBe(1);
    expect(h.written.at(-1)!.error.message).toContain('the recording ended, but the client sent request session/new');
  });

  it('lets the client leave early, saying where', async () => {
    const h = harness();
    h.send({ id: 1, method: 'initialize', params: {} });
    h.agent.end();
    expect(await h.done).toBe(0);
    expect(h.stderr.at(-1)).toContain('the client closed the connection at trace line 4');
  });

  it('maps the session id the client loads, and exits as the recorded agent crashed', async () => {
    const h = harness([
      out({ id: 0, method: 'session/load', params: { sessionId: 'old', cwd: '/a', mcpServers: [] } }),
      inn({ method: 'session/update', params: { sessionId: 'old', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'in /a/b' } } } }),
      inn({ id: 0, result: {} }),
      { kind: 'exit', t: ++t, code: 3, signal: null },
    ]);
    h.send({ id: 7, method: 'session/load', params: { sessionId: 'new', cwd: '/z', mcpServers: [] } });
    expect(await h.done).toBe(3);
    expect(h.written[0]!.params).toEqual({ sessionId: 'new', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'in /z/b' } } });
    expect(h.written[1]).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('ignores answers to requests whose answer the recording does not have', async () => {
    const h = harness([inn({ id: 0, method: '_vendor/ask', params: {} }), out({ id: 5, method: 'session/cancel_all' }), inn({ id: 5, result: {} })]);
    h.send({ id: 0, result: { late: true } });
    h.send({ id: 9, method: 'session/cancel_all' });
    await h.tick();
    h.agent.end();
    expect(await h.done).toBe(0);
    expect(h.written.map((m) => m.id)).toEqual([0, 9]);
  });
});

describe('Rewriter', () => {
  it('rebases a folder only where it is a whole path prefix', () => {
    const r = new Rewriter();
    r.rebase('/tmp/a/', '/work/b');
    expect(r.apply({ p: '/tmp/a', q: '/tmp/a/x.ts', u: 'file:///tmp/a/x', s: 'see /tmp/a. ok', no: '/tmp/ab/x', list: ['"/tmp/a"'] })).toEqual({
      p: '/work/b',
      q: '/work/b/x.ts',
      u: 'file:///work/b/x',
      s: 'see /work/b. ok',
      no: '/tmp/ab/x',
      list: ['"/work/b"'],
    });
  });

  it('maps whole string values', () => {
    const r = new Rewriter();
    r.mapValue('s-1', 's-2');
    expect(r.apply({ sessionId: 's-1', text: 'about s-1' })).toEqual({ sessionId: 's-2', text: 'about s-1' });
  });
});
