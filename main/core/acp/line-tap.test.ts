import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { CARRY_KEEP_BYTES, classifyJsonRpc, LineTap, type LineTapOutput, type MessageInfo, type NoiseLine, type OversizeLine } from './line-tap';

type Event =
  | { kind: 'message'; message: unknown; rawLength: number; info: MessageInfo }
  | { kind: 'noise'; line: NoiseLine; rawLength: number }
  | { kind: 'oversize'; line: OversizeLine };

function recordingTap(maxLineBytes?: number): { tap: LineTap; events: Event[] } {
  const events: Event[] = [];
  const output: LineTapOutput = {
    message: (message, rawLength, info) => events.push({ kind: 'message', message, rawLength, info }),
    noise: (line, rawLength) => events.push({ kind: 'noise', line, rawLength }),
    oversize: (line) => events.push({ kind: 'oversize', line }),
  };
  const tap = new LineTap(output, maxLineBytes === undefined ? {} : { maxLineBytes });
  return { tap, events };
}

function feedInChunks(tap: LineTap, bytes: Buffer, chunkSize: number): void {
  for (let i = 0; i < bytes.length; i += chunkSize) tap.push(bytes.subarray(i, i + chunkSize));
}

const request = { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { text: 'héllo ✓' } };
const notification = { jsonrpc: '2.0', method: 'session/update', params: { n: 2 } };

afterEach(() => vi.restoreAllMocks());

