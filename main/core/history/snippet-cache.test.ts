import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from './history-store';
import type { HistoryEntry, Snippet } from './history-types';
import { parseQuery } from './search';
import { SnippetCache, snippetKey } from './snippet-cache';
import { deadAgents, header, sessionRecords, tempDataDir, testId, traceText, writeTrace } from './testing/traces';

const T0 = Date.UTC(2026, 4, 1, 9, 0, 0);
const snippet = (text: string): Snippet[] => [{ field: 'tool', text, highlights: [[0, 2]] }];
const entry = (over: Partial<HistoryEntry> = {}): HistoryEntry =>
  ({
    id: 'S1',
    agentSessionId: 'a1',
    title: 'hello',
    traces: [{ path: '/d/traces/c.jsonl', connectionId: 'c', firstOffset: 10, lastOffset: 500, firstLine: 2, lastLine: 9 }],
    ...over,
  }) as HistoryEntry;
const stamp = () => '7:100';

describe('the snippet cache', () => {
  it('keeps the most recently used results up to its bound', () => {
    const cache = new SnippetCache(2);
    cache.set('a', snippet('A'));
    cache.set('b', snippet('B'));
    expect(cache.get('a')).toEqual(snippet('A'));
    cache.set('c', snippet('C'));
    // "b" was the least recently used.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(snippet('A'));
    expect(cache.get('c')).toEqual(snippet('C'));
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });

  it('hands out copies, and does not keep results with long snippets', () => {
    const cache = new SnippetCache();
    const mine = snippet('kept');
    cache.set('k', mine);
    mine[0]!.highlights[0]![1] = 99;
    const got = cache.get('k')!;
    got[0]!.text = 'changed';
    got[0]!.highlights.push([3, 4]);
    expect(cache.get('k')).toEqual(snippet('kept'));
    cache.set('long', snippet('x'.repeat(20_000)));
    expect(cache.get('long')).toBeUndefined();
  });

  it('has a key that changes with everything the snippets depend on', () => {
    const q = parseQuery('error');
    const base = snippetKey(entry(), q, 2, stamp);
    expect(snippetKey(entry(), parseQuery('error'), 2, stamp)).toBe(base);
    const trace = entry().traces[0]!;
    const others = [
      snippetKey(entry(), parseQuery('errors'), 2, stamp),
      snippetKey(entry(), parseQuery('error*'), 2, stamp),
      snippetKey(entry(), q, 3, stamp),
      snippetKey(entry({ id: 'S2' }), q, 2, stamp),
      snippetKey(entry({ agentSessionId: 'a2' }), q, 2, stamp),
      snippetKey(entry({ title: 'renamed', userTitle: 'renamed' }), q, 2, stamp),
      snippetKey(entry({ agentTitle: 'hello' }), q, 2, stamp),
      snippetKey(entry({ traces: [{ ...trace, lastOffset: 900, lastLine: 12 }] }), q, 2, stamp),
      snippetKey(entry({ traces: [{ ...trace, firstOffset: 0 }] }), q, 2, stamp),
      snippetKey(entry({ traces: [trace, { ...trace, path: '/d/traces/d.jsonl' }] }), q, 2, stamp),
      snippetKey(entry(), q, 2, () => '8:100'),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });
});

describe('snippets of a repeated search', () => {
  it('come from the cache while the session is unchanged, and are read again once its trace grows', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-snippet-cache-');
    try {
      const id = testId(T0, 'cache');
      const records = sessionRecords({ sessionId: id, prompt: 'where is the wombat', tool: { title: 'Run', output: 'the wombat sleeps' } });
      const path = writeTrace(traces, 'live', traceText([header('live', T0), { kind: 'spawn', t: 1, pid: 999999 }, ...records]));
      const store = await HistoryStore.open(dataDir, { alive: deadAgents, fold: { foldWorker: null } });
      const first = (await store.search('wombat', { refresh: false })).hits[0]!.snippets;
      expect(first.map((s) => s.text)).toEqual(['where is the wombat', 'the wombat sleeps']);

      // The trace moved away: a search that read it again would find no passage.
      renameSync(path, `${path}.away`);
      expect((await store.search('wombat', { refresh: false })).hits[0]!.snippets).toEqual(first);
      // Asked for another number of snippets: not the same result, read again (nothing there now).
      expect((await store.search('wombat', { refresh: false, snippets: 1 })).hits[0]!.snippets).toEqual([]);
      renameSync(`${path}.away`, path);

      // The session goes on in the same trace: its range grows, and the new passage is found.
      const a = `agent-${id.slice(-6)}`;
      appendFileSync(
        path,
        traceText([
          { kind: 'wire', t: 500, dir: 'out', sessionId: id, agentSessionId: a, msg: { jsonrpc: '2.0', id: 9, method: 'session/prompt', params: { sessionId: a, prompt: [{ type: 'text', text: 'wake the wombat up' }] } } },
        ]),
      );
      const grown = (await store.search('wombat', { snippets: 3 })).hits[0]!.snippets;
      // (The best passage of each field first: the prompt, the tool output, then the next prompt.)
      expect(grown.map((s) => s.text)).toEqual(['where is the wombat', 'the wombat sleeps', 'wake the wombat up']);

      // The file replaced by another one under the same name (another inode), the session's range
      // the same to the byte: read again.
      const text = readFileSync(path, 'utf8');
      expect(text.split('wake the wombat up')).toHaveLength(2);
      writeFileSync(`${path}.new`, text.replace('wake the wombat up', 'walk the wombat up'));
      renameSync(`${path}.new`, path);
      const again = (await store.search('wombat', { snippets: 3 })).hits[0]!;
      expect(again.entry.traces).toEqual(store.get(id)!.traces);
      expect(again.snippets.map((s) => s.text)).toEqual(['where is the wombat', 'the wombat sleeps', 'walk the wombat up']);
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
