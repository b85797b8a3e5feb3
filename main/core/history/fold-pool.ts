/**
 * Folding trace files in worker threads for a rebuild or a big catch-up: parsing and tokenizing
 * (fold-file.ts) are most of the work and each file is independent. Results come back in the
 * order the files were given, without their words; the caller assigns document ids in that order
 * (as inline) and sends them back, and each worker adds its files' words to its own segment
 * builder, writing segments itself. So the main thread only does the bookkeeping, and the index
 * has the same documents, words and weights as an inline build — in one segment per worker (and
 * per flush, up to 3; more are merged by the worker when it finishes) instead of one. The worker
 * script is a separate bundle (dist/workers/history-fold.cjs,
 * fold-worker.ts); where it is missing (tests run from source) the caller folds inline.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileCard, FileDetail } from './cards';
import { FoldDispatch } from './fold-dispatch';
import { foldTraceFile, type FoldInput } from './fold-file';
import type { SegmentBuilder } from './segment';
import type { TailResult } from './tail-reader';

/** What the index keeps of a folded file; `index(ids)` adds its docs' words under those document ids. */
export interface Folded {
  tail: TailResult;
  detail: FileDetail;
  card: FileCard;
  settled: boolean;
  docs: Array<{ sessionId: string; length: number }>;
  index(ids: readonly number[]): void;
}

export interface WrittenSegment {
  name: string;
  bytes: number;
  docs: number;
  terms: number;
}

/** Messages to a worker. */
export type WorkerRequest =
  | { type: 'fold'; key: number; input: FoldInput }
  | { type: 'ids'; key: number; ids: number[] }
  | { type: 'finish' };

/** Messages from a worker. */
export type WorkerReply =
  | { type: 'folded'; key: number; tail: TailResult; detailJson: string; card: FileCard; settled: boolean; docs: Array<{ sessionId: string; length: number }> }
  | { type: 'failed'; key: number; message: string; code?: string }
  | { type: 'finished'; segments: WrittenSegment[] }
  | { type: 'error'; message: string };

export interface FoldWorkerData {
  /** Where this worker writes its segments: `<segmentsDir>/<prefix><n>.idx`. */
  segmentsDir: string;
  prefix: string;
  /** Postings held before the worker writes them out as a segment. */
  flushPostings: number;
  /** More segments than this written by the worker are merged into one when it finishes. */
  keepSegments: number;
}

/** Where the worker bundle sits beside the running bundle (dist/cli, dist/main → dist/workers). */
export function defaultFoldWorkerPath(): string | undefined {
  const candidate = join(__dirname, '..', 'workers', 'history-fold.cjs');
  return existsSync(candidate) ? candidate : undefined;
}

/** Two workers: what the 2-core machines we measure on can run beside the main thread's bookkeeping. */
export function foldWorkerCount(): number {
  return Math.min(2, Math.max(1, availableParallelism()));
}

interface Slot {
  worker: Worker;
  index: number;
  finished?: (segments: WrittenSegment[]) => void;
}

/** Files a worker holds at once: one, so none waits behind a long file while another worker is free. */
const FOLDS_IN_HAND = 1;

export class FoldPool {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, { resolve: (f: Folded) => void; reject: (e: Error) => void }>();
  private readonly dispatch: FoldDispatch<{ key: number; input: FoldInput }>;
  private nextKey = 0;
  private failure: Error | undefined;
  private onFailure: Array<(e: Error) => void> = [];

  constructor(workerPath: string, size: number, data: (index: number) => FoldWorkerData) {
    this.dispatch = new FoldDispatch(size, FOLDS_IN_HAND, (w, { key, input }) => this.post(this.slots[w]!, { type: 'fold', key, input }));
    for (let i = 0; i < size; i++) {
      const slot: Slot = { worker: new Worker(workerPath, { workerData: data(i) }), index: i };
      slot.worker.on('message', (reply: WorkerReply) => this.receive(slot, reply));
      slot.worker.on('error', (err) => this.fail(err));
      slot.worker.on('exit', (code) => {
        if (code !== 0 && !slot.finished) this.fail(new Error(`a history fold worker exited with code ${code}`));
      });
      this.slots.push(slot);
    }
  }

  fold(input: FoldInput): Promise<Folded> {
    if (this.failure) return Promise.reject(this.failure);
    const key = this.nextKey++;
    return new Promise<Folded>((resolve, reject) => {
      this.pending.set(key, { resolve, reject });
      this.dispatch.push({ key, input });
    });
  }

  /** Every worker writes what it holds; the segments written since the pool started. */
  async finish(): Promise<WrittenSegment[]> {
    if (this.failure) throw this.failure;
    const lists = await Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<WrittenSegment[]>((resolve, reject) => {
            slot.finished = resolve;
            this.onFailure.push(reject);
            this.post(slot, { type: 'finish' });
          }),
      ),
    );
    return lists.flat();
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private post(slot: Slot, msg: WorkerRequest): void {
    slot.worker.postMessage(msg);
  }

  private receive(slot: Slot, reply: WorkerReply): void {
    if (reply.type === 'finished') {
      slot.finished?.(reply.segments);
      return;
    }
    if (reply.type === 'error') {
      this.fail(new Error(`history fold worker: ${reply.message}`));
      return;
    }
    this.dispatch.done(slot.index);
    const p = this.pending.get(reply.key);
    if (!p) return;
    this.pending.delete(reply.key);
    if (reply.type === 'failed') {
      p.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
      return;
    }
    const key = reply.key;
    p.resolve({
      tail: reply.tail,
      detail: JSON.parse(reply.detailJson) as FileDetail,
      card: reply.card,
      settled: reply.settled,
      docs: reply.docs,
      index: (ids) => this.post(slot, { type: 'ids', key, ids: [...ids] }),
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    for (const reject of this.onFailure) reject(err);
    this.onFailure = [];
  }
}

/** Inline: fold here, and add the words to whatever builder is current when the ids come. */
async function foldHere(input: FoldInput, builder: () => SegmentBuilder): Promise<Folded> {
  const f = await foldTraceFile(input);
  return {
    tail: f.tail,
    detail: f.detail,
    card: f.card,
    settled: f.settled,
    docs: f.docs.map((d) => ({ sessionId: d.sessionId, length: d.length })),
    index: (ids) => {
      const b = builder();
      f.docs.forEach((d, i) => b.addPooled(ids[i]!, d.terms));
    },
  };
}

/**
 * Folds every input — in the pool's workers when there is one, inline otherwise — and yields the
 * results in input order, with at most `window` files read ahead (memory stays bounded).
 */
export function* foldInOrder(
  inputs: readonly FoldInput[],
  pool: FoldPool | undefined,
  builder: () => SegmentBuilder,
  window = 256,
): Generator<Promise<Folded>> {
  if (!pool) {
    for (const input of inputs) yield foldHere(input, builder);
    return;
  }
  const ahead: Array<Promise<Folded>> = [];
  let launched = 0;
  for (let i = 0; i < inputs.length; i++) {
    while (launched < inputs.length && launched < i + window) {
      const p = pool.fold(inputs[launched]!);
      p.catch(() => undefined); // handled when its turn comes
      ahead.push(p);
      launched++;
    }
    yield ahead.shift()!;
  }
}
