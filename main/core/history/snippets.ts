/**
 * Snippets for search hits: the session's records are read again (only its byte range of its
 * traces, only for the hits shown, and only until enough good passages are found), their
 * searchable text extracted exactly as for indexing, and the passage with the most query words is
 * cut out with those words marked. Texts can be megabytes of tool output: they are tested with one
 * regular expression per word, and cut into words only around the chosen place.
 */
import { isJsonObject } from '../../../common/trace/json';
import type { TraceItem } from '../../../common/trace/parse';
import type { TraceRecord } from '../../../common/trace/records';
import type { HistoryEntry, Snippet } from './history-types';
import type { QueryTerm } from './search';
import { extractSearchText, SEARCH_FIELDS, type SearchField, type TextSink } from './search-text';
import { LineSkeleton } from './line-skeleton';
import type { TraceHints } from './line-hints';
import type { RawJsonText } from './raw-json-text';
import { lineCannotMatch } from './snippet-lines';
import { ReadBuffer, readTraceTail, readTraceTailInto } from './tail-reader';
import { foldText, termSpans } from './tokenize';

const WINDOW = 180;
const BEFORE = 50;
/**
 * How far cutAround reads from `at`: its region starts WINDOW + BEFORE before, a passage starts up
 * to BEFORE before the region's first word, and a passage (WINDOW long) starts up to BEFORE before
 * the region's end (2 × WINDOW after `at`). A raw text's window this wide, whose ends are the
 * text's only where they are, gives the snippet of the whole text (cutRawSnippet).
 */
const READS_BEFORE = WINDOW + 2 * BEFORE + 1;
const READS_AFTER = 3 * WINDOW - BEFORE + 1;
/** Regex matches tried before giving up on finding an exact word in a text. */
const MAX_TRIES = 20;

const NON_ASCII = /[^\u0000-\u007f]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds a query word in raw text: whole word (or word start for a prefix), any case. */
function wordRegex(q: QueryTerm): RegExp {
  return new RegExp(`(?<![A-Za-z0-9\\u00aa-\\uffff])${escape(q.term)}${q.prefix ? '' : '(?![A-Za-z0-9\\u00aa-\\uffff])'}`, 'gi');
}

interface Matchers {
  query: readonly QueryTerm[];
  regexes: RegExp[];
}

function matchers(query: readonly QueryTerm[]): Matchers {
  return { query, regexes: query.map(wordRegex) };
}

/** Where each query word first occurs in `text` (-1: not there). Accented text is folded first. */
function firstPositions(m: Matchers, text: string): number[] {
  let folded: string | undefined;
  return m.regexes.map((re) => {
    re.lastIndex = 0;
    const hit = re.exec(text);
    if (hit) return hit.index;
    if (!NON_ASCII.test(text)) return -1;
    // "café" is found as "cafe": look in the folded text (same length for accents).
    folded ??= foldText(text);
    re.lastIndex = 0;
    const f = re.exec(folded);
    return f ? Math.min(f.index, text.length - 1) : -1;
  });
}

const matchesTerm = (q: QueryTerm, term: string) => (q.prefix ? term.startsWith(q.term) : term === q.term);

