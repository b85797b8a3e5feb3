/**
 * A rebuild folded in worker threads (fold-pool.ts, the built dist/workers/history-fold.cjs)
 * against the reference, inline one: the same entries, the same documents and word counts in the
 * snapshot, and the same search results and scores — only the segments are laid out differently
 * (one per worker). Also: a catch-up that reads on from where the parallel rebuild stopped.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFiles, type FileColumns } from './file-columns';
import { HistoryStore } from './history-store';
import { deadAgents, sessionTrace, tempDataDir, writeTrace } from './testing/traces';

const ROOT = resolve(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'e2e', 'fixtures', 'traces');
const WORKER = join(ROOT, 'dist', 'workers', 'history-fold.cjs');
const T0 = Date.UTC(2026, 4, 1, 9, 0, 0);
const QUERIES = ['the', 'readme', 'fix typo', 'lic*', 'error', 'zebra'];

/** The recorded fixtures plus generated traces, so there are many files for two workers to share. */
function corpus(): string {
  const { dataDir, traces } = tempDataDir('acpwb-parallel-');
  cpSync(FIXTURES, traces, { recursive: true });
  for (let i = 0; i < 40; i++) {
    const words = i % 7 === 0 ? 'a zebra crossing' : 'an ordinary day';
    writeTrace(traces, `gen-${String(i).padStart(3, '0')}`, sessionTrace(`gen-${i}`, T0 + i * 60_000, [{ sessionId: `GEN${i}`, prompt: `fix the error number ${i} on ${words}`, answer: `I fixed error ${i}: ${words}.`, chunk: 5, tool: { title: `Edit file${i}.ts`, output: `error ${i} gone` } }]));
  }
  return dataDir;
}

async function view(store: HistoryStore) {
  const searches = [];
  for (const q of QUERIES) searches.push((await store.search(q, { limit: 100 })).hits.map((h) => [h.entry.id, h.score, h.fields, h.snippets]));
  const snapshot = JSON.parse(readFileSync(store.paths.index, 'utf8')) as { files: FileColumns; docs: unknown[] };
  // Inode and mtime are the copies' own.
  const files = Object.fromEntries(Object.entries(decodeFiles(snapshot.files)).map(([name, f]) => [name, { ...f, ino: 0, mtimeMs: 0 }]));
  return { entries: store.list(), searches, files, docs: snapshot.docs };
}

/**
 * The generated corpus indexed twice: inline (the reference) and, in a copy, by 2 fold workers with
 * `fold` options added; both stores open, with their views.
 */
async function rebuildBoth(fold: { flushPostings?: number }) {
  const reference = corpus();
  const parallel = join(tempDataDir('acpwb-parallel-copy-').dataDir, 'data');
  cpSync(reference, parallel, { recursive: true });
  const inline = await HistoryStore.open(reference, { alive: deadAgents, now: () => T0 + 86_400_000, fold: { foldWorker: null } });
  const expected = await view(inline);
  const threaded = await HistoryStore.open(parallel, { alive: deadAgents, now: () => T0 + 86_400_000, fold: { foldWorker: WORKER, foldWorkers: 2, parallelFoldBytes: 0, ...fold } });
  const got = await view(threaded);
  return { reference, parallel, inline, threaded, expected, got };
}

/** Entries, documents, files and search results are the reference's (paths aside). */
function expectSameView(got: Awaited<ReturnType<typeof view>>, expected: Awaited<ReturnType<typeof view>>, parallel: string, reference: string) {
  expect(JSON.parse(JSON.stringify(got.entries).split(parallel).join(reference))).toEqual(expected.entries);
  expect(got.docs).toEqual(expected.docs);
  expect(got.files).toEqual(expected.files);
  expect(JSON.parse(JSON.stringify(got.searches).split(parallel).join(reference))).toEqual(expected.searches);
}

describe('parallel rebuild of the history index', () => {
  it('gives the same index and search results as the inline rebuild', async () => {
    const { reference, parallel, inline, threaded, expected, got } = await rebuildBoth({});

    // The parallel path really ran: one segment per worker.
    expect(readdirSync(join(parallel, 'history', 'segments')).filter((n) => /-w[01]-\d+\.idx$/.test(n)).length).toBe(2);
    expect(readdirSync(join(reference, 'history', 'segments')).some((n) => n.includes('-w'))).toBe(false);
    expectSameView(got, expected, parallel, reference);
    expect(expected.searches[5]!.length).toBe(6); // "zebra": sessions 0, 7, 14, ... 35

    // Catching up after the parallel rebuild: a session appended to a trace is found.
    await Promise.all([inline.close(), threaded.close()]);
    const more = await HistoryStore.open(parallel, { alive: deadAgents, fold: { foldWorker: WORKER, parallelFoldBytes: 0 } });
    writeTrace(join(parallel, 'traces'), 'late', sessionTrace('late', T0 + 99 * 60_000, [{ sessionId: 'LATE', prompt: 'a quetzal arrives', answer: 'welcome' }]));
    await more.refresh();
    expect((await more.search('quetzal')).hits.map((h) => h.entry.id)).toEqual(['LATE']);
    await more.close();
  });

  it('ends with one segment per worker when each wrote several, and the same search results', async () => {
    // 2 workers, a segment every 40 postings: each worker writes several, then merges them.
    const { reference, parallel, inline, threaded, expected, got } = await rebuildBoth({ flushPostings: 40 });

    const snapshot = JSON.parse(readFileSync(threaded.paths.index, 'utf8')) as { segments: Array<{ name: string }> };
    const names = snapshot.segments.map((s) => s.name.replace(/^seg-\d+-/, ''));
    // Each worker ends with one merged segment when it wrote more than its share of the limit (3 of
    // 6); the workers pull files, so on a loaded machine one that started late may have folded only
    // a few and kept its 1–3 flushes as they are.
    for (const w of ['w0', 'w1']) {
      const own = names.filter((n) => n.startsWith(`${w}-`));
      if (own.includes(`${w}-merged.idx`)) expect(own).toEqual([`${w}-merged.idx`]);
      else expect(own.length).toBeLessThanOrEqual(3);
    }
    expect(names.some((n) => n.endsWith('-merged.idx'))).toBe(true);
    expect(names.every((n) => /^w[01]-(merged|\d+)\.idx$/.test(n))).toBe(true);
    // The workers' flushes are gone: only the two merged segments are left on disk.
    expect(readdirSync(join(parallel, 'history', 'segments')).sort()).toEqual(snapshot.segments.map((s) => s.name).sort());
    expectSameView(got, expected, parallel, reference);
    await Promise.all([inline.close(), threaded.close()]);
  });
});
