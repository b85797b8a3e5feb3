import { describe, expect, it } from 'vitest';
import { LeasePool } from './lease-pool';

function holder(log: string[], name: string, pinned = false) {
  return { pinned, evict: () => log.push(name) };
}

describe('the diff editor pool', () => {
  it('keeps at most `max` leases, evicting the least recently used', () => {
    const log: string[] = [];
    const pool = new LeasePool(3);
    const a = pool.acquire(holder(log, 'a'))!;
    const b = pool.acquire(holder(log, 'b'))!;
    pool.acquire(holder(log, 'c'));
    a.touch();
    pool.acquire(holder(log, 'd'));
    expect(log).toEqual(['b']);
    expect(b.live).toBe(false);
    expect(a.live).toBe(true);
    expect(pool.size).toBe(3);
  });

  it('evicts hidden holders before visible ones', () => {
    const log: string[] = [];
    const pool = new LeasePool(2);
    pool.acquire(holder(log, 'old-visible'));
    const hidden = pool.acquire(holder(log, 'new-hidden'))!;
    hidden.setVisible(false);
    pool.acquire(holder(log, 'x'));
    expect(log).toEqual(['new-hidden']);
  });

  it('never evicts a pinned holder and answers null when all are pinned', () => {
    const log: string[] = [];
    const pool = new LeasePool(1);
    pool.acquire(holder(log, 'dialog', true));
    expect(pool.acquire(holder(log, 'card'))).toBeNull();
    expect(log).toEqual([]);
  });

  it('frees the slot on release (twice is harmless) and does not evict a released holder', () => {
    const log: string[] = [];
    const pool = new LeasePool(1);
    const a = pool.acquire(holder(log, 'a'))!;
    a.release();
    a.release();
    expect(pool.size).toBe(0);
    pool.acquire(holder(log, 'b'));
    expect(log).toEqual([]);
    expect(() => new LeasePool(0)).toThrow();
  });
});
