/**
 * Spare 256 KiB blocks shared by the trace writers of a process. A writer takes a block to encode
 * lines into and gives it back once it is written; the next block any writer needs is one given
 * back, by it or by another. Kept per writer, each writer held what its own busiest moment needed
 * (4 writers under a flood: 15–16 MiB allocated, while all four together never had more than
 * ≈ 9 MiB pending); shared, the process holds about the joint need.
 *
 * While blocks are being taken the pool keeps up to BUSY_SPARE_BLOCKS per attached writer: what a
 * flooding writer has in circulation — its pending bytes stop at the trace's high-water mark
 * (2 MiB, agent-connection.ts) plus the write under way. Fewer spares and the next burst goes to
 * fresh blocks, each dropped after living through its write; more, and the pool holds what no
 * writer can use (16 a writer until issue #11's twentieth pass: 16 MiB for 4 agents). Once no
 * block has been taken for IDLE_TRIM_MS it keeps IDLE_SPARE_BLOCKS, and when its last writer
 * detaches it drops down to those at once.
 */

export const BLOCK_BYTES = 256 * 1024;
export const BUSY_SPARE_BLOCKS = 8;
export const IDLE_SPARE_BLOCKS = 4;
export const IDLE_TRIM_MS = 1000;

export class BlockPool {
  private readonly spare: Buffer[] = [];
  private writers = 0;
  private allocated = 0;
  private takenAt = 0;
  private idleTrim: ReturnType<typeof setTimeout> | undefined;

  /** Blocks allocated since the pool was made (figures, tests: reused blocks are not counted). */
  get blocksAllocated(): number {
    return this.allocated;
  }

  /** Written blocks held for reuse. */
  get spareBlocks(): number {
    return this.spare.length;
  }

  /** A writer starts using the pool: the spares it may keep grow by BUSY_SPARE_BLOCKS. */
  attach(): void {
    this.writers++;
  }

  /** A writer stopped (its blocks are given back first); the last one leaves only the idle spares. */
  detach(): void {
    this.writers = Math.max(0, this.writers - 1);
    const limit = this.writers === 0 ? IDLE_SPARE_BLOCKS : this.busyLimit();
    if (this.spare.length > limit) this.spare.length = limit;
  }

  /** A block to fill: a spare if there is one, else a fresh one. Its contents are not cleared. */
  take(): Buffer {
    this.takenAt = Date.now();
    const block = this.spare.pop();
    if (block) return block;
    this.allocated++;
    return Buffer.allocUnsafe(BLOCK_BYTES);
  }

  /** Gives back a block nothing refers to any more (written out, or taken and left empty). */
  give(block: Buffer): void {
    if (this.spare.length >= this.busyLimit()) return;
    this.spare.push(block);
    if (this.spare.length > IDLE_SPARE_BLOCKS) this.trimWhenIdle();
  }

  private busyLimit(): number {
    return BUSY_SPARE_BLOCKS * Math.max(1, this.writers);
  }

  /** Drops the spares beyond IDLE_SPARE_BLOCKS once no block has been taken for IDLE_TRIM_MS. */
  private trimWhenIdle(): void {
    if (this.idleTrim !== undefined) return;
    const check = (): void => {
      const idleFor = Date.now() - this.takenAt;
      if (idleFor < IDLE_TRIM_MS) {
        this.idleTrim = setTimeout(check, Math.max(1, IDLE_TRIM_MS - idleFor));
        this.idleTrim.unref?.();
        return;
      }
      this.idleTrim = undefined;
      if (this.spare.length > IDLE_SPARE_BLOCKS) this.spare.length = IDLE_SPARE_BLOCKS;
    };
    this.idleTrim = setTimeout(check, Math.max(1, IDLE_TRIM_MS - (Date.now() - this.takenAt)));
    this.idleTrim.unref?.();
  }
}

/** The pool of this process: every trace writer uses it unless given another (tests). */
export const processBlockPool = new BlockPool();
