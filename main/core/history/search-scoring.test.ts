import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusStats } from './corpus-stats';
import type { DocRow } from './history-index';
import { META_BIT, parseQuery, scoreSessions, type QueryTerm, type ScoredSession } from './search';
import { decodePostings, SegmentBuilder, SegmentReader } from './segment';

const dir = mkdtempSync(join(tmpdir(), 'acpwb-scoring-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The scoring as it was before the corpus statistics and typed arrays: the reference. */
async function referenceScores(input: {
  query: QueryTerm[];
  segments: SegmentReader[];
  docs: DocRow[];
  live: (id: string) => boolean;
  liveCount: number;
  metaMatches: (q: QueryTerm) => Iterable<string>;
  filter: (id: string) => boolean;
  updatedMs: (id: string) => number;
}): Promise<ScoredSession[]> {
  const encoder = new TextEncoder();
  const groups: Array<Map<string, { w: number; mask: number }>> = [];
  for (const q of input.query) {
    const hits = new Map<string, { w: number; mask: number }>();
    const add = (sessionId: string, w: number, mask: number) => {
      const h = hits.get(sessionId);
      if (h) {
        h.w += w;
        h.mask |= mask;
      } else hits.set(sessionId, { w, mask });
    };
    const key = encoder.encode(q.term);
    for (const seg of input.segments) {
      const found = q.prefix ? await seg.withPrefix(key, 200) : [await seg.lookup(key)].filter((t) => t !== undefined);
      for (const t of found) {
        decodePostings(await seg.postings(t), (doc, mask, weight) => {
          const row = input.docs[doc];
          if (row && input.live(row[1])) add(row[1], weight, mask);
        });
      }
    }
    for (const id of input.metaMatches(q)) add(id, 6, META_BIT);
    groups.push(hits);
  }
  const order = [...groups].sort((a, b) => a.size - b.size);
  const lengths = new Map<string, number>();
  let total = 0;
  for (const row of input.docs) {
    if (!row || !input.live(row[1])) continue;
    lengths.set(row[1], (lengths.get(row[1]) ?? 0) + row[2]);
    total += row[2];
  }
  const n = input.liveCount;
  const avgdl = lengths.size ? total / lengths.size : 1;
  const out: Array<ScoredSession & { updated: number }> = [];
  for (const sessionId of order[0]!.keys()) {
    if (!order.every((g) => g.has(sessionId))) continue;
    if (!input.filter(sessionId)) continue;
    const dl = lengths.get(sessionId) ?? 0;
    let score = 0;
    let mask = 0;
    for (const g of groups) {
      const { w, mask: m } = g.get(sessionId)!;
      const idf = Math.log(1 + (n - g.size + 0.5) / (g.size + 0.5));
      score += (idf * (w * (1.2 + 1))) / (w + 1.2 * (1 - 0.75 + (0.75 * dl) / avgdl));
      mask |= m;
    }
    out.push({ id: sessionId, score, mask, updated: input.updatedMs(sessionId) });
  }
  out.sort((a, b) => b.score - a.score || b.updated - a.updated);
  return out.map(({ id, score, mask }) => ({ id, score, mask }));
}

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('scoring with corpus statistics in typed arrays', () => {
  it('ranks exactly as the Map-based scoring did: dead documents, deleted sessions, title-only matches, ties, filters, prefixes', async () => {
    const rnd = random(7);
    const words = ['error', 'errors', 'retry', 'timeout', 'cafe', 'the', 'erratic'];
    const sessions = Array.from({ length: 60 }, (_, i) => `S${String(i).padStart(3, '0')}`);
    const docs: DocRow[] = [];
    const segments: SegmentReader[] = [];
    // Three segments; a session may have documents in several (a session spanning traces).
    for (let seg = 0; seg < 3; seg++) {
      const b = new SegmentBuilder();
      for (let k = 0; k < 50; k++) {
        const session = sessions[Math.floor(rnd() * sessions.length)]!;
        const id = docs.length;
        const terms = new Map<string, [number, number]>();
        for (const w of words) if (rnd() < 0.45) terms.set(w, [1 + Math.floor(rnd() * 4), 1 << Math.floor(rnd() * 5)]);
        // Weights repeat often, so equal scores (ties) happen.
        docs.push([`f${seg}.jsonl`, session, 3 + Math.floor(rnd() * 3) * 5]);
        b.addDocument(id, terms);
      }
      const path = join(dir, `seg${seg}.idx`);
      const info = await b.write(path);
      segments.push(await SegmentReader.open(path, info.bytes));
    }
    // Some documents dead (files re-read), some sessions deleted.
    for (let i = 0; i < docs.length; i += 9) docs[i] = null;
    const deleted = new Set(sessions.filter((_, i) => i % 11 === 4));
    const live = (id: string) => !deleted.has(id);
    const liveIds = [...sessions.filter(live), 'TITLE-ONLY-1', 'TITLE-ONLY-2'];
    const updated = new Map(liveIds.map((id, i) => [id, 1_000 + (i % 5)]));
    // Title, tag or agent matches: sessions with documents and sessions without any.
    const metaMatches = (q: QueryTerm) => (q.term.startsWith('err') ? ['TITLE-ONLY-1', sessions[5]!, sessions[7]!] : q.term === 'cafe' ? ['TITLE-ONLY-2', 'TITLE-ONLY-1'] : []);
    const stats = corpusStats(docs, live, liveIds.length);
    let compared = 0;
    for (const text of ['error', 'retry timeout', 'err*', 'cafe', 'cafe error', 'the retry err*', 'nothing', 'timeout nothing', 'e*']) {
      for (const filter of [() => true, (id: string) => id.charCodeAt(id.length - 1) % 2 === 0]) {
        const query = parseQuery(text);
        const common = { query, segments, metaMatches, filter, updatedMs: (id: string) => updated.get(id)! };
        const expected = await referenceScores({ ...common, docs, live, liveCount: liveIds.length });
        expect(await scoreSessions({ ...common, corpus: stats })).toEqual(expected);
        compared += expected.length;
      }
    }
    expect(compared).toBeGreaterThan(200);
    for (const s of segments) await s.close();
  });

  it('gives the same ranking, ties included, whether the documents are in one segment or several', async () => {
    const rnd = random(11);
    // 300 words sharing a prefix (more than a prefix expands to), a few common ones; weights of 1–2,
    // every session updated at the same time: many exact ties, kept in the order they were met.
    const vocab = [...Array.from({ length: 300 }, (_, i) => `pre${String((i * 37) % 300).padStart(3, '0')}`), 'error', 'retry', 'the'];
    const sessions = Array.from({ length: 80 }, (_, i) => `S${String(i).padStart(3, '0')}`);
    const docs: DocRow[] = [];
    const terms: Array<Map<string, [number, number]>> = [];
    for (let id = 0; id < 400; id++) {
      const t = new Map<string, [number, number]>();
      for (let k = 0; k < 6; k++) t.set(vocab[Math.floor(rnd() * vocab.length)]!, [1 + Math.floor(rnd() * 2), 1]);
      if (rnd() < 0.5) t.set('error', [1, 2]);
      terms.push(t);
      docs.push([`f${id % 7}.jsonl`, sessions[Math.floor(rnd() * sessions.length)]!, 10]);
    }
    const open = async (name: string, ids: number[]) => {
      const b = new SegmentBuilder();
      for (const id of ids) b.addDocument(id, terms[id]!);
      const info = await b.write(join(dir, name));
      return SegmentReader.open(join(dir, name), info.bytes);
    };
    const all = Array.from({ length: 400 }, (_, i) => i);
    const one = [await open('one.idx', all)];
    // As two workers write them: each takes every other file's documents, in a few flushes.
    const several = [await open('w0a.idx', all.filter((i) => i % 2 === 0 && i < 200)), await open('w1.idx', all.filter((i) => i % 2 === 1)), await open('w0b.idx', all.filter((i) => i % 2 === 0 && i >= 200))];
    const live = () => true;
    const stats = corpusStats(docs, live, sessions.length);
    let ties = 0;
    for (const text of ['pre*', 'p*', 'pre1*', 'error', 'error pre2*', 'the retry', 'pre050']) {
      const common = { query: parseQuery(text), corpus: stats, metaMatches: () => [], filter: () => true, updatedMs: () => 1_000 };
      const expected = await scoreSessions({ ...common, segments: one });
      expect(await scoreSessions({ ...common, segments: several })).toEqual(expected);
      for (let i = 1; i < expected.length; i++) if (expected[i]!.score === expected[i - 1]!.score) ties++;
    }
    expect(ties).toBeGreaterThan(20);
    for (const s of [...one, ...several]) await s.close();
  });
});
