/**
 * Full-text search over the index segments: every word of the query must occur in the session
 * (in its text, or in its title, tags or agent name); sessions are ranked by BM25 over the words'
 * weighted counts (a word in a prompt or a path counts more than one in a tool's log). A word
 * ending in `*` matches every word it starts.
 */
import { forEachTerm, foldTerm, terms as termsOf } from './tokenize';
import { decodePostings, type SegmentReader } from './segment';
import type { CorpusStats } from './corpus-stats';

export interface QueryTerm {
  term: string;
  prefix: boolean;
}

/** Splits a query into words; `prefixLast` makes the last word a prefix (search as you type). */
export function parseQuery(query: string, prefixLast = false): QueryTerm[] {
  const out: QueryTerm[] = [];
  const words = query.split(/\s+/).filter(Boolean);
  words.forEach((word, i) => {
    const star = word.endsWith('*');
    const parts = termsOf(star ? word.replace(/\*+$/, '') : word);
    // A lone short word (one letter) is no term; as a prefix it still narrows "a*".
    if (parts.length === 0 && star) {
      const t = foldTerm(word.replace(/\*+$/, '').replace(/[^\p{L}\p{N}]/gu, ''));
      if (t) out.push({ term: t, prefix: true });
      return;
    }
    parts.forEach((term, j) => out.push({ term, prefix: j === parts.length - 1 && (star || (prefixLast && i === words.length - 1)) }));
  });
  // The same word twice counts once.
  const seen = new Set<string>();
  return out.filter((q) => {
    const key = `${q.term}${q.prefix ? '*' : ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Words of titles, tags and agent names (searchable without being in the traces). */
export function wordsOf(texts: ReadonlyArray<string | undefined>): Set<string> {
  const out = new Set<string>();
  for (const text of texts) if (text) forEachTerm(text, (t) => out.add(t));
  return out;
}

export const termMatches = (q: QueryTerm, words: ReadonlySet<string>): boolean => (q.prefix ? [...words].some((t) => t.startsWith(q.term)) : words.has(q.term));

/** Bit for a match in the title/tags/agent (beside the trace fields' bits). */
export const META_BIT = 32;
const META_WEIGHT = 6;
const PREFIX_EXPANSIONS = 200;
const K1 = 1.2;
const B = 0.75;

export interface ScoredSession {
  id: string;
  score: number;
  mask: number;
}

export interface SearchInput {
  query: QueryTerm[];
  segments: readonly SegmentReader[];
  /** Which documents are live, session lengths (corpus-stats.ts). */
  corpus: CorpusStats;
  /** Sessions whose title, tags or agent hold the word. */
  metaMatches: (q: QueryTerm) => Iterable<string>;
  filter: (sessionId: string) => boolean;
  updatedMs: (sessionId: string) => number;
}

export async function scoreSessions(input: SearchInput): Promise<ScoredSession[]> {
  if (input.query.length === 0) return [];
  const encoder = new TextEncoder();
  const { liveSession, lengths, avgdl, liveCount: n } = input.corpus;
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
      const found = q.prefix ? await seg.withPrefix(key, PREFIX_EXPANSIONS) : [await seg.lookup(key)].filter((t) => t !== undefined);
      for (const t of found) {
        decodePostings(await seg.postings(t), (doc, mask, weight) => {
          const sessionId = liveSession[doc];
          if (sessionId !== undefined) add(sessionId, weight, mask);
        });
      }
    }
    for (const id of input.metaMatches(q)) add(id, META_WEIGHT, META_BIT);
    groups.push(hits);
  }
  // Every word must match: walk the smallest group.
  const order = [...groups].sort((a, b) => a.size - b.size);
  const idfs = groups.map((g) => Math.log(1 + (n - g.size + 0.5) / (g.size + 0.5)));
  const out: Array<ScoredSession & { updated: number }> = [];
  for (const sessionId of order[0]!.keys()) {
    if (!order.every((g) => g.has(sessionId))) continue;
    if (!input.filter(sessionId)) continue;
    const dl = lengths.get(sessionId) ?? 0;
    let score = 0;
    let mask = 0;
    for (let i = 0; i < groups.length; i++) {
      const { w, mask: m } = groups[i]!.get(sessionId)!;
      score += (idfs[i]! * (w * (K1 + 1))) / (w + K1 * (1 - B + (B * dl) / avgdl));
      mask |= m;
    }
    out.push({ id: sessionId, score, mask, updated: Number.NaN });
  }
  // Equal scores are rare: when a session was updated is looked up only to break a tie.
  const updated = (s: { id: string; updated: number }) => (Number.isNaN(s.updated) ? (s.updated = input.updatedMs(s.id)) : s.updated);
  out.sort((a, b) => b.score - a.score || updated(b) - updated(a));
  return out.map(({ id, score, mask }) => ({ id, score, mask }));
}
