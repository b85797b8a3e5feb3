/**
 * The memory of a segment builder's postings (segment.ts SegmentBuilder: a log of four ints a
 * posting): fixed chunks of CHUNK_INTS ints, addressed as one arena (address >>> CHUNK_BITS is the
 * chunk, the low bits the offset in it). A full arena grows by a new chunk — its old contents stay where they are — where
 * one Int32Array doubled, copied and touched twice its final size in fresh pages (≈ 1 % of a fold
 * worker's CPU in copying, more in page faults). A fold worker writes a segment per million postings
 * and starts the next builder with the chunks of the one it has written (`ChunkPool`).
 */

export const CHUNK_BITS = 18;
/** Ints per chunk (1 MiB), a multiple of four: a posting of the log never spans two. */
export const CHUNK_INTS = 1 << CHUNK_BITS;
export const CHUNK_MASK = CHUNK_INTS - 1;

/** Chunks a written builder gave back, for the next builder of the same thread. */
export class ChunkPool {
  private readonly spare: Int32Array[] = [];

  /** A chunk, its contents whatever they were (a builder writes every int before it reads it). */
  take(): Int32Array {
    return this.spare.pop() ?? new Int32Array(CHUNK_INTS);
  }

  give(chunks: readonly Int32Array[]): void {
    for (const c of chunks) this.spare.push(c);
  }

  get size(): number {
    return this.spare.length;
  }
}
