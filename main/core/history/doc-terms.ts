/**
 * The words of one session's text read in one pass (a whole trace, or the tail written since the
 * last look), with where they occurred and how often, ready for a segment. Streamed messages arrive
 * in pieces that split words ("Hel" + "lo"), so the pieces of one message are joined before they
 * are cut into words; a message still streaming when the pass ends leaves its last partial word as
 * a carry for the next pass (it is indexed now too, so a live session is searchable at once).
 */
import type { FoldSkeleton, FoldText } from './fold-skeleton';
import { TermCounter } from './term-counter';
import { FIELD_BIT, FIELD_WEIGHT, type SearchField, type TextSink } from './search-text';

/** A streamed message's unfinished tail, kept between passes over a live trace. */
export interface StreamCarry {
  stream: string;
  text: string;
}

export type SessionCarry = Partial<Record<SearchField, StreamCarry>>;

const TRAILING_WORD = /[\p{L}\p{N}\p{M}]+$/u;

export class DocTerms {
  /** Each word once, with its weight and field mask (term-counter.ts: the hot path of indexing). */
  readonly counter = new TermCounter();
  private readonly pending = new Map<SearchField, StreamCarry>();

  constructor(carry?: SessionCarry) {
    for (const [field, c] of Object.entries(carry ?? {}) as Array<[SearchField, StreamCarry]>) this.pending.set(field, { ...c });
  }

  /** Words seen (the document length for ranking). */
  get length(): number {
    return this.counter.words;
  }

  /** term → [weight, field mask], in first-seen order (a copy: for tests and small uses). */
  get terms(): Map<string, [number, number]> {
    const { terms, weights, masks } = this.counter;
    return new Map(terms.map((t, i) => [t, [weights[i]!, masks[i]!]]));
  }

  add(field: SearchField, text: string): void {
    this.counter.add(text, FIELD_WEIGHT[field], FIELD_BIT[field]);
  }

  /** A long text still in the trace's bytes (fold-skeleton.ts): its words counted from them. */
  addRaw(field: SearchField, text: FoldText): void {
    text.count(this.counter, FIELD_WEIGHT[field], FIELD_BIT[field]);
  }

  chunk(field: SearchField, stream: string, text: string): void {
    const open = this.pending.get(field);
    if (open && open.stream === stream) {
      open.text += text;
      return;
    }
    if (open) this.add(field, open.text);
    this.pending.set(field, { stream, text });
  }

  breakStreams(): void {
    for (const [field, open] of this.pending) this.add(field, open.text);
    this.pending.clear();
  }

  /**
   * Ends the pass. `final`: the trace is finished, nothing more will join. Otherwise the open
   * messages are indexed as they are and their trailing partial words returned as the carry.
   */
  finish(final: boolean): SessionCarry | undefined {
    let carry: SessionCarry | undefined;
    for (const [field, open] of this.pending) {
      const tail = final ? undefined : TRAILING_WORD.exec(open.text)?.[0];
      // A word already indexed whole is indexed again when it continues: a stray prefix at worst.
      this.add(field, open.text);
      if (!final) (carry ??= {})[field] = { stream: open.stream, text: tail ?? '' };
    }
    this.pending.clear();
    return carry;
  }
}

/** A TextSink that keeps one DocTerms per session of the trace being read. */
export class TraceText implements TextSink {
  readonly docs = new Map<string, DocTerms>();

  constructor(
    private readonly carries: Record<string, SessionCarry> = {},
    /** The fold's skeleton of the line being read: texts that are its markers are read from the bytes. */
    private readonly skeleton?: FoldSkeleton,
  ) {}

  doc(sessionId: string): DocTerms {
    let d = this.docs.get(sessionId);
    if (!d) this.docs.set(sessionId, (d = new DocTerms(this.carries[sessionId])));
    return d;
  }

  chunk(sessionId: string, field: SearchField, stream: string, text: string): void {
    // A piece is joined to the next one: as a string.
    this.doc(sessionId).chunk(field, stream, this.skeleton?.decoded(text) ?? text);
  }

  text(sessionId: string, field: SearchField, text: string): void {
    const raw = this.skeleton?.resolve(text);
    if (raw !== undefined) this.doc(sessionId).addRaw(field, raw);
    else this.doc(sessionId).add(field, text);
  }

  breakStreams(sessionId: string): void {
    this.docs.get(sessionId)?.breakStreams();
  }

  /** Ends the pass; returns the carries for the next one (empty when `final`). */
  finish(final: boolean): Record<string, SessionCarry> {
    const out: Record<string, SessionCarry> = {};
    for (const [sessionId, doc] of this.docs) {
      const c = doc.finish(final);
      if (c) out[sessionId] = c;
    }
    // Sessions with a carry but no new text this pass keep it.
    if (!final) for (const [sessionId, c] of Object.entries(this.carries)) if (!this.docs.has(sessionId)) out[sessionId] = c;
    return out;
  }
}