/** A snippet of `text` around `at`, with the query words marked; undefined when none is there. */
function cutAround(field: Snippet['field'], text: string, at: number, query: readonly QueryTerm[]): Snippet | undefined {
  // Words are found in a region a little wider than the window, so the window can be chosen.
  const regionStart = Math.max(0, at - BEFORE - WINDOW);
  const regionEnd = Math.min(text.length, at + 2 * WINDOW);
  const region = text.slice(regionStart, regionEnd);
  const spans: Array<[number, number]> = [];
  for (const s of termSpans(region)) if (query.some((q) => matchesTerm(q, s.term))) spans.push([s.start + regionStart, s.end + regionStart]);
  if (spans.length === 0) return undefined;
  let best = { start: 0, score: -1 };
  for (const [s] of spans) {
    const start = Math.max(0, s - BEFORE);
    const inside = new Set(spans.filter(([a, b]) => a >= start && b <= start + WINDOW).map(([a, b]) => text.slice(a, b).toLowerCase()));
    if (inside.size > best.score) best = { start, score: inside.size };
  }
  let start = best.start;
  let end = Math.min(text.length, start + WINDOW);
  // Cut at spaces where one is near, so words stay whole.
  const firstSpan = spans.find(([a]) => a >= start)![0];
  if (start > 0) {
    const sp = text.indexOf(' ', start);
    if (sp !== -1 && sp < firstSpan) start = sp + 1;
  }
  if (end < text.length) {
    const sp = text.lastIndexOf(' ', end);
    if (sp > start + WINDOW / 2) end = sp;
  }
  const pre = start > 0 ? '…' : '';
  const post = end < text.length ? '…' : '';
  // Newlines and other control characters become spaces one for one, so offsets hold.
  const body = text.slice(start, end).replace(/[\u0000-\u001f\u007f]/g, ' ');
  const highlights = spans.filter(([a, b]) => a >= start && b <= end).map(([a, b]) => [a - start + pre.length, b - start + pre.length] as [number, number]);
  return { field, text: pre + body + post, highlights };
}

/** Query words a raw text can be searched for as bytes (raw-json-text.ts): ASCII letters and digits. */
const ASCII_WORD = /^[a-z0-9]+$/;

/**
 * Where each query word is first found in a raw text, as byte offsets (same order as the decoded
 * text's), or undefined when the answer needs the decoded text: a word not found as it is in a text
 * that is not ASCII may be there once accents are folded, at a place only the whole text tells.
 */
function rawFirstPositions(m: Matchers, text: RawJsonText): number[] | undefined {
  const out: number[] = [];
  for (const q of m.query) {
    const p = text.find(q);
    if (p === -1 && !text.ascii) return undefined;
    out.push(p);
  }
  return out;
}

/** cutSnippet of a raw text: the same snippet, cut from the decoded window around each place tried. */
function cutRawSnippet(field: Snippet['field'], text: RawJsonText, query: readonly QueryTerm[]): Snippet | undefined {
  const m = matchers(query);
  const first = rawFirstPositions(m, text);
  if (first === undefined) return cutSnippet(field, text.text(), query);
  return cutRawAt(field, text, m, first);
}

/** cutRawSnippet once the words' first places (rawFirstPositions) are known. */
function cutRawAt(field: Snippet['field'], text: RawJsonText, m: Matchers, first: readonly number[]): Snippet | undefined {
  const query = m.query;
  const starts = first.filter((p) => p >= 0);
  if (starts.length === 0) return undefined;
  let at = Math.min(...starts);
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    // The window holds all cutAround reads (READS_BEFORE/AFTER): the snippet cut from the whole text.
    const w = text.window(at, READS_BEFORE, READS_AFTER);
    const s = cutAround(field, w.text, w.at, query);
    if (s) return s;
    at = Math.min(...m.query.map((q) => {
      const next = text.find(q, at + 1);
      return next === -1 ? Number.POSITIVE_INFINITY : next;
    }));
    if (!Number.isFinite(at)) break;
  }
  return undefined;
}

/** The snippet of `text` with query words marked, tried at each place a word occurs. */
export function cutSnippet(field: Snippet['field'], text: string | RawJsonText, query: readonly QueryTerm[]): Snippet | undefined {
  if (typeof text !== 'string') return cutRawSnippet(field, text, query);
  const m = matchers(query);
  const starts = firstPositions(m, text).filter((p) => p >= 0);
  if (starts.length === 0) return undefined;
  let at = Math.min(...starts);
  for (let tries = 0; tries < MAX_TRIES && at >= 0 && at < text.length; tries++) {
    const s = cutAround(field, text, at, query);
    if (s) return s;
    // A near miss (`errors` for `error` in folded text...): look further on.
    at = Math.min(...m.regexes.map((re) => {
      re.lastIndex = at + 1;
      const hit = re.exec(text);
      return hit ? hit.index : Number.POSITIVE_INFINITY;
    }));
    if (!Number.isFinite(at)) break;
  }
  return undefined;
}