describe('LineTap splitting', () => {
  it('delivers each JSON object once, with its byte length, whatever the chunking', () => {
    const text = `${JSON.stringify(request)}\n${JSON.stringify(notification)}\r\nnot json\n`;
    const bytes = Buffer.from(text);
    for (const chunkSize of [1, 2, 3, 7, 64, bytes.length]) {
      const { tap, events } = recordingTap();
      feedInChunks(tap, bytes, chunkSize);
      tap.end();
      expect(events).toEqual([
        { kind: 'message', message: request, rawLength: Buffer.byteLength(JSON.stringify(request)), info: { shape: 'request', forward: true } },
        { kind: 'message', message: notification, rawLength: JSON.stringify(notification).length, info: { shape: 'notification', forward: true } },
        { kind: 'noise', line: 'not json', rawLength: 8 },
      ]);
    }
  });

  it('copies each line that spans chunks into one buffer that grows by doubling: linear even with 1-byte chunks', () => {
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { i, pad: 'x'.repeat(2000 + 3000 * i) } }));
    const bytes = Buffer.from(lines.join('\n') + '\n');
    const { tap, events } = recordingTap();
    const allocated = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const concat = vi.spyOn(Buffer, 'concat');
    feedInChunks(tap, bytes, 1);
    tap.end();
    expect(events.map((e) => (e.kind === 'message' ? (e.message as { params: { i: number } }).params.i : -1))).toEqual(lines.map((_, i) => i));
    expect(concat).not.toHaveBeenCalled();
    // 64 KiB, then doublings up to the longest line (≈ 150 KB): a few buffers, not one per line or per chunk.
    expect(allocated.mock.calls.length).toBeLessThanOrEqual(3);
    const longest = Math.max(...lines.map((l) => l.length));
    expect(allocated.mock.calls.reduce((n, [size]) => n + size, 0)).toBeLessThan(4 * longest);
  });

  it('reuses the buffer of lines that span chunks for the next such line; one grown past CARRY_KEEP_BYTES is not kept', () => {
    const seen: Array<{ buffer: ArrayBufferLike; text: string }> = [];
    const tap = new LineTap({ message: (_m, _n, _i, line) => seen.push({ buffer: line.buffer, text: line.toString('utf8') }), noise: () => {}, oversize: () => {} });
    const line = (n: number, pad: number) => JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { n, pad: 'y'.repeat(pad) } });
    const texts = [line(0, 10_000), line(1, 20_000), line(2, CARRY_KEEP_BYTES + 10), line(3, 30_000), line(4, 5_000)];
    // Each line in three chunks, so that each spans them.
    for (const text of texts) {
      const b = Buffer.from(`${text}\n`);
      const third = Math.ceil(b.length / 3);
      for (let i = 0; i < b.length; i += third) tap.push(Buffer.from(b.subarray(i, i + third)));
    }
    expect(seen.map((s) => s.text)).toEqual(texts);
    expect(seen[1]!.buffer).toBe(seen[0]!.buffer);
    expect(seen[2]!.buffer).not.toBe(seen[1]!.buffer);
    expect(seen[3]!.buffer).not.toBe(seen[2]!.buffer);
    expect(seen[3]!.buffer.byteLength).toBeLessThanOrEqual(CARRY_KEEP_BYTES);
    expect(seen[4]!.buffer).toBe(seen[3]!.buffer);
  });

  it('parses each line with JSON.parse exactly once and never parses non-object lines', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const { tap, events } = recordingTap();
    tap.push(Buffer.from('Welcome to SuperAgent v1\n[1,2]\n{"jsonrpc":"2.0","id":3,"result":{}}\n42\n'));
    tap.end();
    expect(events.map((e) => e.kind)).toEqual(['noise', 'noise', 'message', 'noise']);
    // "[1,2]" and "42" start with something else than "{": never parsed.
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('delivers a 10 MiB line arriving in 64 KiB chunks intact', () => {
    const big = { jsonrpc: '2.0', method: 'session/update', params: { text: 'a'.repeat(10 * 1024 * 1024) } };
    const bytes = Buffer.from(JSON.stringify(big) + '\n');
    const { tap, events } = recordingTap();
    const allocated = vi.spyOn(Buffer, 'allocUnsafeSlow');
    feedInChunks(tap, bytes, 64 * 1024);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.kind).toBe('message');
    if (event.kind !== 'message') return;
    expect((event.message as typeof big).params.text.length).toBe(10 * 1024 * 1024);
    expect(event.rawLength).toBe(bytes.length - 1);
    // 64 KiB doubled up to 16 MiB: < 2 × the line's bytes allocated (and copied) in all.
    expect(allocated.mock.calls.reduce((n, [size]) => n + size, 0)).toBeLessThan(2 * 16 * 1024 * 1024);
    expect(tap.bufferedBytes).toBe(0);
  });

  it('delivers a final line without newline at end(), strips a trailing \\r, and ignores pushes after end', () => {
    const { tap, events } = recordingTap();
    tap.push(Buffer.from('{"jsonrpc":"2.0","method":"a"}\r\n{"jsonrpc":"2.0","me'));
    tap.push(Buffer.from('thod":"b"}\r'));
    expect(events).toHaveLength(1);
    tap.end();
    tap.push(Buffer.from('{"jsonrpc":"2.0","method":"c"}\n'));
    tap.end();
    expect(events.map((e) => (e.kind === 'message' ? e.message : e))).toEqual([
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', method: 'b' },
    ]);
  });

  it('reports blank lines and JSON that is not an object as noise', () => {
    const { tap, events } = recordingTap();
    tap.push(Buffer.from('\n"just a string"\nnull\n   \n'));
    tap.end();
    expect(events).toEqual([
      { kind: 'noise', line: '', rawLength: 0 },
      { kind: 'noise', line: '"just a string"', rawLength: 15 },
      { kind: 'noise', line: 'null', rawLength: 4 },
      { kind: 'noise', line: '   ', rawLength: 3 },
    ]);
  });

  it('keeps invalid UTF-8 noise as base64 of the exact bytes', () => {
    const raw = Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x20, 0xc3]);
    const { tap, events } = recordingTap();
    tap.push(Buffer.concat([raw, Buffer.from('\nok ✓\n')]));
    expect(events).toEqual([
      { kind: 'noise', line: { base64: raw.toString('base64') }, rawLength: raw.length },
      { kind: 'noise', line: 'ok ✓', rawLength: Buffer.byteLength('ok ✓') },
    ]);
  });

  it('still delivers a JSON object with an invalid UTF-8 byte inside a string, flagged', () => {
    const line = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"t":"a'), Buffer.from([0xff]), Buffer.from('"}}\n')]);
    const { tap, events } = recordingTap();
    tap.push(line);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.kind === 'message' && event.info).toEqual({ shape: 'response', forward: true, invalidUtf8: true, problem: 'not valid UTF-8' });
    expect(event.kind === 'message' && event.message).toEqual({ jsonrpc: '2.0', id: 1, result: { t: 'a\ufffd' } });
  });

  it('splits identically under arbitrary chunking (property)', () => {
    const lineArb = fc.oneof(
      fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string(), params: fc.dictionary(fc.string(), fc.string()) }).map((o) => JSON.stringify(o)),
      fc.string().filter((s) => !s.includes('\n') && !s.includes('\r')),
    );
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }), fc.boolean(), (lines, cuts, crlf) => {
        const bytes = Buffer.from(lines.map((l) => l + (crlf ? '\r\n' : '\n')).join(''));
        const whole = recordingTap();
        whole.tap.push(bytes);
        whole.tap.end();
        const chunked = recordingTap();
        let offset = 0;
        for (let i = 0; offset < bytes.length; i++) {
          const size = cuts[i % cuts.length]!;
          chunked.tap.push(bytes.subarray(offset, offset + size));
          offset += size;
        }
        chunked.tap.end();
        expect(chunked.events).toEqual(whole.events);
        expect(whole.events).toHaveLength(lines.length);
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * Feeds `bytes` the way stdout is read (stdout-reader.ts): every chunk is copied into one buffer,
 * pushed, then the buffer is scribbled over — so anything kept of a chunk past `push` goes wrong.
 */
function feedThroughReusedBuffer(tap: LineTap, bytes: Buffer, cuts: number[]): void {
  const reused = Buffer.alloc(Math.max(...cuts));
  let offset = 0;
  for (let i = 0; offset < bytes.length; i++) {
    const size = Math.min(cuts[i % cuts.length]!, bytes.length - offset);
    bytes.copy(reused, 0, offset, offset + size);
    tap.push(reused.subarray(0, size));
    reused.fill(0x7b); // '{': still plausible JSON to a tap that kept a view
    offset += size;
  }
  tap.end();
}

describe('LineTap with a reused read buffer', () => {
  it('delivers the same events and line bytes as with a fresh buffer per chunk, whatever the chunking (property)', () => {
    const lineArb = fc.oneof(
      fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string(), params: fc.dictionary(fc.string(), fc.string({ maxLength: 60 })) }).map((o) => JSON.stringify(o)),
      fc.string().filter((s) => !s.includes('\n') && !s.includes('\r')),
    );
    // Each output records what it was given, the message line's bytes copied during the call.
    const recordingWithLines = (maxLineBytes?: number) => {
      const events: Array<Event | { kind: 'line'; bytes: string }> = [];
      const tap = new LineTap(
        {
          message: (message, rawLength, info, line) => events.push({ kind: 'message', message, rawLength, info }, { kind: 'line', bytes: line.toString('hex') }),
          noise: (line, rawLength) => events.push({ kind: 'noise', line, rawLength }),
          oversize: (line) => events.push({ kind: 'oversize', line }),
        },
        maxLineBytes === undefined ? {} : { maxLineBytes },
      );
      return { tap, events };
    };
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 20, max: 120 }), { nil: undefined }),
        (lines, cuts, crlf, maxLineBytes) => {
          const bytes = Buffer.from(lines.map((l) => l + (crlf ? '\r\n' : '\n')).join(''));
          const fresh = recordingWithLines(maxLineBytes);
          let offset = 0;
          for (let i = 0; offset < bytes.length; i++) {
            const size = cuts[i % cuts.length]!;
            fresh.tap.push(Buffer.from(bytes.subarray(offset, offset + size)));
            offset += size;
          }
          fresh.tap.end();
          const reused = recordingWithLines(maxLineBytes);
          feedThroughReusedBuffer(reused.tap, bytes, cuts);
          expect(reused.events).toEqual(fresh.events);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a line that spans many reads intact, even when each piece fills most of the buffer', () => {
    const line = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { diff: 'x'.repeat(10_000) } });
    const bytes = Buffer.from(`${line}\n${line}\n`);
    const { tap, events } = recordingTap();
    feedThroughReusedBuffer(tap, bytes, [4096, 3000, 4096]);
    expect(events).toHaveLength(2);
    for (const event of events) expect(event.kind === 'message' && event.message).toEqual(JSON.parse(line));
  });
});

