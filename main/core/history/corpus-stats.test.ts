import { appendFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusStats } from './corpus-stats';
import type { DocRow } from './history-index';
import { HistoryStore } from './history-store';
import { deadAgents, sessionTrace, tempDataDir, testId, traceText, writeTrace } from './testing/traces';

const T0 = Date.UTC(2026, 4, 1, 9, 0, 0);

describe('corpus statistics', () => {
  it('sum the documents of each live session, skip dead rows and deleted sessions, and give the mean', () => {
    const docs: DocRow[] = [['a.jsonl', 'S1', 10], null, ['b.jsonl', 'S2', 4], ['c.jsonl', 'S1', 6], ['c.jsonl', 'GONE', 100]];
    const stats = corpusStats(docs, (id) => id !== 'GONE', 2);
    expect([...stats.sessionOf]).toEqual([0, -1, 1, 0, -1]);
    expect(stats.sessions).toEqual(['S1', 'S2']);
    expect([...stats.indexOf]).toEqual([
      ['S1', 0],
      ['S2', 1],
    ]);
    expect([...stats.lengthOf]).toEqual([16, 4]);
    expect(stats.avgdl).toBe(10);
    expect(stats.liveCount).toBe(2);
  });

  it('have a mean of 1 when no session is live', () => {
    expect(corpusStats([null, ['a.jsonl', 'S1', 3]], () => false, 0)).toMatchObject({ avgdl: 1, liveCount: 0 });
  });
});

describe('scores of a store that keeps its corpus statistics', () => {
  it('are those of a store opened afresh after sessions grow and are deleted', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-corpus-stats-');
    const open = () => HistoryStore.open(dataDir, { alive: deadAgents, fold: { foldWorker: null } });
    const scores = async (store: HistoryStore) => (await store.search('wombat', { limit: 100, snippets: 0 })).hits.map((h) => [h.entry.id, h.score]);
    try {
      const ids = [0, 1, 2].map((i) => testId(T0 + i * 1000, `w${i}`));
      const paths = ids.map((id, i) => writeTrace(traces, `c${i}`, sessionTrace(`c${i}`, T0 + i * 1000, [{ sessionId: id, prompt: `the wombat ${'and more words '.repeat(i * 3)}`, answer: 'fine' }], { exit: false })));
      const store = await open();
      const before = await scores(store);
      expect(before).toHaveLength(3);
      // Session 0 grows (more words: its length changes, and so do all scores through the mean).
      const a = `agent-${ids[0]!.slice(-6)}`;
      appendFileSync(
        paths[0]!,
        traceText([{ kind: 'wire', t: 900, dir: 'out', sessionId: ids[0], agentSessionId: a, msg: { jsonrpc: '2.0', id: 9, method: 'session/prompt', params: { sessionId: a, prompt: [{ type: 'text', text: 'one more long prompt about nothing much at all '.repeat(20) }] } } }]),
      );
      const grown = await scores(store);
      expect(grown).not.toEqual(before);
      const fresh = await open();
      expect(grown).toEqual(await scores(fresh));
      await fresh.close();
      // A session deleted: fewer live sessions, another mean.
      await store.delete(ids[2]!, { force: true });
      const afterDelete = await scores(store);
      expect(afterDelete.map(([id]) => id)).not.toContain(ids[2]);
      const fresh2 = await open();
      expect(afterDelete).toEqual(await scores(fresh2));
      await fresh2.close();
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
