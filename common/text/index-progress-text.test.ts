import { describe, expect, it } from 'vitest';
import type { HistoryIndexProgress } from '../api/history-types';
import { describeIndexProgress, indexProgressShare } from './index-progress-text';

const p = (over: Partial<HistoryIndexProgress>): HistoryIndexProgress => ({ rebuilding: true, tracesDone: 0, tracesTotal: 0, bytesDone: 0, bytesTotal: 0, elapsedMs: 0, writing: false, done: false, ...over });

describe('describeIndexProgress', () => {
  it('says what is read, in traces and in the unit of the total', () => {
    expect(describeIndexProgress(p({ tracesDone: 3400, tracesTotal: 9804, bytesDone: 734e6, bytesTotal: 2106.4e6 }))).toBe(
      'Indexing history: 3,400 of 9,804 traces (0.7 of 2.1 GB)',
    );
    expect(describeIndexProgress(p({ rebuilding: false, tracesDone: 12, tracesTotal: 40, bytesDone: 2.5e6, bytesTotal: 240e6 }))).toBe(
      'Indexing new sessions: 12 of 40 traces (3 of 240 MB)',
    );
  });
  it('says the index is being saved once every trace is read, the bar full', () => {
    const saving = p({ writing: true, tracesDone: 9804, tracesTotal: 9804, bytesDone: 2e9, bytesTotal: 2.1e9 });
    expect(describeIndexProgress(saving)).toBe('Saving the history index: 9,804 traces read');
    expect(indexProgressShare(saving)).toBe(1);
  });
  it('says what was done, and how long it took, at the end', () => {
    expect(describeIndexProgress(p({ done: true, tracesDone: 1, tracesTotal: 1, elapsedMs: 1234 }))).toBe('Indexed 1 trace of history in 1.2 s');
    expect(describeIndexProgress(p({ rebuilding: false, done: true, tracesDone: 50, tracesTotal: 50, elapsedMs: 800 }))).toBe(
      'Indexed 50 traces of history in 0.8 s',
    );
  });
});

describe('indexProgressShare', () => {
  it('goes by bytes, else by traces, and is whole when done', () => {
    expect(indexProgressShare(p({ bytesDone: 25, bytesTotal: 100, tracesDone: 9, tracesTotal: 10 }))).toBe(0.25);
    expect(indexProgressShare(p({ tracesDone: 1, tracesTotal: 4 }))).toBe(0.25);
    expect(indexProgressShare(p({ bytesDone: 200, bytesTotal: 100 }))).toBe(1);
    expect(indexProgressShare(p({ done: true }))).toBe(1);
    expect(indexProgressShare(p({}))).toBe(0);
  });
});
