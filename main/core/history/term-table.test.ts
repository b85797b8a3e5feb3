import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSessions } from '../../../bench/generate-sessions';
import { SegmentBuilder } from './segment';
import { TermCounter } from './term-counter';
import { hashTerm, TermTable } from './term-table';

/** Documents of every kind of text: generated sessions' lines (JSON, escapes, accents) and hand-made ones. */
function documents(): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-term-table-'));
  try {
    generateSessions({ dir, count: 30, seed: 11, sizeScale: 0.15 });
    const docs: string[][] = [];
    for (const name of readdirSync(dir).sort()) {
      const lines = readFileSync(join(dir, name), 'utf8').split('\n');
      // Several documents per trace, of three lines each: many documents share most of their terms.
      for (let i = 0; i < lines.length; i += 3) docs.push(lines.slice(i, i + 3));
    }
    docs.push(['Hello HELLO hello café CAFÉ naïve Ünïcödé 東京 ﬁle ǅemal', 'x y zz ' + 'a'.repeat(40) + ' ' + 'b'.repeat(41)], [''], ['HELLO Straße e\u0301 ⅷ 123']);
    return docs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function count(texts: string[], table?: TermTable): TermCounter {
  const c = new TermCounter(table);
  texts.forEach((t, k) => c.add(t, (k % 4) + 1, 1 << k % 5));
  return c;
}

describe('a term table shared by many documents', () => {
  const docs = documents();

  it('gives each document the terms, weights, masks and hashes of a counter of its own, and one id per term', () => {
    expect(docs.length).toBeGreaterThan(200);
    const table = new TermTable();
    for (const texts of docs) {
      const own = count(texts);
      const shared = count(texts, table);
      expect(shared.terms).toEqual(own.terms);
      expect(Array.from(shared.weights)).toEqual(Array.from(own.weights));
      expect(Array.from(shared.masks)).toEqual(Array.from(own.masks));
      expect(Array.from(shared.hashes)).toEqual(Array.from(own.hashes));
      expect(shared.words).toBe(own.words);
      // The ids name those terms in the table, and the table holds each term once.
      expect(Array.from(shared.ids, (id) => table.terms[id])).toEqual(own.terms);
      for (const t of own.terms.slice(0, 50)) expect(shared.get(t)).toEqual(own.get(t));
    }
    expect(new Set(table.terms).size).toBe(table.size);
    for (let id = 0; id < table.size; id += 97) {
      expect(table.find(table.terms[id]!)).toBe(id);
      expect(table.hashes[id]).toBe(hashTerm(table.terms[id]!));
    }
    expect(table.find('nothere')).toBe(-1);
  });

  it('lets a segment builder take ids — its own table’s, or another’s after a switch — and write the bytes it writes from strings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-term-table-seg-'));
    try {
      // As a fold worker does: documents are counted in the current table and added to the builder
      // a little later; at a flush a new table and builder start, so documents counted before it and
      // added after it carry the old table. Each builder has a twin given the same documents as strings.
      let table = new TermTable();
      const builders: Array<[SegmentBuilder, SegmentBuilder]> = [[new SegmentBuilder(table), new SegmentBuilder()]];
      const waiting: Array<[number, TermCounter, TermCounter]> = [];
      let foreign = 0;
      const addWaiting = (keep: number) => {
        while (waiting.length > keep) {
          const [doc, shared, own] = waiting.shift()!;
          if (shared.size === 0) continue;
          const [byIds, byStrings] = builders.at(-1)!;
          if (shared.shared !== byIds.table) foreign++;
          byIds.addDocumentIds(doc, shared.shared!, shared.ids, shared.weights, shared.masks);
          byStrings.addDocumentTerms(doc, own.terms, own.weights, own.masks, own.hashes);
        }
      };
      docs.forEach((texts, doc) => {
        waiting.push([doc, count(texts, table), count(texts)]);
        if (doc % 40 === 39) {
          table = new TermTable();
          builders.push([new SegmentBuilder(table), new SegmentBuilder()]);
        }
        addWaiting(doc % 5);
      });
      addWaiting(0);
      expect(foreign).toBeGreaterThan(10);
      let written = 0;
      for (const [k, [byIds, byStrings]] of builders.entries()) {
        if (byStrings.empty) continue;
        const a = await byIds.write(join(dir, `ids-${k}.idx`));
        const b = await byStrings.write(join(dir, `strings-${k}.idx`));
        expect(a).toEqual(b);
        expect(readFileSync(join(dir, `ids-${k}.idx`)).equals(readFileSync(join(dir, `strings-${k}.idx`)))).toBe(true);
        written++;
      }
      expect(written).toBeGreaterThan(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
