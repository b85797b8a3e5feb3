/**
 * Reading a trace back while its writer still holds part of it: every span reads as the file holds
 * it in the end — before any flush, while a write is under way (in several bounded writes), after a
 * failed write, and after close — and a span outside what was appended is refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader, type TraceRecord } from '../../../common/trace/records';
import { TraceReadBack } from './trace-read-back';
import { TraceWriter } from './trace-writer';

const header: TraceHeader = {
  kind: 'header',
  format: TRACE_FORMAT,
  version: TRACE_FORMAT_VERSION,
  connectionId: '01JDQ9000000000000000CONN2',
  startedAt: '2026-12-02T10:00:00.000Z',
  startedAtMs: 1796205600000,
  launch: { command: 'node', args: [], cwd: '/w', env: [] },
  clientCapabilities: {},
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'acpwb-readback-'));
  dirs.push(d);
  return join(d, 'conn.jsonl');
};

/** Lines of many sizes, some past a 256 KiB block, some not ASCII; each appended with its span. */
function appendLines(writer: TraceWriter, count: number, spans: Array<[number, number]>): void {
  for (let k = 0; k < count; k++) {
    const size = k % 17 === 0 ? 300_000 : k % 5 === 0 ? 20_000 : 40 + k;
    const text = `{"jsonrpc":"2.0","method":"session/update","params":{"k":${k},"pad":"${(k % 3 === 0 ? 'é' : 'p').repeat(size)}"}}`;
    const record = { kind: 'wire', t: k, dir: 'in', msg: JSON.parse(text) as Record<string, unknown> } as TraceRecord;
    const at = writer.bytesAppended;
    writer.append(record, Buffer.from(text));
    spans.push([at, writer.bytesAppended - at]);
  }
}

describe('TraceReadBack', () => {
  it('reads every span as the file holds it in the end: before a flush, during bounded writes, and after close', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000, maxWriteBytes: 64 * 1024 });
    const reader = new TraceReadBack(writer);
    const spans: Array<[number, number]> = [];
    const seen = new Map<number, Buffer>();
    const readAll = () => spans.forEach(([at, length], k) => seen.set(k, reader.read(at, length)));

    appendLines(writer, 40, spans);
    expect(writer.pendingBytes).toBe(writer.bytesAppended - readFileSync(path).length);
    readAll(); // all in memory, none in the file
    const flushing = writer.flush();
    appendLines(writer, 40, spans); // appended while the write is under way
    // Read at every step of the write: part on disk, part in the write under way, part sealed, part in the block.
    let steps = 0;
    while (writer.pendingBytes > 0 && steps < 10_000) {
      readAll();
      spans.forEach(([at, length], k) => expect(reader.read(at, length).equals(seen.get(k)!)).toBe(true));
      await new Promise((resolve) => setImmediate(resolve));
      steps++;
      if (writer.pendingBytes > 0 && steps % 7 === 0) void writer.flush();
    }
    await flushing;
    await writer.close();
    const file = readFileSync(path);
    expect(file.length).toBe(writer.bytesAppended);
    spans.forEach(([at, length], k) => {
      expect(seen.get(k)!.equals(file.subarray(at, at + length))).toBe(true);
      expect(reader.read(at, length).equals(file.subarray(at, at + length))).toBe(true);
    });
    // Reads spanning several lines, and across the line boundaries.
    expect(reader.read(spans[3]![0] + 5, spans[9]![0] - spans[3]![0]).equals(file.subarray(spans[3]![0] + 5, spans[9]![0] + 5))).toBe(true);
    expect(() => reader.read(writer.bytesAppended - 10, 11)).toThrow(/beyond the end/);
    reader.close();
    expect(() => reader.read(0, 1)).toThrow(/no longer open/);
  });

  it('reads lines whose write failed from the writer until they are written', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000, maxWriteBytes: 100_000, onError: () => undefined });
    const reader = new TraceReadBack(writer);
    const file = (writer as unknown as { file: { writev: (...a: unknown[]) => Promise<unknown>; write: (...a: unknown[]) => Promise<unknown> } }).file;
    const realWrite = file.write.bind(file);
    let calls = 0;
    // The second write fails: what the first wrote is in the file, the rest stays with the writer.
    file.write = (...args: unknown[]) => (++calls === 2 ? Promise.reject(new Error('ENOSPC')) : realWrite(...args));
    const spans: Array<[number, number]> = [];
    // Less than a flush's worth (no flush starts by itself), several writes of 100,000 bytes.
    for (let k = 0; k < 4; k++) {
      const text = `{"jsonrpc":"2.0","method":"m","params":{"k":${k},"pad":"${'ü'.repeat(60_000)}"}}`;
      const at = writer.bytesAppended;
      writer.append({ kind: 'wire', t: k, dir: 'in', msg: JSON.parse(text) as Record<string, unknown> } as TraceRecord, Buffer.from(text));
      spans.push([at, writer.bytesAppended - at]);
    }
    const before = spans.map(([at, length]) => reader.read(at, length));
    await expect(writer.flush()).rejects.toThrow(/ENOSPC/);
    expect(writer.pendingBytes).toBeGreaterThan(0);
    expect(writer.pendingBytes).toBeLessThan(writer.bytesAppended - spans[0]![0]);
    spans.forEach(([at, length], k) => expect(reader.read(at, length).equals(before[k]!)).toBe(true));
    await writer.close();
    const bytes = readFileSync(path);
    spans.forEach(([at, length], k) => expect(bytes.subarray(at, at + length).equals(before[k]!)).toBe(true));
    reader.close();
  });

  it('refuses a range the writer does not hold', async () => {
    const path = tmp();
    const writer = await TraceWriter.open(path, header, { flushIntervalMs: 60_000 });
    const spans: Array<[number, number]> = [];
    appendLines(writer, 2, spans);
    const target = Buffer.alloc(10);
    expect(() => writer.copyPending(0, 10, target)).toThrow(/not pending/);
    expect(() => writer.copyPending(writer.bytesAppended - 5, 10, target)).toThrow(/not pending/);
    await writer.close();
  });
});
