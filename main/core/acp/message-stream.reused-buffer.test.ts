/**
 * The agent's stdout is read into one reused buffer (stdout-reader.ts): every consumer downstream of
 * the line tap must be done with a chunk's bytes when its call returns. Here the same agent output
 * goes through the message stream once with a fresh buffer per chunk and once through one buffer
 * that is scribbled over after every push; what each consumer ends up with — the trace file written
 * as the connection writes it (the line's own bytes as `msg`), the record listeners' view of the
 * line (its length, as the QA inspector takes it), the messages handed to the SDK, noise and
 * oversize records — must be the same. A consumer that kept a view would see the scribble.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyMessage } from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../common/trace/records';
import { WRITER_HEADER } from '../history/testing/traces';
import type { JsonObject } from '../../../common/trace/json';
import { TraceWriter } from '../history/trace-writer';
import { createMessageStream, type AgentPipes } from './message-stream';

const header = WRITER_HEADER;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Agent output of the flood's kinds: small updates, 16 KiB diffs, responses, noise, `\r\n`, one line over the limit. */
function agentOutput(): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    if (i % 10 === 3) {
      const diff = `line ${i}\n`.repeat(1 + ((i * 37) % 2000));
      lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'tool_call_update', toolCallId: `t${i}`, content: [{ type: 'diff', path: '/a', oldText: null, newText: diff }] } } }));
    } else if (i % 50 === 7) lines.push(JSON.stringify({ jsonrpc: '2.0', id: i, result: { stopReason: 'end_turn' } }));
    else if (i % 50 === 8) lines.push(`a log line on stdout ${i} ✓`);
    else if (i % 50 === 9) lines.push(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', n: i } })}\r`);
    else if (i === 100) lines.push(`{"big":"${'z'.repeat(70_000)}"}`);
    else lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${i} `.repeat(1 + (i % 30)) } } } }));
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Read sizes as a pipe gives them: mostly full reads, some short ones. */
const CUTS = [65536, 1000, 65536, 17, 40_000, 65536, 3];

/** What each consumer of the stream ended up with. */
async function consume(bytes: Buffer, reuse: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-reused-'));
  dirs.push(dir);
  const trace = await TraceWriter.open(join(dir, 'conn.jsonl'), header);
  const lineLengths: number[] = [];
  let t = 0;
  // As AgentConnection.record does: the trace gets the line's own bytes, then the listeners.
  const record = (r: TraceRecord, line?: Uint8Array) => {
    trace.append(r, line);
    lineLengths.push(line?.length ?? -1);
  };
  let listener: ((chunk: Buffer) => void) | undefined;
  let ended: (() => void) | undefined;
  const pipes: AgentPipes = {
    onStdout: (l) => ((listener = l), { dispose: () => undefined }),
    onStdoutEnd: (l) => ((ended = l), { dispose: () => undefined }),
    write: async () => true,
  };
  const stream = createMessageStream(pipes, {
    maxLineBytes: 64 * 1024,
    observer: {
      incoming: (message, _len, info, line) => record({ kind: 'wire', t: t++, dir: 'in', msg: message as JsonObject }, info.invalidUtf8 ? undefined : line),
      noise: (line) => record({ kind: 'noise', t: t++, dir: 'in', ...(typeof line === 'string' ? { text: line } : { base64: line.base64 }) }),
      oversize: (line) => record({ kind: 'oversize', t: t++, dir: 'in', length: line.length, sha256: line.sha256, head: line.head }),
    },
  });
  const toSdk: AnyMessage[] = [];
  const reading = (async () => {
    const reader = stream.stream.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      toSdk.push(value);
    }
  })();
  const reused = Buffer.alloc(Math.max(...CUTS));
  let offset = 0;
  for (let i = 0; offset < bytes.length; i++) {
    const size = Math.min(CUTS[i % CUTS.length]!, bytes.length - offset);
    if (reuse) {
      bytes.copy(reused, 0, offset, offset + size);
      listener!(reused.subarray(0, size));
      reused.fill(0x7b); // '{'
    } else listener!(Buffer.from(bytes.subarray(offset, offset + size)));
    offset += size;
    // Let the trace writer flush now and then, as it does between reads.
    if (i % 5 === 4) await new Promise((resolve) => setImmediate(resolve));
  }
  ended!();
  await reading;
  await trace.close();
  return { trace: readFileSync(trace.path, 'utf8'), lineLengths, toSdk };
}

describe('a reused stdout buffer', () => {
  it('leaves every consumer with what a fresh buffer per read gives', async () => {
    const bytes = agentOutput();
    const fresh = await consume(bytes, false);
    const reused = await consume(bytes, true);
    expect(fresh.lineLengths.length).toBe(400);
    expect(fresh.toSdk.length).toBeGreaterThan(300); // no `consume` here: session/update goes to the SDK too
    expect(reused.lineLengths).toEqual(fresh.lineLengths);
    expect(reused.toSdk).toEqual(fresh.toSdk);
    expect(reused.trace).toBe(fresh.trace);
  });
});
