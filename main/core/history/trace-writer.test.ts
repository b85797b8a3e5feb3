import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraceRecord } from '../../../common/trace/records';
import { BlockPool, BUSY_SPARE_BLOCKS } from './block-pool';
import { WRITER_HEADER } from './testing/traces';
import { TraceWriter } from './trace-writer';

const header = WRITER_HEADER;
const stderr = (i: number): TraceRecord => ({ kind: 'stderr', t: i, text: `line ${i}` });
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; t?: number });
const tmp = () => join(mkdtempSync(join(tmpdir(), 'acpwb-trace-')), 'sub', 'conn.jsonl');

describe('TraceWriter', () => {
  afterEach(() => vi.useRealTimers());

  it('writes the header before open resolves, creating the folder', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    expect(lines(path)).toEqual([header]);
    await writer.close();
  });

  it('refuses to append to an existing file: one file per connection', async () => {
    const path = tmp();
    await (await TraceWriter.open(path, header)).close();
    await expect(TraceWriter.open(path, header)).rejects.toThrow(/EEXIST/);
  });

  it('buffers appends and writes them within the flush interval, in order', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 100 });
    for (let i = 1; i <= 50; i++) writer.append(stderr(i));
    expect(lines(path)).toHaveLength(1);
    expect(writer.pendingLines).toBe(50);
    await vi.waitFor(() => expect(lines(path)).toHaveLength(51), { timeout: 10_000, interval: 10 });
    expect(lines(path).slice(1).map((r) => r.t)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await writer.close();
  });

  it('flushes no later than the interval after the first append', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 100 });
    writer.append(stderr(1));
    await vi.advanceTimersByTimeAsync(99);
    expect(writer.pendingLines).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(writer.pendingLines).toBe(0);
    vi.useRealTimers();
    await writer.close();
    expect(lines(path)).toHaveLength(2);
  });

  it('flushSoon writes on the next turn of the event loop, long before the interval', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    writer.append(stderr(1));
    writer.flushSoon();
    await vi.waitFor(() => expect(lines(path)).toHaveLength(2), { timeout: 10_000, interval: 5 });
    await writer.close();
  });

  it('writes at once, without being asked, after a permission request, a turn’s answer or an exit', async () => {
    const urgent: TraceRecord[] = [
      { kind: 'wire', t: 1, dir: 'in', msg: { jsonrpc: '2.0', id: 0, method: 'session/request_permission', params: {} } },
      { kind: 'wire', t: 2, dir: 'in', msg: { jsonrpc: '2.0', id: 3, result: { stopReason: 'end_turn' } } },
      { kind: 'exit', t: 3, code: 0, signal: null },
    ];
    for (const record of urgent) {
      const path = tmp();
      const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
      writer.append(stderr(0));
      writer.append(record);
      await vi.waitFor(() => expect(lines(path)).toHaveLength(3), { timeout: 10_000, interval: 5 });
      await writer.close();
    }
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    writer.append({ kind: 'wire', t: 1, dir: 'in', msg: { jsonrpc: '2.0', method: 'session/update', params: {} } });
    await new Promise((r) => setTimeout(r, 50));
    expect(lines(path)).toHaveLength(1);
    await writer.close();
  });

  it('serializes at append time, so later changes to the object are not written', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    const record = { kind: 'stderr', t: 1, text: 'before' } as TraceRecord & { text: string };
    writer.append(record);
    record.text = 'after';
    await writer.close();
    expect(lines(path)[1]).toMatchObject({ text: 'before' });
  });

  it('splits a large flush into bounded writes without breaking lines or order', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { maxWriteBytes: 1000 });
    const big = 'x'.repeat(10_000);
    writer.append({ kind: 'stderr', t: 1, text: big });
    for (let i = 2; i <= 20; i++) writer.append(stderr(i));
    await writer.flush();
    const read = lines(path);
    expect(read).toHaveLength(21);
    expect(read[1]).toMatchObject({ text: big });
    expect(read.slice(2).map((r) => r.t)).toEqual(Array.from({ length: 19 }, (_, i) => i + 2));
    await writer.close();
  });

  it('replaces a record that cannot be serialized by a notice saying so', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    writer.append({ kind: 'wire', t: 3, dir: 'in', sessionId: 'S', msg: { n: 1n } as never });
    await writer.close();
    expect(lines(path)[1]).toMatchObject({ kind: 'notice', t: 3, severity: 'error', sessionId: 'S', message: expect.stringContaining('wire record could not be written') });
  });

  it('close flushes everything; appending afterwards throws', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    writer.append(stderr(1));
    await writer.close();
    expect(lines(path)).toHaveLength(2);
    expect(() => writer.append(stderr(2))).toThrow(/closed/);
    await writer.close();
  });

  it('keeps lines whose write failed and writes them, in order, on the next flush', async () => {
    const path = tmp();
    const errors: Error[] = [];
    const writer = await TraceWriter.open(path, header, { onError: (e) => errors.push(e) });
    const file = (writer as unknown as { file: { write: (...a: unknown[]) => Promise<unknown> } }).file;
    const realWrite = file.write.bind(file);
    let failNext = true;
    file.write = (...args: unknown[]) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
      }
      return realWrite(...args);
    };
    writer.append(stderr(1));
    await expect(writer.flush()).rejects.toThrow(/ENOSPC/);
    writer.append(stderr(2));
    await writer.flush();
    expect(lines(path).slice(1).map((r) => r.t)).toEqual([1, 2]);
    await writer.close();
  });

  it('says when writing works again after failing, once, and retries by itself meanwhile', async () => {
    const path = tmp();
    const errors: Error[] = [];
    let recovered = 0;
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 20, onError: (e) => errors.push(e), onRecovered: () => recovered++ });
    const file = (writer as unknown as { file: { write: (...a: unknown[]) => Promise<unknown> } }).file;
    const realWrite = file.write.bind(file);
    let diskFull = true;
    file.write = (...args: unknown[]) => (diskFull ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })) : realWrite(...args));
    writer.append(stderr(1));
    writer.flushSoon();
    // Nothing more is appended: the writer tries again on its own.
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(recovered).toBe(0);
    diskFull = false;
    await vi.waitFor(() => expect(recovered).toBe(1), { timeout: 10_000 });
    expect(writer.pendingBytes).toBe(0);
    writer.append(stderr(2));
    await writer.flush();
    expect(recovered).toBe(1);
    expect(lines(path).slice(1).map((r) => r.t)).toEqual([1, 2]);
    await writer.close();
  });
});

