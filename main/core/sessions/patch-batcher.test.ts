import { describe, expect, it } from 'vitest';
import { PatchBatcher } from './patch-batcher';

/**
 * Manual timers and a clock that stands still: the test decides when time passes, so nothing
 * depends on the machine's speed (with the real clock, a loaded machine could take an interval
 * between two pushes, and the batcher then rightly delivers at the push).
 */
function manualTimers() {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    now: () => 0,
    setTimer: (fn: () => void) => {
      const id = next++;
      timers.set(id, fn);
      return id;
    },
    clearTimer: (id: unknown) => void timers.delete(id as number),
    fire: () => {
      const all = [...timers.values()];
      timers.clear();
      all.forEach((fn) => fn());
    },
    count: () => timers.size,
  };
}

describe('PatchBatcher', () => {
  it('delivers many pushes within one tick as one batch, in order', () => {
    const t = manualTimers();
    const batches: number[][] = [];
    const b = new PatchBatcher<number>({ deliver: (x) => batches.push(x), ...t });
    for (let i = 0; i < 1000; i++) b.push([i]);
    expect(batches).toHaveLength(0);
    expect(t.count()).toBe(1);
    t.fire();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('flushes at once when asked (turn end, permission, error)', () => {
    const t = manualTimers();
    const batches: string[][] = [];
    const b = new PatchBatcher<string>({ deliver: (x) => batches.push(x), ...t });
    b.push(['a', 'b']);
    b.flushNow();
    expect(batches).toEqual([['a', 'b']]);
    expect(t.count()).toBe(0);
    t.fire();
    expect(batches).toHaveLength(1);
  });

  it('delivers nothing after dispose', () => {
    const t = manualTimers();
    const batches: string[][] = [];
    const b = new PatchBatcher<string>({ deliver: (x) => batches.push(x), ...t });
    b.push(['a']);
    b.dispose();
    t.fire();
    b.push(['b']);
    b.flushNow();
    expect(batches).toEqual([]);
  });

  it('waits out the rest of the interval after a delivery, and delivers at once when it has passed', () => {
    const waits: number[] = [];
    let clock = 1000;
    const fns: Array<() => void> = [];
    const b = new PatchBatcher<number>({
      deliver: () => {},
      intervalMs: 16,
      now: () => clock,
      setTimer: (fn, ms) => {
        waits.push(ms);
        fns.push(fn);
        return fns.length;
      },
      clearTimer: () => {},
    });
    b.push([1]);
    fns.shift()!(); // delivered at t=1000
    clock = 1005;
    b.push([2]);
    expect(waits.at(-1)).toBe(11);
    fns.shift()!();
    clock = 1100;
    b.push([3]);
    expect(waits.at(-1)).toBe(0);
  });

  it('delivers at the next push once the oldest pending patch has waited an interval and its timer is late (a long poll phase)', () => {
    let clock = 1000;
    const t = manualTimers();
    const batches: number[][] = [];
    const b = new PatchBatcher<number>({ deliver: (x) => batches.push(x), intervalMs: 16, ...t, now: () => clock });
    b.push([1]);
    b.push([2]); // the first push after a quiet spell still waits for its timer, with what follows
    t.fire(); // delivered at t=1000
    expect(batches).toEqual([[1, 2]]);
    clock = 1004;
    b.push([3]); // pending since 1004
    clock = 1016;
    b.push([4]); // 16 ms since the last delivery, but [3] has waited only 12: its timer's turn
    expect(batches).toHaveLength(1);
    expect(t.count()).toBe(1);
    clock = 1020; // [3] has waited an interval and the timer has not run: the push delivers
    b.push([5, 6]);
    expect(batches).toEqual([[1, 2], [3, 4, 5, 6]]);
    expect(t.count()).toBe(0);
    clock = 1024;
    b.push([7]); // a new interval began at 1020
    expect(batches).toHaveLength(2);
    expect(t.count()).toBe(1);
    t.fire();
    expect(batches).toEqual([[1, 2], [3, 4, 5, 6], [7]]);
  });
});
