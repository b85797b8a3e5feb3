import { describe, expect, it } from 'vitest';
import type { ToolCallEntry } from '../../../common/transcript/model';
import type { Patch } from '../../../common/transcript/patches';
import { supersededContent } from '../../../common/transcript/superseded-content';
import { PatchBatcher, SESSION_BATCH_MS } from './patch-batcher';

/** Timers the test fires itself, the waits they were set for, and a clock at `clock` (from 1000). */
function steppedTimers() {
  const t = {
    clock: 1000,
    waits: [] as number[],
    fns: [] as Array<() => void>,
    options: {
      now: () => t.clock,
      setTimer: (fn: () => void, ms: number) => {
        t.waits.push(ms);
        t.fns.push(fn);
        return t.fns.length;
      },
      clearTimer: () => {},
    },
  };
  return t;
}

/**
 * Manual timers and a clock that stands still unless a test moves it: the test decides when time
 * passes, so nothing depends on the machine's speed (1,000 pushes can take longer than an interval
 * on a loaded machine, which the late-timer rule would rightly answer with a delivery).
 */
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
    now: () => 0,
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

  it('hands each push to its coalescing step with the pending batch and where the push starts; a delivery starts a new batch', () => {
    const t = manualTimers();
    const seen: Array<[number[], number]> = [];
    const arrays = new Set<number[]>();
    const b = new PatchBatcher<number>({
      deliver: () => {},
      coalesce: (pending, from) => {
        arrays.add(pending);
        seen.push([[...pending], from]);
        if (from > 0) pending[0] = -pending[0]!; // a lighter equivalent of an earlier item
      },
      ...t,
    });
    const delivered: number[][] = [];
    const c = new PatchBatcher<number>({ deliver: (x) => delivered.push(x), coalesce: (pending, from) => void (from > 0 && (pending[0] = 0)), ...t });
    b.push([1, 2]);
    b.push([3]);
    t.fire();
    b.push([4]);
    expect(seen).toEqual([
      [[1, 2], 0],
      [[1, 2, 3], 2],
      [[4], 0],
    ]);
    expect(arrays.size).toBe(2);
    c.push([7]);
    c.push([8]);
    t.fire();
    expect(delivered).toEqual([[0, 8]]);
  });

  it('with supersededContent, delivers a tool call opening diff only when its completion is not in the same batch', () => {
    const t = manualTimers();
    const batches: Patch[][] = [];
    const b = new PatchBatcher<Patch>({ deliver: (x) => batches.push(x), coalesce: supersededContent(), ...t });
    const diff = (text: string) => [{ type: 'diff' as const, path: '/a', oldText: null, newText: text }];
    const entry: ToolCallEntry = { id: 'e1', kind: 'tool_call', t: 1, turn: 1, toolCallId: 'tc', title: '', toolKind: 'edit', status: 'in_progress', content: diff('opening'), locations: [], permissions: [] };
    b.push([{ op: 'append-entry', entry: { ...entry } }]);
    b.push([{ op: 'patch-tool-call', id: 'e1', fields: { status: 'completed', content: diff('final') } }]);
    t.fire();
    b.push([{ op: 'append-entry', entry: { ...entry, id: 'e2' } }]);
    t.fire();
    b.push([{ op: 'patch-tool-call', id: 'e2', fields: { status: 'completed', content: diff('final') } }]);
    t.fire();
    expect(batches.map((batch) => JSON.stringify(batch).includes('opening'))).toEqual([false, true, false]);
    expect(batches.map((batch) => batch.length)).toEqual([2, 1, 1]);
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
    const t = steppedTimers();
    const b = new PatchBatcher<number>({ deliver: () => {}, intervalMs: 16, ...t.options });
    b.push([1]);
    t.fns.shift()!(); // delivered at t=1000
    t.clock = 1005;
    b.push([2]);
    expect(t.waits.at(-1)).toBe(11);
    t.fns.shift()!();
    t.clock = 1100;
    b.push([3]);
    expect(t.waits.at(-1)).toBe(0);
  });

  it('by default holds a session\'s patches a few milliseconds, not a frame: a batch under a flood goes before the next young-generation collection', () => {
    // Issue #11, nineteenth pass: batches held 16–25 ms lived through a scavenge (one every ≈ 20 ms
    // under a flood) and were promoted with their diff texts. Windows still get ≤ 1 message per 20
    // ms: their event coalescer paces them (event-coalescer.test.ts).
    expect(SESSION_BATCH_MS).toBeLessThanOrEqual(4);
    const t = steppedTimers();
    const batches: number[][] = [];
    const b = new PatchBatcher<number>({ deliver: (x) => batches.push(x), ...t.options });
    b.push([1]);
    t.fns.shift()!(); // delivered at t=1000
    t.clock = 1001;
    b.push([2]);
    expect(t.waits.at(-1)).toBe(SESSION_BATCH_MS - 1); // the timer: the rest of the interval
    t.clock = 1001 + SESSION_BATCH_MS;
    b.push([3]); // [2] has waited an interval and its timer is late (a flood's poll phase): the push delivers
    expect(batches).toEqual([[1], [2, 3]]);
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
