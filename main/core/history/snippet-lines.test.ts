import { cpSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSessions } from '../../../bench/generate-sessions';
import { HistoryStore } from './history-store';
import { parseQuery } from './search';
import { lineCannotMatch } from './snippet-lines';
import { snippetsFor } from './snippets';
import { deadAgents, header, sessionRecords, tempDataDir, testId, traceText, writeTrace } from './testing/traces';

const FIXTURES = resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces');
const T0 = Date.UTC(2026, 4, 1, 9, 0, 0);
const line = (text: string) => text;

describe('lines a snippet search passes over', () => {
  it('are only those whose text cannot hold a query word, a streamed piece or a terminal record', () => {
    const test = lineCannotMatch(parseQuery('error retry*'))!;
    expect(test(line('{"kind":"wire","msg":{"result":{"content":"all went well"}}}'))).toBe(true);
    // The word in any case, inside a longer word (the test is a superset of the word search), escaped.
    expect(test(line('{"content":"An ERROR here"}'))).toBe(false);
    expect(test(line('{"content":"no\\nerrors"}'))).toBe(false);
    expect(test(line('{"content":"retrying"}'))).toBe(false);
    expect(test(line('{"content":"\\u0065rror"}'))).toBe(false);
    // Anything not ASCII may fold to a word ("érror" is found as "error").
    expect(test(line('{"content":"érror"}'))).toBe(false);
    expect(test(line('{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"err"}}}'))).toBe(false);
    expect(test(line('{"kind":"terminal","action":"exited","output":"fine"}'))).toBe(false);
    // A query word that is not ASCII letters and digits: nothing is passed over.
    expect(lineCannotMatch(parseQuery('日本語'))).toBeUndefined();
    // Accents are folded in the query: "café" looks for "cafe", which ASCII bytes must hold.
    expect(lineCannotMatch(parseQuery('café'))!(line('{"content":"a cafe"}'))).toBe(false);
    expect(lineCannotMatch([])).toBeUndefined();
  });
});

describe('snippets with lines passed over', () => {
  it('are exactly those read from every line, on generated sessions, the fixtures and streams cut by tool calls', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-snippet-lines-');
    try {
      cpSync(FIXTURES, traces, { recursive: true });
      generateSessions({ dir: traces, count: 40, seed: 11, sizeScale: 0.3, plant: [{ session: 3, where: 'tool-output', word: 'xylophonequartz' }] });
      // A message streamed around tool calls that do not hold the word: the calls end the stream.
      const id = testId(T0, 'stream');
      const records = sessionRecords({ sessionId: id, prompt: 'look for the error', answer: 'the error is here and there', chunk: 4, tool: { title: 'Run tests', output: 'all passed '.repeat(200) } });
      const chunked = records.flatMap((r, i) => (i === records.length - 2 ? [r, { ...records[records.length - 3]!, t: 900 }] : [r]));
      writeTrace(traces, 'streamed', traceText([header('streamed', T0), ...chunked]));
      const store = await HistoryStore.open(dataDir, { alive: deadAgents, fold: { foldWorker: null } });
      const queries = ['error', 'the', 'retry timeout', 'err*', 'xylophonequartz', 'fix test', 'tool', 'a*', 'passed', 'café', 'README'];
      let compared = 0;
      let nonEmpty = 0;
      for (const q of queries) {
        const terms = parseQuery(q);
        for (const hit of (await store.search(q, { limit: 1000, snippets: 0 })).hits) {
          for (const count of [1, 2, 5]) {
            const expected = await snippetsFor(hit.entry, terms, count, { readEveryLine: true });
            expect(await snippetsFor(hit.entry, terms, count)).toEqual(expected);
            compared++;
            if (expected.length) nonEmpty++;
          }
        }
      }
      expect(compared).toBeGreaterThan(300);
      expect(nonEmpty).toBeGreaterThan(compared / 2);
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