describe('LineTap oversize lines', () => {
  it('skips a 40 MiB line (max 32 MiB) without buffering it, then delivers the next line', () => {
    const max = 32 * 1024 * 1024;
    const chunkSize = 64 * 1024;
    const total = 40 * 1024 * 1024;
    const { tap, events } = recordingTap(max);
    const hash = createHash('sha256');
    const head = Buffer.from('{"jsonrpc":"2.0","method":"huge","params":"');
    const filler = Buffer.alloc(chunkSize, 0x61);
    let sent = 0;
    let peakBuffered = 0;
    const send = (piece: Buffer): void => {
      tap.push(piece);
      hash.update(piece);
      sent += piece.length;
      peakBuffered = Math.max(peakBuffered, tap.bufferedBytes);
    };
    send(head);
    while (sent < total) send(filler.subarray(0, Math.min(chunkSize, total - sent)));
    expect(events).toHaveLength(0);
    tap.push(Buffer.from('\n{"jsonrpc":"2.0","id":7,"result":null}\n'));

    expect(peakBuffered).toBeLessThanOrEqual(max + 1 + 1024);
    expect(tap.bufferedBytes).toBe(0);
    expect(events).toHaveLength(2);
    const [oversize, next] = events;
    expect(oversize).toEqual({
      kind: 'oversize',
      line: { length: total, sha256: hash.digest('hex'), head: Buffer.concat([head, filler]).subarray(0, 1024).toString() },
    });
    expect(next).toMatchObject({ kind: 'message', message: { jsonrpc: '2.0', id: 7, result: null } });
  });

  it('hashes an oversize \\r\\n line without its \\r, even when the \\r ends a chunk', () => {
    const content = Buffer.from('x'.repeat(300));
    for (const split of [100, 299, 300, 301]) {
      const { tap, events } = recordingTap(100);
      const bytes = Buffer.concat([content, Buffer.from('\r\nnext\n')]);
      tap.push(bytes.subarray(0, split));
      tap.push(bytes.subarray(split));
      expect(events).toEqual([
        { kind: 'oversize', line: { length: 300, sha256: createHash('sha256').update(content).digest('hex'), head: content.toString() } },
        { kind: 'noise', line: 'next', rawLength: 4 },
      ]);
    }
  });

  it('treats a line of exactly the maximum as normal and one byte more as oversize', () => {
    const { tap, events } = recordingTap(10);
    tap.push(Buffer.from('0123456789\r\n0123456789A\nabc'));
    tap.end();
    expect(events.map((e) => e.kind)).toEqual(['noise', 'oversize', 'noise']);
    expect(events[1]).toMatchObject({ line: { length: 11, head: '0123456789A' } });
  });

  it('hands over each message line as bytes: a view of the chunk when the whole line is in it (no copy), a joined buffer otherwise', () => {
    const seen: Array<{ text: string; sameMemory: boolean }> = [];
    let chunk = Buffer.alloc(0);
    const tap = new LineTap({
      message: (_m, rawLength, _info, line) =>
        seen.push({
          text: line.toString('utf8'),
          sameMemory:
            line.length === rawLength &&
            line.buffer === chunk.buffer &&
            line.byteOffset >= chunk.byteOffset &&
            line.byteOffset + line.length <= chunk.byteOffset + chunk.length,
        }),
      noise: () => {},
      oversize: () => {},
    });
    const a = JSON.stringify(request);
    const b = JSON.stringify(notification);
    chunk = Buffer.from(`${a}\r\n${b.slice(0, 10)}`);
    tap.push(chunk);
    chunk = Buffer.from(`${b.slice(10)}\n`);
    tap.push(chunk);
    expect(seen).toEqual([
      { text: a, sameMemory: true },
      { text: b, sameMemory: false },
    ]);
  });

  it('reports an oversize final line at end()', () => {
    const { tap, events } = recordingTap(4);
    tap.push(Buffer.from('abcdefgh'));
    expect(tap.bufferedBytes).toBeLessThanOrEqual(4 + 1 + 1024);
    tap.end();
    expect(events).toEqual([{ kind: 'oversize', line: { length: 8, sha256: createHash('sha256').update('abcdefgh').digest('hex'), head: 'abcdefgh' } }]);
  });
});

