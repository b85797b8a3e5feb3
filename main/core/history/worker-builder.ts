/**
 * A fold worker's segment building (fold-worker.ts): a file's documents go into the segment builder
 * as soon as the file is folded, under provisional numbers (0, 1, … per builder), and get their
 * document ids when the main thread sends them; a builder full at `flushPostings` is sealed and
 * written once all its documents have their ids (segment.ts `write` with the map).
 *
 * Before, the worker kept each file's documents (their terms, weights, masks, hashes) until the ids
 * came back, and the ids come back only after the worker has folded its next file: every
 * document's words lived through a fold and were promoted to the old generation, to be collected
 * there. Now they die young, and the builder holds only what a segment keeps. The segments are the
 * same: a builder sees the same documents in the same order, sealed after the same file (the flush
 * test is the same, done when the file is added instead of when its ids arrive), and writes the
 * bytes a builder given the ids would. Each builder takes its arena's chunks from the ones the
 * builders written before it gave back (`release` once written: arena-chunks.ts).
 */
import type { FoldedDoc } from './fold-file';
import { ChunkPool } from './arena-chunks';
import { SegmentBuilder } from './segment';

/** A builder and the ids of its documents, by provisional number; `release` the builder once written. */
export interface ProvisionalSegment {
  builder: SegmentBuilder;
  /** docIds[n] = the id of provisional document n. */
  docIds: Int32Array;
  /** The order it was sealed in (0, 1, …): its segment's name. */
  seq: number;
}

interface Open {
  builder: SegmentBuilder;
  docIds: Int32Array;
  count: number;
  /** Files added whose ids have not come yet. */
  unresolved: number;
  seq: number;
}

export class WorkerBuilder {
  private current: Open;
  private readonly files = new Map<number, { segment: Open; first: number }>();
  private readonly sealed = new Set<Open>();
  private sealedCount = 0;
  private readonly chunks = new ChunkPool();

  /** `ready` is called once per sealed builder whose documents all have their ids, to write it. */
  constructor(
    private readonly flushPostings: number,
    private readonly ready: (segment: ProvisionalSegment) => void,
  ) {
    this.current = this.fresh();
  }

  /** A folded file's documents (`key`: the file's, as in the ids message that will name them). */
  add(key: number, docs: readonly FoldedDoc[]): void {
    if (docs.length === 0) return;
    const s = this.current;
    if (this.files.has(key)) throw new Error(`file ${key} folded twice`);
    this.files.set(key, { segment: s, first: s.count });
    s.unresolved++;
    if (s.count + docs.length > s.docIds.length) s.docIds = grown(s.docIds, s.count + docs.length);
    for (const d of docs) s.builder.addPooled(s.count++, d.terms);
    if (s.builder.size > this.flushPostings) this.seal();
  }

  /** The ids of a file's documents, in the order they were added. */
  resolve(key: number, ids: readonly number[]): void {
    const f = this.files.get(key);
    if (!f) {
      if (ids.length === 0) return;
      throw new Error(`ids for file ${key}, which has no documents here`);
    }
    this.files.delete(key);
    for (let i = 0; i < ids.length; i++) f.segment.docIds[f.first + i] = ids[i]!;
    f.segment.unresolved--;
    if (this.sealed.has(f.segment)) this.maybeReady(f.segment);
  }

  /** Seals what is held (all ids must have come): every segment has been handed to `ready`. */
  finish(): void {
    this.seal();
    if (this.sealed.size > 0) throw new Error(`${this.files.size} folded files never got their document ids`);
  }

  private seal(): void {
    const s = this.current;
    if (s.builder.empty) return;
    s.seq = this.sealedCount++;
    this.current = this.fresh();
    this.sealed.add(s);
    this.maybeReady(s);
  }

  private maybeReady(s: Open): void {
    if (s.unresolved > 0) return;
    this.sealed.delete(s);
    this.ready({ builder: s.builder, docIds: s.docIds.subarray(0, s.count), seq: s.seq });
  }

  private fresh(): Open {
    return { builder: new SegmentBuilder(this.chunks), docIds: new Int32Array(256), count: 0, unresolved: 0, seq: -1 };
  }
}

function grown(a: Int32Array, need: number): Int32Array {
  let size = a.length * 2;
  while (size < need) size *= 2;
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
