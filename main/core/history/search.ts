/**
 * Full-text search over the index segments: every word of the query must occur in the session
 * (in its text, or in its title, tags or agent name); sessions are ranked by BM25 over the words'
 * weighted counts (a word in a prompt or a path counts more than one in a tool's log). A word
 * ending in `*` matches every word it starts.
 */
import { forEachTerm, foldTerm, terms as termsOf } from './tokenize';
import { compareBytes, decodePostingsInto, type PostingSink, type SegmentReader, type TermInfo } from './segment';
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

/**
 * The sessions one query word matched, with their summed weights and field masks, in typed arrays by
 * session index (corpus-stats.ts); `order` lists the sessions in the order they were first met (the
 * order a Map keyed by session would iterate). Sessions without documents (a title or tag match) get
 * indices past the corpus's, shared by all words of a search (`extra`).
 */
class WordHits implements PostingSink {
  readonly order: number[] = [];
  private readonly w: Float64Array;
  private readonly mask: Int32Array;
  private readonly seen: Uint8Array;
  /** Where a session was first met: the rank of the term (in byte order) and its smallest document there. */
  private readonly firstTerm: Int32Array;
  private readonly firstDoc: Float64Array;
  private term = 0;
  private doc = 0;

  constructor(
    private readonly sessionOf: Int32Array,
    size: number,
  ) {
    this.w = new Float64Array(size);
    this.mask = new Int32Array(size);
    this.seen = new Uint8Array(size);
    this.firstTerm = new Int32Array(size);
    this.firstDoc = new Float64Array(size);
  }

  /** The postings that follow are those of the term of this rank (in byte order) in some segment. */
  termRank(rank: number): void {
    this.term = rank;
  }

  posting(doc: number, mask: number, weight: number): void {
    const s = doc < this.sessionOf.length ? this.sessionOf[doc]! : -1;
    if (s < 0) return;
    this.doc = doc;
    if (this.seen[s] === 1 && this.firstTerm[s] === this.term && doc < this.firstDoc[s]!) this.firstDoc[s] = doc;
    this.add(s, weight, mask);
  }

  /**
   * Several segments: the sessions in the order one segment holding them all would have met them
   * (term by term in byte order, by document within a term) — the order equal scores keep.
   */
  orderAsOneSegment(): void {
    const { firstTerm, firstDoc } = this;
    this.order.sort((a, b) => firstTerm[a]! - firstTerm[b]! || firstDoc[a]! - firstDoc[b]!);
  }

  add(s: number, w: number, mask: number): void {
    if (this.seen[s] === 0) {
      this.seen[s] = 1;
      this.order.push(s);
      this.firstTerm[s] = this.term;
      this.firstDoc[s] = this.doc;
      this.w[s] = w;
      this.mask[s] = mask;
    } else {
      this.w[s] = this.w[s]! + w;
      this.mask[s] = this.mask[s]! | mask;
    }
  }

  has(s: number): boolean {
    return this.seen[s] === 1;
  }

  weight(s: number): number {
    return this.w[s]!;
  }

  maskOf(s: number): number {
    return this.mask[s]!;
  }

  get size(): number {
    return this.order.length;
  }
}

export async function scoreSessions(input: SearchInput): Promise<ScoredSession[]> {
  if (input.query.length === 0) return [];
  const encoder = new TextEncoder();
  const { sessionOf, sessions, indexOf, lengthOf, avgdl, liveCount: n } = input.corpus;
  // Title, tag and agent matches first, so every session they name has an index before counting.
  const meta = input.query.map((q) => [...input.metaMatches(q)]);
  const extra: string[] = [];
  const extraIndex = new Map<string, number>();
  const indexOfId = (id: string): number => {
    let i = indexOf.get(id) ?? extraIndex.get(id);
    if (i === undefined) {
      extraIndex.set(id, (i = sessions.length + extra.length));
      extra.push(id);
    }
    return i;
  };
  const metaIndices = meta.map((ids) => ids.map(indexOfId));
  const size = sessions.length + extra.length;
  const idOf = (i: number) => (i < sessions.length ? sessions[i]! : extra[i - sessions.length]!);
  const groups: WordHits[] = [];
  for (let qi = 0; qi < input.query.length; qi++) {
    const q = input.query[qi]!;
    const hits = new WordHits(sessionOf, size);
    const key = encoder.encode(q.term);
    if (input.segments.length === 1) {
      const seg = input.segments[0]!;
      const found = q.prefix ? await seg.withPrefix(key, PREFIX_EXPANSIONS) : [await seg.lookup(key)].filter((t) => t !== undefined);
      for (const t of found) decodePostingsInto(await seg.postings(t), hits);
    } else {
      // Several segments answer as one holding them all would: a prefix's first expansions in
      // byte order over all of them (not per segment), term by term, ties met in the same order.
      const found: Array<{ seg: SegmentReader; t: TermInfo }> = [];
      for (const seg of input.segments) {
        const ts = q.prefix ? await seg.withPrefix(key, PREFIX_EXPANSIONS) : [await seg.lookup(key)].filter((t) => t !== undefined);
        for (const t of ts) found.push({ seg, t });
      }
      found.sort((a, b) => compareBytes(a.t.term, b.t.term)); // stable: segments in their order
      let rank = -1;
      for (let k = 0; k < found.length; k++) {
        if (k === 0 || compareBytes(found[k - 1]!.t.term, found[k]!.t.term) !== 0) rank++;
        if (rank >= PREFIX_EXPANSIONS) break;
        hits.termRank(rank);
        decodePostingsInto(await found[k]!.seg.postings(found[k]!.t), hits);
      }
      hits.orderAsOneSegment();
      hits.termRank(rank + 1);
    }
    for (const i of metaIndices[qi]!) hits.add(i, META_WEIGHT, META_BIT);
    groups.push(hits);
  }
  // Every word must match: walk the smallest group.
  const order = [...groups].sort((a, b) => a.size - b.size);
  const idfs = groups.map((g) => Math.log(1 + (n - g.size + 0.5) / (g.size + 0.5)));
  const out: Array<ScoredSession & { updated: number }> = [];
  for (const s of order[0]!.order) {
    let all = true;
    for (let i = 1; i < order.length; i++) if (!order[i]!.has(s)) all = false;
    if (!all) continue;
    const sessionId = idOf(s);
    if (!input.filter(sessionId)) continue;
    const dl = s < sessions.length ? lengthOf[s]! : 0;
    let score = 0;
    let mask = 0;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      const w = g.weight(s);
      score += (idfs[i]! * (w * (K1 + 1))) / (w + K1 * (1 - B + (B * dl) / avgdl));
      mask |= g.maskOf(s);
    }
    out.push({ id: sessionId, score, mask, updated: Number.NaN });
  }
  // Equal scores are rare: when a session was updated is looked up only to break a tie.
  const updated = (s: { id: string; updated: number }) => (Number.isNaN(s.updated) ? (s.updated = input.updatedMs(s.id)) : s.updated);
  out.sort((a, b) => b.score - a.score || updated(b) - updated(a));
  return out.map(({ id, score, mask }) => ({ id, score, mask }));
}