type Candidate = {
  field: SearchField;
  /** Distinct query words found. */
  found: number;
  order: number;
} & (
  | { text: string }
  /**
   * A raw text's snippet, cut when the text was met: its bytes are those of a read buffer, which the
   * next read overwrites (cutSnippet gives the same whenever it is cut).
   */
  | { text?: undefined; snippet: Snippet | undefined }
);

/** Collects the texts of one session, keeping only the best few; says when it has enough. */
class SnippetCollector implements TextSink {
  private readonly open = new Map<SearchField, { stream: string; text: string }>();
  readonly best: Candidate[] = [];
  private order = 0;
  private complete = 0;
  private readonly m: Matchers;

  constructor(
    private readonly sessionId: string,
    query: readonly QueryTerm[],
    private readonly keep: number,
    /** The reader's skeleton of the line being read, whose markers stand for raw texts. */
    private readonly skeleton?: LineSkeleton,
  ) {
    this.m = matchers(query);
  }

  /** A streamed message is open (its next pieces may come): a line that ends streams matters. */
  get streaming(): boolean {
    return this.open.size > 0;
  }

  /** Enough passages holding every query word have been seen. */
  get enough(): boolean {
    return this.complete >= this.keep;
  }

  private consider(field: SearchField, text: string | RawJsonText): void {
    let candidate: Candidate;
    if (typeof text !== 'string') {
      const raw = rawFirstPositions(this.m, text);
      // A text whose answer needs its decoded string is kept as that string.
      if (raw === undefined) return this.consider(field, text.text());
      const found = raw.filter((p) => p >= 0).length;
      if (found === 0) return;
      candidate = { field, found, order: this.order, snippet: cutRawAt(field, text, this.m, raw) };
    } else {
      const found = firstPositions(this.m, text).filter((p) => p >= 0).length;
      if (found === 0) return;
      candidate = { field, found, order: this.order, text };
    }
    this.order++;
    if (candidate.found === this.m.query.length) this.complete++;
    this.best.push(candidate);
    this.best.sort((a, b) => b.found - a.found || a.order - b.order);
    if (this.best.length > this.keep * 3) this.best.length = this.keep * 3;
  }

  chunk(sessionId: string, field: SearchField, stream: string, text: string): void {
    if (sessionId !== this.sessionId) return;
    // Pieces are joined: a raw one is decoded first.
    text = this.skeleton?.resolve(text)?.text() ?? text;
    const o = this.open.get(field);
    if (o && o.stream === stream) {
      o.text += text;
      return;
    }
    if (o) this.consider(field, o.text);
    this.open.set(field, { stream, text });
  }

  text(sessionId: string, field: SearchField, text: string): void {
    if (sessionId === this.sessionId) this.consider(field, this.skeleton?.resolve(text) ?? text);
  }

  breakStreams(sessionId: string): void {
    if (sessionId !== this.sessionId) return;
    for (const [field, o] of this.open) this.consider(field, o.text);
    this.open.clear();
  }

  finish(): void {
    this.breakStreams(this.sessionId);
  }
}

/**
 * Read buffers of the snippet readings, reused from one to the next (a fresh buffer per read cost
 * page faults and joins of lines read in pieces); one per reading running, so readings that overlap
 * never share one. The store reads 4 hits at a time (history-store.ts): 4 are kept, each up to
 * KEEP_BYTES (a buffer grown past it for a very long line is dropped), so at most 16 MiB stay.
 */
const readBuffers: ReadBuffer[] = [];
const KEPT_BUFFERS = 4;
const KEEP_BYTES = 4 * 1024 * 1024;
const takeReadBuffer = (): ReadBuffer => readBuffers.pop() ?? new ReadBuffer(Buffer.allocUnsafe(1024 * 1024));
function giveBackReadBuffer(buffer: ReadBuffer): void {
  if (buffer.bytes.length <= KEEP_BYTES && readBuffers.length < KEPT_BUFFERS) readBuffers.push(buffer);
}

