/**
 * What BM25 needs of the whole index besides the query's postings: which documents belong to a
 * session still in history, each session's length in words (its documents summed) and the mean.
 * It changes only when the index or the journal does, so the store computes it once per state of
 * both (history-store.ts) instead of walking every document on every search.
 */
import type { DocRow } from './history-index';

export interface CorpusStats {
  /** Per document id: the index of its session in `sessions` when it is in history (not deleted), else -1. */
  sessionOf: Int32Array;
  /** Live sessions with documents, in order of their first document; `indexOf` is the reverse. */
  sessions: readonly string[];
  indexOf: ReadonlyMap<string, number>;
  /** Words per session in history (its documents summed), by session index. */
  lengthOf: Float64Array;
  /** Mean session length (1 when there are none). */
  avgdl: number;
  /** Sessions in history. */
  liveCount: number;
}

export function corpusStats(docs: readonly DocRow[], live: (sessionId: string) => boolean, liveCount: number): CorpusStats {
  const sessionOf = new Int32Array(docs.length).fill(-1);
  const sessions: string[] = [];
  const indexOf = new Map<string, number>();
  const lengths: number[] = [];
  let total = 0;
  for (let doc = 0; doc < docs.length; doc++) {
    const row = docs[doc];
    if (!row || !live(row[1])) continue;
    let i = indexOf.get(row[1]);
    if (i === undefined) {
      indexOf.set(row[1], (i = sessions.length));
      sessions.push(row[1]);
      lengths.push(0);
    }
    lengths[i]! += row[2];
    total += row[2];
    sessionOf[doc] = i;
  }
  return { sessionOf, sessions, indexOf, lengthOf: Float64Array.from(lengths), avgdl: sessions.length ? total / sessions.length : 1, liveCount };
}