describe('TraceWriter: a wire record with the agent’s own bytes', () => {
  const wire = (msg: Record<string, unknown>): TraceRecord => ({ kind: 'wire', t: 7, dir: 'in', msg, sessionId: 'W1' }) as TraceRecord;

  it('writes messages of every size around a block (and past one) whole, each line where bytesAppended said', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    const block = 256 * 1024;
    const sizes = [10, block - 200, block - 60, block - 59, block - 58, block, block + 1, 3 * block, 5, 200_000, 70_000];
    const expected: string[] = [];
    const spans: Array<[number, number]> = [];
    for (const [k, size] of sizes.entries()) {
      const text = `{"jsonrpc":"2.0","method":"m","params":{"pad":"${'p'.repeat(size)}"}}`;
      const record = { kind: 'wire', t: k + 0.125, dir: 'in', msg: JSON.parse(text) as Record<string, unknown>, sessionId: 'W1' } as TraceRecord;
      const before = writer.bytesAppended;
      writer.append(record, Buffer.from(text));
      spans.push([before, writer.bytesAppended]);
      expected.push(`{"kind":"wire","t":${k + 0.125},"dir":"in","sessionId":"W1","msg":${text}}\n`);
    }
    await writer.close();
    const file = readFileSync(path);
    expect(file.length).toBe(writer.bytesAppended);
    spans.forEach(([from, to], k) => expect(file.subarray(from, to).toString('utf8')).toBe(expected[k]));
  });

  it('writes those bytes as `msg` (not re-serialized), last, and the line reads back as the same record', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    // Spacing and key order only the agent's bytes have: the file keeps them.
    const text = '{ "jsonrpc":"2.0", "method":"session/update","params":{"update":{"text":"h\\u00e9llo"}}}';
    const record = wire(JSON.parse(text) as Record<string, unknown>);
    writer.append(record, Buffer.from(text));
    await writer.close();
    const raw = readFileSync(path, 'utf8').split('\n')[1]!;
    expect(raw).toBe(`{"kind":"wire","t":7,"dir":"in","sessionId":"W1","msg":${text}}`);
    expect(JSON.parse(raw)).toEqual(record);
  });

  it('serializes the record instead when the bytes hold a carriage return (a line break to some readers)', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    const text = '{"jsonrpc":"2.0",\r"method":"x"}';
    const record = wire(JSON.parse(text) as Record<string, unknown>);
    writer.append(record, Buffer.from(text));
    await writer.close();
    const raw = readFileSync(path, 'utf8').split('\n')[1]!;
    expect(raw).toBe(JSON.stringify(record));
  });

  it('keeps the order of records with and without bytes, and counts them as pending lines', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    const text = '{"jsonrpc":"2.0","method":"m"}';
    writer.append(stderr(1));
    writer.append(wire(JSON.parse(text) as Record<string, unknown>), Buffer.from(text));
    writer.append(stderr(2));
    expect(writer.pendingLines).toBe(3);
    await writer.close();
    expect(lines(path).map((r) => r.kind)).toEqual(['header', 'stderr', 'wire', 'stderr']);
  });
});

