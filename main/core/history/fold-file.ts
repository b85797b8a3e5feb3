/**
 * One trace file read into the index's terms: its new lines folded into the file's detail
 * (trace-fold.ts) and each session's searchable words counted (doc-terms.ts), with the settling
 * decision taken. Everything of a catch-up that depends on this file only — the CPU-heavy part
 * (parsing, tokenizing) — so it can run in a worker thread (fold-pool.ts) as well as inline, with
 * the same result. What depends on the whole index (document ids, segments) stays with the caller.
 */
import { cardOf, emptyDetail, type FileCard, type FileDetail } from './cards';
import { TraceText } from './doc-terms';
import { FoldSkeleton, NotAsParsed } from './fold-skeleton';
import type { TraceItem } from '../../../common/trace/parse';
import { LineHintWriter } from './line-hints';
import type { PooledTerms } from './pooled-terms';
import { readTraceTail, readTraceTailSync, type TailOptions, type TailResult } from './tail-reader';
import { TraceFold } from './trace-fold';

/** A trace that ended this long ago gets no more writes: it is not stat'ed on every look. */
export const SETTLE_AFTER_EXIT_MS = 30_000;
/** A trace not written for this long is treated as finished even without an exit record. */
export const SETTLE_IDLE_MS = 24 * 3600_000;

export function shouldSettle(f: { imported: boolean; card: Pick<FileCard, 'ended'> }, mtimeMs: number, now: number): boolean {
  if (f.imported) return true;
  const idle = now - mtimeMs;
  return (f.card.ended !== undefined && idle > SETTLE_AFTER_EXIT_MS) || idle > SETTLE_IDLE_MS;
}

export interface FoldInput {
  path: string;
  name: string;
  /** Where the last look stopped (0, 0 for a file read from the start). */
  position: number;
  lines: number;
  /** The file's detail so far as JSON ('' = none yet). */
  detailJson: string;
  imported: boolean;
  mtimeMs: number;
  now: number;
}

/**
 * One session's words of this pass — its distinct terms with their weights and field masks, as the
 * counter holds them (pooled-terms.ts: no string per term), what a segment needs — and how many words.
 */
export interface FoldedDoc {
  sessionId: string;
  length: number;
  terms: PooledTerms;
}

export interface FoldedFile {
  tail: TailResult;
  detail: FileDetail;
  card: FileCard;
  /** Finished: the fold state and carries are dropped from the detail. */
  settled: boolean;
  /** Sessions with words, in the order they were first seen. */
  docs: FoldedDoc[];
}

/**
 * Long lines are read as their skeleton (fold-skeleton.ts) unless `skeletons` is false; when one of
 * them had a string JSON.parse rejects, the file is folded again without (the same result as
 * without them throughout).
 */
export async function foldTraceFile(input: FoldInput, skeletons = true): Promise<FoldedFile> {
  try {
    const pass = new FoldPass(input, skeletons);
    return pass.end(await readTraceTail(input.path, input, pass.onItem, pass.options));
  } catch (err) {
    if (!(err instanceof NotAsParsed)) throw err;
    return foldTraceFile(input, false);
  }
}

/** foldTraceFile with synchronous reads (tail-reader.ts readTraceTailSync): for worker threads. */
export function foldTraceFileSync(input: FoldInput, skeletons = true): FoldedFile {
  try {
    const pass = new FoldPass(input, skeletons);
    return pass.end(readTraceTailSync(input.path, input, pass.onItem, pass.options));
  } catch (err) {
    if (!(err instanceof NotAsParsed)) throw err;
    return foldTraceFileSync(input, false);
  }
}

/** One file's fold, whichever way its lines are read. */
class FoldPass {
  private readonly detail: FileDetail;
  private readonly text: TraceText;
  private readonly fold: TraceFold;
  /** The hints of the file's long lines for the snippets (line-hints.ts), the new lines' appended. */
  readonly hints: LineHintWriter;

  /** Long lines read as their skeleton (fold-skeleton.ts). */
  private readonly skeleton: FoldSkeleton | undefined;

  constructor(
    private readonly input: FoldInput,
    skeletons: boolean,
  ) {
    this.detail = input.detailJson ? (JSON.parse(input.detailJson) as FileDetail) : emptyDetail();
    this.hints = new LineHintWriter(this.detail.hints ?? []);
    this.skeleton = skeletons ? new FoldSkeleton() : undefined;
    this.text = new TraceText(this.detail.carry ?? {}, this.skeleton);
    this.fold = new TraceFold(this.detail, this.text);
  }

  get options(): TailOptions {
    return this.skeleton ? { hintLines: this.hints, foldSkeleton: this.skeleton } : { hintLines: this.hints };
  }

  readonly onItem = (item: TraceItem, offset: number): void => {
    if (item.type === 'header') this.fold.header(item.header);
    else if (item.type === 'record') {
      this.skeleton?.decodePrompt(item.record);
      this.fold.record(item.record, item.line, offset);
    } else this.fold.corrupt(item);
  };

  end(tail: TailResult): FoldedFile {
    const { detail, text, input } = this;
    this.fold.sync();
    if (this.hints.hints.length > 0) detail.hints = this.hints.hints;
    const card = cardOf(detail, input.name);
    const settled = shouldSettle({ imported: input.imported, card }, input.mtimeMs, input.now);
    const carry = text.finish(settled);
    if (settled) {
      delete detail.fold;
      delete detail.carry;
    } else if (Object.keys(carry).length) detail.carry = carry;
    else delete detail.carry;
    const docs: FoldedDoc[] = [];
    for (const [sessionId, doc] of text.docs) {
      if (doc.counter.size > 0) docs.push({ sessionId, length: doc.length, terms: doc.counter });
    }
    return { tail, detail, card, settled, docs };
  }
}
