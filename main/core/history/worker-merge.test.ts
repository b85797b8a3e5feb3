import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WrittenSegment } from './fold-pool';
import { SegmentBuilder, SegmentCorrupt } from './segment';
import { mergeWritten } from './worker-merge';

type Doc = [number, Record<string, [number, number]>];

async function write(dir: string, name: string, docs: Doc[]): Promise<WrittenSegment> {
  const b = new SegmentBuilder();
  for (const [id, terms] of docs) b.addDocument(id, new Map(Object.entries(terms)));
  const info = await b.write(join(dir, name));
  return { name, bytes: info.bytes, docs: info.docs, terms: info.terms };
}

/** A worker's flushes: documents in id order, a new segment every `per` documents. */
function worker(seed: number, ids: number[]): Doc[] {
  let x = seed;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return ids.map((id) => {
    const terms: Record<string, [number, number]> = {};
    const n = 1 + Math.floor(rnd() * 25);
    for (let i = 0; i < n; i++) terms[`t${Math.floor(300 * rnd() ** 2)}${i % 4 === 0 ? 'ü' : ''}`] = [1 + Math.floor(rnd() * 500), 1 << Math.floor(rnd() * 5)];
    return [id, terms];
  });
}

describe('a fold worker merging the segments it wrote', () => {
  it('writes the same bytes as one segment of all its documents and removes its inputs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-wmerge-'));
    // The documents a worker is given: every other id, as the two workers share the files.
    const docs = worker(7, Array.from({ length: 240 }, (_, i) => 2 * i + 1));
    const written: WrittenSegment[] = [];
    for (let s = 0; s < 4; s++) written.push(await write(dir, `seg-3-w1-${s}.idx`, docs.slice(s * 60, s * 60 + 60)));
    const expected = await write(dir, 'expected.idx', docs);

    const got = await mergeWritten(dir, 'seg-3-w1-merged.idx', written, 3);
    expect(got).toEqual([{ ...expected, name: 'seg-3-w1-merged.idx' }]);
    expect(Buffer.compare(readFileSync(join(dir, 'seg-3-w1-merged.idx')), readFileSync(join(dir, 'expected.idx')))).toBe(0);
    for (const s of written) expect(existsSync(join(dir, s.name))).toBe(false);
  });

  it('leaves up to its share of segments (or one, or none) as they are', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-wmerge-'));
    const one = await write(dir, 'seg-1-w0-0.idx', worker(3, [0, 2, 4]));
    const two = await write(dir, 'seg-1-w0-1.idx', worker(4, [6, 8]));
    const three = await write(dir, 'seg-1-w0-2.idx', worker(5, [10]));
    expect(await mergeWritten(dir, 'seg-1-w0-merged.idx', [one, two, three], 3)).toEqual([one, two, three]);
    expect(await mergeWritten(dir, 'seg-1-w0-merged.idx', [one], 0)).toEqual([one]);
    expect(await mergeWritten(dir, 'seg-1-w0-merged.idx', [], 3)).toEqual([]);
    expect([one, two, three].every((s) => existsSync(join(dir, s.name)))).toBe(true);
    expect(existsSync(join(dir, 'seg-1-w0-merged.idx'))).toBe(false);
    // One more than the share: merged.
    const four = await write(dir, 'seg-1-w0-3.idx', worker(6, [12]));
    expect((await mergeWritten(dir, 'seg-1-w0-merged.idx', [one, two, three, four], 3)).map((s) => [s.name, s.docs])).toEqual([['seg-1-w0-merged.idx', 7]]);
  });

  it('refuses a damaged input and keeps the inputs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-wmerge-'));
    const a = await write(dir, 'seg-2-w0-0.idx', worker(5, [0, 2]));
    const b = await write(dir, 'seg-2-w0-1.idx', worker(6, [4, 6]));
    const bytes = readFileSync(join(dir, b.name));
    bytes[0] = 0x5a;
    writeFileSync(join(dir, b.name), bytes);
    await expect(mergeWritten(dir, 'seg-2-w0-merged.idx', [a, b], 1)).rejects.toThrow(SegmentCorrupt);
    expect(existsSync(join(dir, a.name)) && existsSync(join(dir, b.name))).toBe(true);
  });
});