describe('TraceWriter: pending bytes (backpressure)', () => {
  it('counts the bytes not yet in the file, and whenBelow resolves once a flush brought them down', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    expect(writer.pendingBytes).toBe(0);
    await writer.whenBelow(0); // nothing pending: at once
    const big = 'x'.repeat(300_000); // larger than a block
    writer.append({ kind: 'stderr', t: 1, text: big });
    for (let i = 2; i <= 100; i++) writer.append(stderr(i));
    const expected = readFileSync(path).length; // the header only, so far
    expect(writer.pendingBytes).toBeGreaterThan(300_000);
    await writer.whenBelow(0); // starts a flush by itself
    expect(writer.pendingBytes).toBe(0);
    expect(readFileSync(path).length).toBeGreaterThan(expected + 300_000);
    expect(lines(path).slice(1).map((r) => r.t)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    await writer.close();
  });
});

describe('TraceWriter: the record given with bytes', () => {
  it('is left as it was, and a frozen one is written the same way', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    const text = '{"jsonrpc":"2.0","method":"m"}';
    const record = { kind: 'wire', t: 1, dir: 'in', msg: JSON.parse(text) as Record<string, unknown>, sessionId: 'S' } as TraceRecord;
    const frozen = Object.freeze({ ...record });
    writer.append(record, Buffer.from(text));
    writer.append(frozen, Buffer.from(text));
    expect(record).toEqual(frozen);
    expect(Object.keys(record)).toEqual(['kind', 't', 'dir', 'msg', 'sessionId']);
    await writer.close();
    const raw = readFileSync(path, 'utf8').split('\n');
    expect(raw[1]).toBe(`{"kind":"wire","t":1,"dir":"in","sessionId":"S","msg":${text}}`);
    expect(raw[2]).toBe(raw[1]);
  });
});

describe('TraceWriter: byte offsets of the lines', () => {
  it('bytesAppended is where the next line starts, so each record’s line can be read back from the file', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header);
    const spans: Array<[number, number]> = [];
    const text = '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"text":"h\u00e9llo — ünïcode"}}}';
    const records: TraceRecord[] = [stderr(1), { kind: 'wire', t: 2, dir: 'in', msg: JSON.parse(text) as Record<string, unknown> } as TraceRecord, { kind: 'stderr', t: 3, text: 'x'.repeat(300 * 1024) }];
    for (const [k, r] of records.entries()) {
      const start = writer.bytesAppended;
      writer.append(r, k === 1 ? Buffer.from(text) : undefined);
      spans.push([start, writer.bytesAppended]);
    }
    await writer.close();
    const file = readFileSync(path);
    expect(spans[0]![0]).toBe(file.indexOf('\n') + 1);
    expect(spans[2]![1]).toBe(file.length);
    spans.forEach(([from, to], k) => expect(JSON.parse(file.subarray(from, to).toString('utf8'))).toEqual(records[k]));
  });
});

