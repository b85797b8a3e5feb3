import { describe, expect, it } from 'vitest';
import { PatchBatcher } from './patch-batcher';

/** Manual timers: the test decides when time passes, so nothing depends on the machine's speed. */
function manualTimers() {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
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
});