function belongs(r: TraceRecord, entry: HistoryEntry): boolean {
  if (r.sessionId !== undefined) return r.sessionId === entry.id;
  if (r.agentSessionId !== undefined) return r.agentSessionId === entry.agentSessionId;
  if (r.kind === 'wire' && isJsonObject(r.msg.params)) return r.msg.params.sessionId === entry.agentSessionId;
  return false;
}

/**
 * Up to `count` snippets: the user's or agent's title first when it matches, then the best passages.
 * Lines that cannot change them are passed over unread (snippet-lines.ts), long lines are read as
 * their skeleton (line-skeleton.ts) when the query words are ASCII letters and digits — through
 * the index's hints of a trace's long lines (`hints`, line-hints.ts) where it has them —, all into
 * one reused buffer (readTraceTailInto); `readEveryLine` reads every line whole (the reference the
 * equivalence tests compare with).
 */
export async function snippetsFor(
  entry: HistoryEntry,
  query: readonly QueryTerm[],
  count: number,
  options: { readEveryLine?: boolean; hints?: (path: string) => TraceHints | undefined } = {},
): Promise<Snippet[]> {
  if (count <= 0 || query.length === 0) return [];
  const out: Snippet[] = [];
  // A title that is just the first prompt is found as the prompt.
  const title = entry.userTitle !== undefined || entry.agentTitle !== undefined ? cutSnippet('title', entry.title, query) : undefined;
  if (title) out.push(title);
  if (out.length >= count) return out;
  const skeleton = !options.readEveryLine && query.every((q) => ASCII_WORD.test(q.term)) ? new LineSkeleton() : undefined;
  const collector = new SnippetCollector(entry.id, query, count, skeleton);
  const terminals = new Set<string>();
  const cannotMatch = options.readEveryLine ? undefined : lineCannotMatch(query);
  const skipLine = cannotMatch && ((line: string) => !collector.streaming && cannotMatch(line));
  const buffer = options.readEveryLine ? undefined : takeReadBuffer();
  try {
    for (const loc of entry.traces) {
      if (collector.enough) break;
      const from = { position: loc.firstOffset, lines: loc.firstLine - 1 };
      const onItem = (item: TraceItem) => {
        if (item.type === 'record' && belongs(item.record, entry)) extractSearchText(item.record, entry.id, collector, terminals);
      };
      const hints = skeleton && buffer ? options.hints?.(loc.path) : undefined;
      const tailOptions = { stopAfterOffset: loc.lastOffset, shouldStop: () => collector.enough, ...(skipLine ? { skipLine } : {}), ...(skeleton ? { skeleton } : {}), ...(hints ? { hints } : {}) };
      try {
        await (buffer ? readTraceTailInto(loc.path, from, onItem, tailOptions, buffer) : readTraceTail(loc.path, from, onItem, tailOptions));
      } catch {
        // A trace gone since it was indexed: fewer snippets, not a failed search.
      }
    }
  } finally {
    if (buffer) giveBackReadBuffer(buffer);
  }
  collector.finish();
  // The best passage of each field first (fields in order of weight), then the next best.
  const ranked = [...collector.best].sort((a, b) => b.found - a.found || SEARCH_FIELDS.indexOf(a.field) - SEARCH_FIELDS.indexOf(b.field) || a.order - b.order);
  const firstOfField = ranked.filter((c, i) => ranked.findIndex((o) => o.field === c.field) === i);
  for (const c of [...firstOfField, ...ranked.filter((c) => !firstOfField.includes(c))]) {
    if (out.length >= count) break;
    const s = c.text === undefined ? c.snippet : cutSnippet(c.field, c.text, query);
    if (s && !out.some((o) => o.text === s.text)) out.push(s);
  }
  return out;
}