describe('TraceWriter: blocks', () => {
  it('reuses its blocks while lines keep coming during writes, and keeps only a few once idle', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    const text = 'y'.repeat(16 * 1024);
    let t = 0;
    // A flood: 80 rounds of ~1 MiB, each appended while the previous rounds are being written,
    // with the backpressure the connection applies (it stops reading past a bound).
    for (let round = 0; round < 80; round++) {
      for (let i = 0; i < 64; i++) writer.append({ kind: 'stderr', t: ++t, text });
      await writer.whenBelow(2 * 1024 * 1024);
    }
    // At most ~3 MiB was ever pending: with written blocks reused, that is all that was allocated.
    expect(writer.blocksAllocated).toBeLessThanOrEqual(20);
    await writer.flush();
    expect(writer.pendingBytes).toBe(0);
    await idle(writer);
    expect(lines(path)).toHaveLength(1 + 80 * 64);
    await writer.close();
  });

  it('keeps its blocks through a flood whose writes catch up between bursts, and keeps only a few once idle', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    const text = 'y'.repeat(16 * 1024);
    let t = 0;
    // Bursts of ~1.5 MiB (6 blocks: what a connection's backpressure lets pile up, 2 MiB at most),
    // each written out completely before the next one comes.
    for (let burst = 0; burst < 20; burst++) {
      for (let i = 0; i < 96; i++) writer.append({ kind: 'stderr', t: ++t, text });
      await writer.flush();
      expect(writer.pendingBytes).toBe(0);
    }
    // The blocks of one burst, reused by all the others (trimmed to 4 after each burst, it was ~90).
    expect(writer.blocksAllocated).toBeLessThanOrEqual(BUSY_SPARE_BLOCKS);
    expect(writer.spareBlocks).toBeGreaterThan(4);
    await idle(writer);
    expect(lines(path)).toHaveLength(1 + 20 * 96);
    await writer.close();
  });
});

describe('TraceWriter: the spare blocks are shared by the writers of a process', () => {
  const text = 'y'.repeat(16 * 1024);
  /** ≈ 1.5 MiB (6 blocks) appended, then written out completely. */
  async function burst(writer: TraceWriter, from: number): Promise<void> {
    for (let i = 0; i < 96; i++) writer.append({ kind: 'stderr', t: from + i, text });
    await writer.flush();
    expect(writer.pendingBytes).toBe(0);
  }

  it('4 writers whose bursts take turns allocate the blocks of one burst, not one burst each', async () => {
    const pool = new BlockPool();
    const paths = [tmp(), tmp(), tmp(), tmp()];
    const writers = await Promise.all(paths.map((path) => TraceWriter.open(path, header, { flushIntervalMs: 60_000, blockPool: pool })));
    for (let round = 0; round < 5; round++) {
      for (const writer of writers) await burst(writer, round * 96 + 1);
    }
    // At most ≈ 1.5 MiB was ever pending, in one writer at a time: that is all the pool allocated
    // (each writer with spares of its own: 4 × 6).
    const allocated = writers.reduce((sum, w) => sum + w.blocksAllocated, 0);
    expect(allocated).toBe(pool.blocksAllocated);
    expect(allocated).toBeLessThanOrEqual(BUSY_SPARE_BLOCKS);
    await Promise.all(writers.map((w) => w.close()));
    for (const path of paths) expect(lines(path).slice(1).map((r) => r.t)).toEqual(Array.from({ length: 5 * 96 }, (_, i) => i + 1));
  });

  it('close gives the writer’s blocks back: the next writer reuses them', async () => {
    const pool = new BlockPool();
    const first = await TraceWriter.open(tmp(), header, { flushIntervalMs: 60_000, blockPool: pool });
    const keeper = await TraceWriter.open(tmp(), header, { flushIntervalMs: 60_000, blockPool: pool });
    await burst(first, 1);
    const allocated = pool.blocksAllocated;
    await first.close();
    expect(pool.spareBlocks).toBeGreaterThanOrEqual(Math.min(allocated, BUSY_SPARE_BLOCKS));
    const path = tmp();
    const next = await TraceWriter.open(path, header, { flushIntervalMs: 60_000, blockPool: pool });
    await burst(next, 1);
    expect(next.blocksAllocated).toBe(0);
    expect(pool.blocksAllocated).toBe(allocated);
    await next.close();
    await keeper.close();
    expect(lines(path)).toHaveLength(1 + 96);
  });
});

/** Waits until the writer has trimmed its spares, as it does once it has been idle for a while. */
async function idle(writer: TraceWriter): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (writer.spareBlocks > 4) {
    if (Date.now() > deadline) throw new Error(`still ${writer.spareBlocks} spare blocks`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
