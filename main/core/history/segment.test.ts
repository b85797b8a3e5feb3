import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChunkPool } from './arena-chunks';
import { pooledTerms } from './pooled-terms';
import { TermCounter } from './term-counter';
import { compareTerms, decodePostings, mergeSegments, SegmentBuilder, SegmentCorrupt, SegmentReader, type Posting } from './segment';

const dir = mkdtempSync(join(tmpdir(), 'acpwb-seg-'));
const enc = (s: string) => new TextEncoder().encode(s);
const doc = (entries: Record<string, [number, number]>) => new Map(Object.entries(entries));

async function postings(r: SegmentReader, term: string): Promise<Posting[]> {
  const t = await r.lookup(enc(term));
  if (!t) return [];
  const out: Posting[] = [];
  decodePostings(await r.postings(t), (d, mask, weight) => out.push({ doc: d, mask, weight }));
  return out;
}
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

async function write(name: string, docs: Array<[number, Record<string, [number, number]>]>) {
  const b = new SegmentBuilder();
  for (const [id, terms] of docs) b.addDocument(id, doc(terms));
  const path = join(dir, name);
  return { path, info: await b.write(path) };
}

describe('index segments', () => {
  it('keep every posting of a term with many documents, added in any order (postings span many blocks)', async () => {
    const ids = Array.from({ length: 700 }, (_, i) => (i * 389) % 700); // every id once, shuffled
    const docs: Array<[number, Record<string, [number, number]>]> = ids.map((id) => {
      const terms: Record<string, [number, number]> = { common: [id + 1, 1 << id % 5] };
      for (let j = 0; j < id % 7; j++) terms[`w${j}`] = [j + 1, 2];
      return [id, terms];
    });
    const { path, info } = await write('blocks.idx', docs);
    expect(info.docs).toBe(700);
    const r = await SegmentReader.open(path, info.bytes);
    expect(await postings(r, 'common')).toEqual(Array.from({ length: 700 }, (_, id) => ({ doc: id, mask: 1 << id % 5, weight: id + 1 })));
    const w5 = Array.from({ length: 700 }, (_, id) => id).filter((id) => id % 7 > 5);
    expect(await postings(r, 'w5')).toEqual(w5.map((id) => ({ doc: id, mask: 2, weight: 6 })));
    await r.close();
  });

  it('store each term’s documents, fields and weights, found by exact term and by prefix', async () => {
    const { path, info } = await write('a.idx', [
      [0, { apple: [4, 1], banana: [1, 8] }],
      [3, { apple: [2, 2], 'café': [1, 1], apricot: [300, 16] }],
      [200, { banana: [70000, 4] }],
    ]);
    expect(info).toEqual({ terms: 4, docs: 3, bytes: statSync(path).size });
    const r = await SegmentReader.open(path, info.bytes);
    expect(await postings(r, 'apple')).toEqual([
      { doc: 0, mask: 1, weight: 4 },
      { doc: 3, mask: 2, weight: 2 },
    ]);
    expect(await postings(r, 'banana')).toEqual([
      { doc: 0, mask: 8, weight: 1 },
      { doc: 200, mask: 4, weight: 70000 },
    ]);
    expect(await postings(r, 'café')).toEqual([{ doc: 3, mask: 1, weight: 1 }]);
    expect(await postings(r, 'apples')).toEqual([]);
    expect((await r.withPrefix(enc('ap'), 10)).map((t) => dec(t.term))).toEqual(['apple', 'apricot']);
    expect(await r.withPrefix(enc('ap'), 1)).toHaveLength(1);
    expect(await r.withPrefix(enc('zz'), 10)).toEqual([]);
    expect(await r.withPrefix(enc('a'), 10)).toHaveLength(2);
    expect((await r.lookup(enc('banana')))!.df).toBe(2);
    expect(await r.lookup(enc('aaa'))).toBeUndefined();
    await r.close();
  });

  it('find every term among many blocks, by exact term and by prefix across block boundaries', async () => {
    const terms: Record<string, [number, number]> = {};
    for (let i = 0; i < 1000; i++) terms[`t${String(i).padStart(4, '0')}`] = [i + 1, 1];
    const { path, info } = await write('many.idx', [[7, terms]]);
    const r = await SegmentReader.open(path, info.bytes);
    for (const i of [0, 127, 128, 129, 500, 999]) expect(await postings(r, `t${String(i).padStart(4, '0')}`)).toEqual([{ doc: 7, mask: 1, weight: i + 1 }]);
    expect(await postings(r, 't1000')).toEqual([]);
    expect(await postings(r, 'a')).toEqual([]);
    expect(await postings(r, 'u')).toEqual([]);
    expect((await r.withPrefix(enc('t01'), 1000)).map((t) => dec(t.term))).toEqual(Array.from({ length: 100 }, (_, i) => `t${String(100 + i).padStart(4, '0')}`));
    expect(await r.withPrefix(enc('t'), 300)).toHaveLength(300);
    await r.close();
  });

  it('write the dictionary in byte order whatever the script, long terms through the slow encoder, too long ones left out', async () => {
    const long = 'x'.repeat(200) + 'é'; // > 85 units: encoded alone, 202 bytes: kept
    const tooLong = 'y'.repeat(100) + '中'.repeat(60); // 280 bytes: not written
    const words = ['zeta', 'z', 'éclair', 'eclair', 'ß', 'straße', '中文', '中', '\ud83d\ude00smile', 'a\ud83d\ude00', 'a\uffff', 'ab', 'abcd', 'abcde', 'abcc', long, tooLong, '0', '09', 'Ωmega'];
    const terms: Record<string, [number, number]> = {};
    words.forEach((w, i) => (terms[w] = [i + 1, 1]));
    const { path, info } = await write('scripts.idx', [[1, terms]]);
    expect(info.terms).toBe(words.length - 1);
    const r = await SegmentReader.open(path, info.bytes);
    const listed = (await r.withPrefix(new Uint8Array(0), 100)).map((t) => t.term);
    const expected = words.filter((w) => w !== tooLong).map(enc).sort((a, b) => Buffer.compare(a, b));
    expect(listed.map(dec)).toEqual(expected.map(dec));
    for (const w of words) expect(await postings(r, w)).toEqual(w === tooLong ? [] : [{ doc: 1, mask: 1, weight: words.indexOf(w) + 1 }]);
    await r.close();
  });

  it('leave a term too long out with its postings: the same bytes as a builder never given it', async () => {
    const long = 'ж'.repeat(140); // 280 bytes
    const withLong = new SegmentBuilder();
    const without = new SegmentBuilder();
    for (let d = 0; d < 5; d++) {
      const terms = ['alpha', `m${d}`, 'zulu'];
      withLong.addDocumentTerms(d, [...terms, long], [1, 2, 3, 4], [1, 1, 2, 4]);
      without.addDocumentTerms(d, terms, [1, 2, 3], [1, 1, 2]);
    }
    const a = join(dir, 'long-in.idx');
    const b = join(dir, 'long-out.idx');
    await withLong.write(a);
    await without.write(b);
    expect(Buffer.compare(readFileSync(a), readFileSync(b))).toBe(0);
  });

  it('tell terms apart by their characters when their hashes collide: the same bytes as with their own hashes', async () => {
    // Terms of equal length sharing one of three hashes: only the characters can tell them apart
    // (longer than a short key: those are found by it, with no hash).
    const vocab = Array.from({ length: 600 }, (_, i) => `term${String(i % 200).padStart(3, '0')}longer${'abc'[Math.floor(i / 200)]}`);
    const own = new SegmentBuilder();
    const colliding = new SegmentBuilder();
    for (let d = 0; d < 40; d++) {
      const terms = vocab.filter((_, i) => (i * 7 + d) % 5 === 0);
      const weights = terms.map((_, j) => 1 + ((d + j) % 9));
      const masks = terms.map((_, j) => 1 << (j % 5));
      own.addDocumentTerms(d, terms, weights, masks);
      colliding.addPooled(d, pooledTerms(terms, weights, masks, terms.map((t) => t.charCodeAt(13) % 3)));
    }
    const a = join(dir, 'hash-own.idx');
    const b = join(dir, 'hash-colliding.idx');
    const info = await own.write(a);
    expect(await colliding.write(b)).toEqual(info);
    expect(info.terms).toBe(vocab.length);
    expect(Buffer.compare(readFileSync(a), readFileSync(b))).toBe(0);
  });

  it('find short terms by their key, given with the terms (a counter’s) or not (strings): the same bytes', async () => {
    const words = ['cafe', 'café', 'CAFÉ', 'abcdefghij', 'abcdefghijk', '0123456789', 'x1', 'z9', 'naïve', 'über', 'ℍℍ', 'read_text_file', 'a'.repeat(40), 'zz', 'Straße'];
    const plain = new SegmentBuilder();
    const mixed = new SegmentBuilder();
    let keyed = 0;
    for (let d = 0; d < 60; d++) {
      const text = words.filter((_, i) => (i * 5 + d) % 3 !== 0).join(d % 2 ? ' ' : '\n');
      const counter = new TermCounter();
      // Counted from a string, or from a JSON string's bytes (both give keys).
      if (d % 4 === 0) counter.add(text, 1 + (d % 3), 1 << d % 5);
      else {
        const bytes = Buffer.from(JSON.stringify(text), 'utf8');
        counter.addJson(bytes, 1, bytes.length - 1, 1 + (d % 3), 1 << d % 5);
      }
      keyed += Array.from(counter.keys).filter((k) => k > 0).length;
      plain.addDocumentTerms(d, counter.terms, counter.weights, counter.masks);
      if (d % 3 === 0) mixed.addDocumentTerms(d, counter.terms, counter.weights, counter.masks);
      else mixed.addPooled(d, counter);
    }
    expect(keyed).toBeGreaterThan(200);
    const a = join(dir, 'keys-plain.idx');
    const b = join(dir, 'keys-mixed.idx');
    const info = await plain.write(a);
    expect(await mixed.write(b)).toEqual(info);
    expect(Buffer.compare(readFileSync(a), readFileSync(b))).toBe(0);
    const r = await SegmentReader.open(a, info.bytes);
    expect((await r.withPrefix(new Uint8Array(0), 100)).map((t) => dec(t.term))).toEqual(['0123456789', 'HH', 'a'.repeat(40), 'abcdefghij', 'abcdefghijk', 'cafe', 'file', 'naive', 'read', 'straße', 'text', 'uber', 'x1', 'z9', 'zz']);
    await r.close();
  });

  it('write terms with a lone surrogate (never the tokenizer’s) as TextEncoder does, in compareTerms order', async () => {
    const words = ['b', '\ud83dz', 'a', '\ude00', '\uffff', 'é', 'a\ud83d\ude00'];
    const terms: Record<string, [number, number]> = {};
    words.forEach((w, i) => (terms[w] = [i + 1, 1]));
    const { path, info } = await write('lone.idx', [[3, terms]]);
    const r = await SegmentReader.open(path, info.bytes);
    const listed = (await r.withPrefix(new Uint8Array(0), 100)).map((t) => Array.from(t.term));
    expect(listed).toEqual([...words].sort(compareTerms).map((w) => Array.from(enc(w))));
    await r.close();
  });

  it('take documents in any order, each once', async () => {
    const b = new SegmentBuilder();
    b.addDocument(5, doc({ a: [1, 1] }));
    b.addDocument(2, doc({ a: [2, 2], b: [1, 1] }));
    expect(() => b.addDocument(5, doc({ b: [1, 1] }))).toThrow(/added twice/);
    const path = join(dir, 'order.idx');
    const info = await b.write(path);
    const r = await SegmentReader.open(path, info.bytes);
    expect(await postings(r, 'a')).toEqual([
      { doc: 2, mask: 2, weight: 2 },
      { doc: 5, mask: 1, weight: 1 },
    ]);
    await r.close();
  });

  it('keep postings whose log fills several arena chunks, on fresh chunks or on chunks a written builder gave back', async () => {
    // 4,000 documents: "common", and 30 terms each shares with one other document (d and d + 2,000):
    // 124 K postings, ≈ 500 K ints of log (2 chunks).
    const docs = Array.from({ length: 4_000 }, (_, d) => {
      const terms = ['common', ...Array.from({ length: 30 }, (_, j) => `p${d % 2_000}t${j}`)];
      return { d, terms, weights: terms.map((_, j) => 1 + ((d + j) % 97)), masks: terms.map((_, j) => 1 << (j % 5)) };
    });
    const fill = (b: SegmentBuilder, order: number[]) => {
      for (const i of order) b.addDocumentTerms(docs[i]!.d, docs[i]!.terms, docs[i]!.weights, docs[i]!.masks);
    };
    const forward = docs.map((_, i) => i);
    const pool = new ChunkPool();
    // Chunks full of another builder's postings, given back once it is written.
    const junk = new SegmentBuilder(pool);
    fill(junk, [...forward].reverse());
    await junk.write(join(dir, 'chunks-junk.idx'));
    junk.release();
    expect(pool.size).toBeGreaterThanOrEqual(2);
    expect(() => junk.addDocumentTerms(9_999, ['x'], [1], [1])).toThrow(/released/);

    const reused = new SegmentBuilder(pool);
    fill(reused, forward);
    const fresh = new SegmentBuilder();
    fill(fresh, forward);
    const a = join(dir, 'chunks-reused.idx');
    const b = join(dir, 'chunks-fresh.idx');
    const info = await reused.write(a);
    await fresh.write(b);
    expect(info).toMatchObject({ terms: 1 + 2_000 * 30, docs: 4_000 });
    expect(Buffer.compare(readFileSync(a), readFileSync(b))).toBe(0);
    // Every term's postings, read back in one pass over the dictionary (in memory).
    const r = await SegmentReader.open(a, info.bytes, true);
    const got = new Map<string, Posting[]>();
    const cursor = r.termCursor();
    while (cursor.next()) {
      const list: Posting[] = [];
      decodePostings(r.postingsAt(cursor), (d, mask, weight) => list.push({ doc: d, mask, weight }));
      got.set(dec(cursor.term), list);
    }
    await r.close();
    expect(got.get('common')).toEqual(docs.map(({ d }) => ({ doc: d, mask: 1, weight: 1 + (d % 97) })));
    for (let p = 0; p < 2_000; p++) {
      for (let j = 1; j <= 30; j++) {
        const pair = [p, p + 2_000].map((d) => ({ doc: d, mask: 1 << (j % 5), weight: 1 + ((d + j) % 97) }));
        expect(got.get(`p${p}t${j - 1}`)).toEqual(pair);
      }
    }
  });

  it('write postings added under provisional numbers as the documents the map names', async () => {
    const ids = [40, 7, 12, 3]; // not in order: a catch-up may give a file an old session's id
    const provisional = new SegmentBuilder();
    const direct = new SegmentBuilder();
    ids.forEach((id, n) => {
      const terms = ['all', `only${n}`, ...(n % 2 ? ['odd'] : [])];
      const weights = terms.map((_, j) => n + j + 1);
      const masks = terms.map(() => 1 << n);
      provisional.addDocumentTerms(n, terms, weights, masks);
      direct.addDocumentTerms(id, terms, weights, masks);
    });
    const a = join(dir, 'provisional.idx');
    const b = join(dir, 'direct.idx');
    await provisional.write(a, Int32Array.from(ids));
    await direct.write(b);
    expect(Buffer.compare(readFileSync(a), readFileSync(b))).toBe(0);
  });

  it('write each term’s postings in document order when the log spans chunks and the ids reverse the order added', async () => {
    // 3,000 documents of 50 terms from 200: 150 K postings, ≈ 600 K ints of log (3 chunks).
    const N = 3_000;
    const docs = Array.from({ length: N }, (_, n) => {
      const terms = Array.from({ length: 50 }, (_, j) => `v${(n * 7 + j * 13) % 200}`);
      const unique = [...new Set(terms)];
      return { terms: unique, weights: unique.map((_, j) => 1 + ((n + j) % 90)), masks: unique.map((_, j) => 1 << ((n + j) % 5)) };
    });
    const reversed = Int32Array.from({ length: N }, (_, n) => N - 1 - n);
    const provisional = new SegmentBuilder();
    const backwards = new SegmentBuilder();
    const inOrder = new SegmentBuilder();
    docs.forEach((d, n) => {
      provisional.addDocumentTerms(n, d.terms, d.weights, d.masks);
      backwards.addDocumentTerms(N - 1 - n, d.terms, d.weights, d.masks);
    });
    for (let id = 0; id < N; id++) {
      const d = docs[N - 1 - id]!;
      inOrder.addDocumentTerms(id, d.terms, d.weights, d.masks);
    }
    const paths = ['log-provisional.idx', 'log-backwards.idx', 'log-in-order.idx'].map((n) => join(dir, n));
    const info = await provisional.write(paths[0]!, reversed);
    await backwards.write(paths[1]!);
    await inOrder.write(paths[2]!);
    expect(info).toMatchObject({ terms: 200, docs: N });
    for (const p of paths.slice(1)) expect(Buffer.compare(readFileSync(paths[0]!), readFileSync(p)), p).toBe(0);
    const r = await SegmentReader.open(paths[2]!, info.bytes);
    const v7 = await postings(r, 'v7');
    expect(v7.length).toBeGreaterThan(100);
    expect(v7.every((p, i) => i === 0 || p.doc > v7[i - 1]!.doc)).toBe(true);
    await r.close();
  });

  it('merge into one, summing a document found in several and dropping dead ones', async () => {
    const a = await write('m1.idx', [
      [1, { cat: [1, 1], dog: [2, 2] }],
      [2, { cat: [5, 1] }],
    ]);
    const b = await write('m2.idx', [
      [1, { cat: [3, 8], emu: [1, 1] }],
      [4, { dog: [1, 1] }],
    ]);
    const out = join(dir, 'merged.idx');
    const info = await mergeSegments(
      [a, b].map((s) => ({ path: s.path, bytes: s.info.bytes })),
      (d) => d !== 2,
      out,
    );
    const r = await SegmentReader.open(out, info.bytes);
    expect(await postings(r, 'cat')).toEqual([{ doc: 1, mask: 9, weight: 4 }]);
    expect(await postings(r, 'dog')).toEqual([
      { doc: 1, mask: 2, weight: 2 },
      { doc: 4, mask: 1, weight: 1 },
    ]);
    expect(await postings(r, 'emu')).toEqual([{ doc: 1, mask: 1, weight: 1 }]);
    expect(info).toMatchObject({ terms: 3, docs: 2 });
    await r.close();
  });

  for (const inputs of [3, 14]) {
    it(`merge ${inputs} segments to the same bytes as one builder given the live documents, their parts summed`, async () => {
      let x = 11 + inputs;
      const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
      const vocab = Array.from({ length: 400 }, (_, i) => `w${(i * 7919) % 1000}${i % 3 === 0 ? 'é' : ''}`);
      // Documents 0..299, some split over several segments (a session that grew).
      const parts: Array<Array<[number, Record<string, [number, number]>]>> = Array.from({ length: inputs }, () => []);
      const whole = new Map<number, Record<string, [number, number]>>();
      for (let id = 0; id < 300; id++) {
        const segs = parts.map((_, s) => s).filter((s) => s === id % inputs || rnd() < 0.2);
        for (const s of segs) {
          const terms: Record<string, [number, number]> = {};
          const n = 1 + Math.floor(rnd() * 30);
          for (let i = 0; i < n; i++) terms[vocab[Math.floor(vocab.length * rnd() ** 2)]!] = [1 + Math.floor(rnd() * 1000), 1 << Math.floor(rnd() * 5)];
          parts[s]!.push([id, terms]);
          const sum = whole.get(id) ?? {};
          for (const [t, [w, m]] of Object.entries(terms)) sum[t] = sum[t] ? [sum[t]![0] + w, sum[t]![1] | m] : [w, m];
          whole.set(id, sum);
        }
      }
      const live = (d: number) => d % 5 !== 2;
      const segs = await Promise.all(parts.map((docs, i) => write(`mix${inputs}-${i}.idx`, docs.reverse())));
      const out = join(dir, `mix${inputs}-merged.idx`);
      const info = await mergeSegments(segs.map((s) => ({ path: s.path, bytes: s.info.bytes })), live, out);
      const expected = await write(`mix${inputs}-expected.idx`, [...whole].filter(([id]) => live(id)));
      expect(info).toEqual(expected.info);
      expect(Buffer.compare(readFileSync(out), readFileSync(expected.path))).toBe(0);
    });
  }

  it('merge a fold worker’s segments (documents in order, each in one segment, all live) to the bytes of one builder', async () => {
    // 14 segments of consecutive documents, as a worker writes them, and terms that start and end
    // in every segment (the merge's order of terms: the byte order of all of them).
    const vocab = Array.from({ length: 3000 }, (_, i) => `t${(i * 7919) % 3000}${i % 7 === 0 ? 'ü' : ''}`);
    const all: Array<[number, Record<string, [number, number]>]> = [];
    const segs = [];
    for (let s = 0; s < 14; s++) {
      const docs: Array<[number, Record<string, [number, number]>]> = [];
      for (let d = 0; d < 20; d++) {
        const id = s * 20 + d;
        const terms: Record<string, [number, number]> = {};
        for (let i = 0; i < 60; i++) terms[vocab[(id * 37 + i * i * 11) % (200 + 200 * s)]!] = [1 + ((id + i) % 50), 1 << (i % 5)];
        docs.push([id, terms]);
      }
      all.push(...docs);
      segs.push(await write(`worker-${s}.idx`, docs));
    }
    const out = join(dir, 'worker-merged.idx');
    const info = await mergeSegments(segs.map((s) => ({ path: s.path, bytes: s.info.bytes })), () => true, out);
    const expected = await write('worker-expected.idx', all);
    expect(info).toEqual(expected.info);
    expect(Buffer.compare(readFileSync(out), readFileSync(expected.path))).toBe(0);
  });

  it('are refused when damaged', async () => {
    const { path, info } = await write('bad.idx', [[0, { x: [1, 1] }]]);
    await expect(SegmentReader.open(path, info.bytes + 1)).rejects.toThrow(SegmentCorrupt);
    const bytes = readFileSync(path);
    bytes[0] = 0x5a;
    writeFileSync(path, bytes);
    await expect(SegmentReader.open(path, info.bytes)).rejects.toThrow(/not a segment file/);
    expect(() => decodePostings(new Uint8Array([0x81]), () => undefined)).toThrow(/middle of a number/);
    expect(() => decodePostings(new Uint8Array([0x01]), () => undefined)).toThrow(/middle of a value/);
  });
});