describe('classifyJsonRpc', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'x' }, { shape: 'request', forward: true }],
    [{ jsonrpc: '2.0', id: 'uuid', method: 'x', params: {} }, { shape: 'request', forward: true }],
    [{ jsonrpc: '2.0', method: 'x' }, { shape: 'notification', forward: true }],
    [{ jsonrpc: '2.0', id: 1, result: {} }, { shape: 'response', forward: true }],
    [{ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } }, { shape: 'response', forward: true }],
    // Malformed responses with a real id are forwarded, so the SDK rejects the waiting request.
    [{ id: 1, result: {} }, { shape: 'response', forward: true, problem: 'missing "jsonrpc": "2.0"' }],
    [{ jsonrpc: '2.0', id: 1 }, { shape: 'response', forward: true, problem: 'a response needs exactly one of "result" and "error"' }],
    [{ jsonrpc: '2.0', id: 1, error: 'bad' }, { shape: 'response', forward: true, problem: '"error" needs an integer "code" and a string "message"' }],
    // Not forwarded: the SDK would write -32600 into the agent, or only log.
    [{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, { shape: 'response', forward: false, problem: '"id" is null' }],
    [{ id: 1, method: 'x' }, { shape: 'invalid', forward: false, problem: 'missing "jsonrpc": "2.0"' }],
    [{ jsonrpc: '2.0', method: 5 }, { shape: 'invalid', forward: false, problem: '"method" is not a string' }],
    [{ jsonrpc: '2.0', id: {}, method: 'x' }, { shape: 'invalid', forward: false, problem: 'request "id" is not a string, number or null' }],
    [{ hello: 'world' }, { shape: 'invalid', forward: false, problem: 'neither a request, a notification nor a response' }],
  ])('%j → %j', (message, expected) => {
    expect(classifyJsonRpc(message as Record<string, unknown>)).toEqual(expected);
  });
});
