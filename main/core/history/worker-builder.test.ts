import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FoldedDoc } from './fold-file';
import { SegmentBuilder } from './segment';
import { pooledTerms } from './pooled-terms';
import { hashTerm } from './term-counter';
import { WorkerBuilder, type ProvisionalSegment } from './worker-builder';

/** Files of 0–3 documents of random words, and the ids the main thread would give them. */
function files(seed: number, count: number): Array<{ key: number; docs: FoldedDoc[]; ids: number[] }> {
  let x = seed;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  let next = 100;
  // Older sessions' ids (a catch-up adds to them), each given once, in no order.
  const old = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
  return Array.from({ length: count }, (_, f) => {
    const docs = Array.from({ length: Math.floor(rnd() * 4) }, (_, d) => {
      const terms = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => `w${Math.floor(500 * rnd() ** 2)}${rnd() < 0.1 ? 'é' : ''}`))];
      return { sessionId: `s${f}-${d}`, length: terms.length, terms: pooledTerms(terms, terms.map(() => 1 + Math.floor(rnd() * 300)), terms.map(() => 1 << Math.floor(rnd() * 5)), terms.map(hashTerm)) };
    });
    // Mostly new ids in file order; now and then an older session's id, out of order.
    const ids = docs.map(() => (rnd() < 0.15 && old.length > 0 ? old.pop()! : next++));
    return { key: 2 * f + 1, docs, ids };
  });
}

/** What the worker did before: each file's documents added under their ids when the ids came, a segment written past `flush` postings. */
async function reference(dir: string, input: ReturnType<typeof files>, flush: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  let b = new SegmentBuilder();
  const write = async () => {
    const path = join(dir, `ref-${out.length}.idx`);
    await b.write(path);
    out.push(readFileSync(path));
    b = new SegmentBuilder();
  };
  for (const f of input) {
    f.docs.forEach((d, i) => b.addPooled(f.ids[i]!, d.terms));
    if (b.size > flush) await write();
  }
  if (!b.empty) await write();
  return out;
}

describe("a fold worker's segment building", () => {
  it('writes the segments it wrote when it waited for the ids, whenever the ids come', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-wbuild-'));
    const input = files(5, 300);
    const flush = 400;
    const expected = await reference(dir, input, flush);
    expect(expected.length).toBeGreaterThan(4);

    const ready: ProvisionalSegment[] = [];
    const wb = new WorkerBuilder(flush, (s) => ready.push(s));
    // The ids come a few files late, now and then two files' in the other order.
    const late: typeof input = [];
    input.forEach((f, i) => {
      wb.add(f.key, f.docs);
      late.push(f);
      if (late.length > 3) {
        const g = i % 5 === 0 ? late.splice(1, 1)[0]! : late.shift()!;
        wb.resolve(g.key, g.ids);
      }
    });
    expect(() => wb.finish()).toThrow(/never got their document ids/);
    for (const g of late) wb.resolve(g.key, g.ids);
    wb.finish();

    expect(ready.map((s) => s.seq).sort((a, b) => a - b)).toEqual(expected.map((_, i) => i));
    for (const s of ready) {
      const path = join(dir, `got-${s.seq}.idx`);
      await s.builder.write(path, s.docIds);
      s.builder.release();
      expect(Buffer.compare(readFileSync(path), expected[s.seq]!)).toBe(0);
    }
  });

  it('takes files without documents, and refuses ids for documents it never had', () => {
    const ready: ProvisionalSegment[] = [];
    const wb = new WorkerBuilder(10, (s) => ready.push(s));
    wb.add(1, []);
    wb.resolve(1, []);
    expect(() => wb.resolve(2, [7])).toThrow(/no documents here/);
    wb.finish();
    expect(ready).toEqual([]);
  });
});
