import { afterEach, describe, expect, it, vi } from 'vitest';
import { BLOCK_BYTES, BUSY_SPARE_BLOCKS, BlockPool, IDLE_SPARE_BLOCKS, IDLE_TRIM_MS } from './block-pool';

const takeN = (pool: BlockPool, n: number): Buffer[] => Array.from({ length: n }, () => pool.take());

describe('BlockPool', () => {
  afterEach(() => vi.useRealTimers());

  it('hands out fresh blocks only when no block was given back', () => {
    const pool = new BlockPool();
    pool.attach();
    const first = takeN(pool, 3);
    expect(first.every((b) => b.length === BLOCK_BYTES)).toBe(true);
    expect(pool.blocksAllocated).toBe(3);
    for (const block of first) pool.give(block);
    const again = takeN(pool, 3);
    expect(pool.blocksAllocated).toBe(3);
    expect(new Set([...first, ...again]).size).toBe(3);
  });

  it('keeps up to BUSY_SPARE_BLOCKS per attached writer, and drops what is given back beyond', () => {
    const pool = new BlockPool();
    pool.attach();
    pool.attach();
    for (const block of takeN(pool, 3 * BUSY_SPARE_BLOCKS)) pool.give(block);
    expect(pool.spareBlocks).toBe(2 * BUSY_SPARE_BLOCKS);
  });

  it('trims its spares to IDLE_SPARE_BLOCKS once no block has been taken for IDLE_TRIM_MS, not while blocks keep being taken', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const pool = new BlockPool();
    pool.attach();
    for (const block of takeN(pool, BUSY_SPARE_BLOCKS)) pool.give(block);
    // Busy: a block taken (and given back) every 300 ms for 3 s.
    for (let k = 0; k < 10; k++) {
      await vi.advanceTimersByTimeAsync(300);
      pool.give(pool.take());
      expect(pool.spareBlocks).toBe(BUSY_SPARE_BLOCKS);
    }
    await vi.advanceTimersByTimeAsync(IDLE_TRIM_MS - 1);
    expect(pool.spareBlocks).toBe(BUSY_SPARE_BLOCKS);
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.spareBlocks).toBe(IDLE_SPARE_BLOCKS);
    expect(pool.blocksAllocated).toBe(BUSY_SPARE_BLOCKS);
  });

  it('keeps only the idle spares once its last writer detached', () => {
    const pool = new BlockPool();
    pool.attach();
    pool.attach();
    for (const block of takeN(pool, 20)) pool.give(block);
    pool.detach();
    expect(pool.spareBlocks).toBe(BUSY_SPARE_BLOCKS);
    pool.detach();
    expect(pool.spareBlocks).toBe(IDLE_SPARE_BLOCKS);
  });
});
