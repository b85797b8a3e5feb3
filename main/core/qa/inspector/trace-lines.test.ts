import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TraceLines, type TraceFile } from './trace-lines';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A file of lines of varied lengths (some far apart, some over the coalescing limits) and their spans. */
type FakeTrace = { -readonly [K in keyof TraceFile]: TraceFile[K] } & { flushes: number };

function file(): { trace: FakeTrace; lines: string[]; spans: Array<{ offset: number; length: number }> } {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-trace-lines-'));
  dirs.push(dir);
  const lengths = [10, 200, 70 * 1024, 5, 3 * 1024 * 1024, 16 * 1024, 1, 5 * 1024 * 1024, 300];
  const lines = lengths.map((n, i) => `${String(i).padStart(3, '0')}${'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n)}\n`);
  const spans: Array<{ offset: number; length: number }> = [];
  let offset = 0;
  for (const l of lines) {
    spans.push({ offset, length: Buffer.byteLength(l) });
    offset += Buffer.byteLength(l);
  }
  const path = join(dir, 'trace.jsonl');
  writeFileSync(path, lines.join(''));
  const trace: FakeTrace = { path, bytesAppended: offset, pendingBytes: 0, flushes: 0, flush: async () => void trace.flushes++ };
  return { trace, lines, spans };
}

describe('TraceLines', () => {
  it('reads any set of spans, in any order, near or far apart, small or over the read limit', async () => {
    const { trace, lines, spans } = file();
    const reader = new TraceLines(trace);
    const order = [8, 0, 4, 1, 7, 2, 3, 6, 5];
    const got = await reader.read(order.map((k) => spans[k]!));
    expect(got.map((b) => b.toString())).toEqual(order.map((k) => lines[k]));
    expect((await reader.readOne(spans[3]!)).toString()).toBe(lines[3]);
    expect(await reader.read([])).toEqual([]);
    expect(trace.flushes).toBe(0); // everything was in the file
  });

  it('flushes the writer first when a span is not in the file yet', async () => {
    const { trace, lines, spans } = file();
    trace.pendingBytes = spans[8]!.length;
    const reader = new TraceLines(trace);
    expect((await reader.readOne(spans[0]!)).toString()).toBe(lines[0]);
    expect(trace.flushes).toBe(0);
    expect((await reader.readOne(spans[8]!)).toString()).toBe(lines[8]);
    expect(trace.flushes).toBe(1);
  });

  it('says which trace could not be read, and why', async () => {
    const { trace, spans } = file();
    const reader = new TraceLines({ ...trace, path: `${trace.path}.gone` });
    await expect(reader.readOne(spans[0]!)).rejects.toThrow(/trace file .*trace\.jsonl\.gone: ENOENT/);
    const short = new TraceLines({ ...trace, bytesAppended: trace.bytesAppended + 10 });
    await expect(short.readOne({ offset: trace.bytesAppended, length: 10 })).rejects.toThrow(/the file ends at byte/);
    const failing = new TraceLines({ ...trace, pendingBytes: 10, flush: () => Promise.reject(new Error('ENOSPC: no space left on device')) });
    await expect(failing.readOne(spans[8]!)).rejects.toThrow(/trace file .*ENOSPC/);
  });
});
