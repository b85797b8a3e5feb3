import { describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TraceItem } from '../../../common/trace/parse';
import { ReadBuffer, readTraceTail, readTraceTailInto, readTraceTailSync, type TailOptions, type TailResult } from './tail-reader';

const fixtures = resolve(__dirname, '../../../e2e/fixtures/traces');

/** A copy of the codex fixture with `tail` appended, in a temporary folder of its own. */
function fixtureWithTail(prefix: string, tail: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 't.jsonl');
  copyFileSync(join(fixtures, 'codex.jsonl'), path);
  appendFileSync(path, tail);
  return { dir, path };
}

async function both(path: string, from: { position: number; lines: number }): Promise<Array<{ items: Array<[TraceItem, number]>; result: TailResult }>> {
  const a: Array<[TraceItem, number]> = [];
  const b: Array<[TraceItem, number]> = [];
  const ra = await readTraceTail(path, from, (item, offset) => a.push([item, offset]));
  const rb = readTraceTailSync(path, from, (item, offset) => b.push([item, offset]));
  return [
    { items: a, result: ra },
    { items: b, result: rb },
  ];
}

describe('the synchronous tail reader (worker threads)', () => {
  it('reads the same lines, offsets and positions as the asynchronous one, from the start and from the middle', async () => {
    for (const name of readdirSync(fixtures)) {
      const path = join(fixtures, name);
      const [whole, wholeSync] = await both(path, { position: 0, lines: 0 });
      expect(wholeSync, name).toEqual(whole);
      expect(whole!.items.length, name).toBeGreaterThan(0);
      const mid = whole!.items[Math.floor(whole!.items.length / 2)]!;
      const from = { position: mid[1], lines: Math.floor(whole!.items.length / 2) };
      const [tail, tailSync] = await both(path, from);
      expect(tailSync, name).toEqual(tail);
      expect(tail!.result.position).toBe(whole!.result.position);
    }
  });

  it('leaves a torn last line and lines longer than its buffer as the asynchronous one does', async () => {
    // A record of 5 MiB (more than one read) and a line without its newline.
    const big = JSON.stringify({ kind: 'stderr', t: 1, text: 'x'.repeat(5 * 1024 * 1024) });
    const { dir, path } = fixtureWithTail('acpwb-tail-', `${big}\n{"kind":"stderr","t":2,"te`);
    try {
      const [a, b] = await both(path, { position: 0, lines: 0 });
      expect(b).toEqual(a);
      // Against the file cut by hand: one item per complete line, at its byte offset.
      const data = readFileSync(path);
      const starts: number[] = [];
      for (let at = 0, nl = data.indexOf(10); nl !== -1; at = nl + 1, nl = data.indexOf(10, at)) starts.push(at);
      expect(a!.items.map(([, offset]) => offset)).toEqual(starts);
      expect(a!.result.lines).toBe(starts.length);
      const last = a!.items[a!.items.length - 1]![0];
      expect(last.type === 'record' && last.record.kind === 'stderr' && last.record.text.length).toBe(5 * 1024 * 1024);
      expect(b!.result.torn).toBe(true);
      expect(b!.result.position).toBe(readFileSync(path).length - '{"kind":"stderr","t":2,"te'.length);
      writeFileSync(path, '');
      const [e, f] = await both(path, { position: 0, lines: 0 });
      expect(f).toEqual(e);
      expect(f!.items).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** readTraceTail and readTraceTailInto (one small buffer, reused from call to call) side by side. */
async function intoAndPlain(path: string, from: { position: number; lines: number }, buffer: ReadBuffer, options: () => TailOptions = () => ({})) {
  const a: Array<[TraceItem, number]> = [];
  const b: Array<[TraceItem, number]> = [];
  const ra = await readTraceTail(path, from, (item, offset) => a.push([item, offset]), options());
  const rb = await readTraceTailInto(path, from, (item, offset) => b.push([item, offset]), options(), buffer);
  return [
    { items: a, result: ra },
    { items: b, result: rb },
  ];
}

describe('the tail reader into a reused buffer (snippets)', () => {
  it('reads the same lines, offsets and positions as readTraceTail: fixtures from the start and the middle, a range, a stop', async () => {
    const buffer = new ReadBuffer(Buffer.alloc(16));
    for (const name of readdirSync(fixtures)) {
      const path = join(fixtures, name);
      const [whole, into] = await intoAndPlain(path, { position: 0, lines: 0 }, buffer);
      expect(into, name).toEqual(whole);
      const n = whole!.items.length;
      const mid = whole!.items[Math.floor(n / 2)]!;
      const from = { position: mid[1], lines: Math.floor(n / 2) };
      const [tail, tailInto] = await intoAndPlain(path, from, buffer);
      expect(tailInto, name).toEqual(tail);
      // A session's range (stop after a line's offset) and a reader told to stop after 3 items.
      const stopAfterOffset = whole!.items[Math.floor((3 * n) / 4)]![1];
      const [range, rangeInto] = await intoAndPlain(path, { position: 0, lines: 0 }, buffer, () => ({ stopAfterOffset }));
      expect(rangeInto, name).toEqual(range);
      let seen = 0;
      const [stopped, stoppedInto] = await intoAndPlain(path, from, buffer, () => {
        seen = 0;
        return { shouldStop: () => ++seen >= 3 };
      });
      expect(stoppedInto, name).toEqual(stopped);
    }
    // The buffer grew for the longest line and is still usable.
    expect(buffer.bytes.length).toBeGreaterThan(16);
  });

  it('reads lines longer than its buffer, in many reads, and leaves a torn last line', async () => {
    const big = JSON.stringify({ kind: 'stderr', t: 1, text: 'é'.repeat(3 * 1024 * 1024) });
    const { dir, path } = fixtureWithTail('acpwb-tail-into-', `${big}\n${big.slice(0, 1000)}"}\n{"kind":"stderr","t":2,"te`);
    try {
      const buffer = new ReadBuffer(Buffer.alloc(1000));
      const [a, b] = await intoAndPlain(path, { position: 0, lines: 0 }, buffer);
      expect(b).toEqual(a);
      expect(b!.result.torn).toBe(true);
      const records = b!.items.filter(([item]) => item.type === 'record' && item.record.kind === 'stderr');
      expect(records.length).toBeGreaterThanOrEqual(2);
      expect(buffer.bytes.length).toBeGreaterThanOrEqual(big.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
