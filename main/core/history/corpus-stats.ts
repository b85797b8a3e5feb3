/**
 * What BM25 needs of the whole index besides the query's postings: which documents belong to a
 * session still in history, each session's length in words (its documents summed) and the mean.
 * It changes only when the index or the journal does, so the store computes it once per state of
 * both (history-store.ts) instead of walking every document on every search.
 */
import type { DocRow } from './history-index';

export interface CorpusStats {
  /** Per document id: its session when that session is in history (not deleted), else undefined. */
  liveSession: ReadonlyArray<string | undefined>;
  /** Words per session in history, over its documents. */
  lengths: ReadonlyMap<string, number>;
  /** Mean session length (1 when there are none). */
  avgdl: number;
  /** Sessions in history. */
  liveCount: number;
}

export function corpusStats(docs: readonly DocRow[], live: (sessionId: string) => boolean, liveCount: number): CorpusStats {
  const liveSession = new Array<string | undefined>(docs.length);
  const lengths = new Map<string, number>();
  let total = 0;
  for (let doc = 0; doc < docs.length; doc++) {
    const row = docs[doc];
    if (!row || !live(row[1])) continue;
    liveSession[doc] = row[1];
    lengths.set(row[1], (lengths.get(row[1]) ?? 0) + row[2]);
    total += row[2];
  }
  return { liveSession, lengths, avgdl: lengths.size ? total / lengths.size : 1, liveCount };
}
