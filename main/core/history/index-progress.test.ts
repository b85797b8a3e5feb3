import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyPaths } from './history-paths';
import { HistoryStore } from './history-store';
import { IndexProgressReporter, PROGRESS_EVERY_MS, PROGRESS_MIN_BYTES, type HistoryIndexProgress } from './index-progress';
import { deadAgents, tempDataDir } from './testing/traces';

const FIXTURES = resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces');

describe('IndexProgressReporter', () => {
  it('reports a small catch-up not at all, a rebuild or a big one at the start, as it goes (throttled) and at the end', () => {
    const seen: HistoryIndexProgress[] = [];
    expect(IndexProgressReporter.maybe((p) => seen.push(p), { traces: 3, bytes: PROGRESS_MIN_BYTES - 1 }, false)).toBeUndefined();
    expect(IndexProgressReporter.maybe((p) => seen.push(p), { traces: 0, bytes: 0 }, true)).toBeUndefined();
    let clock = 1000;
    const r = IndexProgressReporter.maybe((p) => seen.push(p), { traces: 3, bytes: PROGRESS_MIN_BYTES }, false, () => clock)!;
    expect(seen).toEqual([{ rebuilding: false, tracesDone: 0, tracesTotal: 3, bytesDone: 0, bytesTotal: PROGRESS_MIN_BYTES, elapsedMs: 0, writing: false, done: false }]);
    r.file(100);
    expect(seen).toHaveLength(1); // too soon after the last report
    clock += PROGRESS_EVERY_MS;
    r.file(200);
    expect(seen[1]).toMatchObject({ tracesDone: 2, bytesDone: 300, elapsedMs: PROGRESS_EVERY_MS, done: false });
    r.file(PROGRESS_MIN_BYTES); // a trace that grew while read: never more than the total
    r.writing(); // every trace read: saving, whatever the time since the last report
    r.writing();
    expect(seen).toHaveLength(3);
    expect(seen[2]).toMatchObject({ tracesDone: 3, bytesDone: PROGRESS_MIN_BYTES, writing: true, done: false });
    clock += 5;
    r.finish();
    r.finish();
    expect(seen).toHaveLength(4);
    expect(seen[3]).toMatchObject({ tracesDone: 3, bytesDone: PROGRESS_MIN_BYTES, elapsedMs: PROGRESS_EVERY_MS + 5, writing: false, done: true });
  });

  it('a listener that throws does not stop the catch-up', () => {
    const r = IndexProgressReporter.maybe(() => {
      throw new Error('window gone');
    }, { traces: 1, bytes: 1 }, true);
    expect(() => {
      r!.file(1);
      r!.finish();
    }).not.toThrow();
  });
});

describe('the history store reports a rebuild', () => {
  it('from the first trace to the last, in order, done once at the end with every trace and byte read', async () => {
    const { dataDir, traces } = tempDataDir();
    cpSync(FIXTURES, traces, { recursive: true });
    const seen: HistoryIndexProgress[] = [];
    const indexFile = historyPaths(dataDir).index;
    // What a window or the CLI may do on "done": open the index in another process. It must be saved by then.
    const savedWhen: boolean[] = [];
    const store = await HistoryStore.open(dataDir, {
      alive: deadAgents,
      onProgress: (p) => {
        seen.push(p);
        savedWhen.push(existsSync(indexFile));
      },
    });
    try {
      // No index yet: the first look is a rebuild, whatever its size.
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen[0]).toMatchObject({ rebuilding: true, tracesDone: 0, done: false });
      const last = seen[seen.length - 1]!;
      expect(seen.filter((p) => p.done)).toEqual([last]);
      // Reading, then saving (bar full, the index not yet on disk), then done with the index saved.
      const saving = seen.findIndex((p) => p.writing);
      expect(saving).toBe(seen.length - 2);
      expect(seen[saving]).toMatchObject({ tracesDone: last.tracesTotal, done: false });
      expect(savedWhen[saving]).toBe(false);
      expect(savedWhen[seen.length - 1]).toBe(true);
      expect(last.tracesDone).toBe(last.tracesTotal);
      expect(last.tracesTotal).toBe(store.lastRefresh.tracesRead);
      expect(last.bytesDone).toBe(store.lastRefresh.bytesRead);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.tracesDone).toBeGreaterThanOrEqual(seen[i - 1]!.tracesDone);

      // A small catch-up afterwards: nothing to show.
      seen.length = 0;
      writeFileSync(join(traces, 'empty.jsonl'), '');
      await store.refresh();
      expect(seen).toEqual([]);
      // An explicit rebuild: reported again.
      await store.rebuild('asked for');
      expect(seen[0]).toMatchObject({ rebuilding: true, done: false });
      expect(seen[seen.length - 1]).toMatchObject({ done: true });
    } finally {
      await store.close();
    }
  });
});
