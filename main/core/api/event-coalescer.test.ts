import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../common/api/wire';
import { EventCoalescer } from './event-coalescer';

/** A coalescer on a fake clock: `advance(ms)` runs the timers due, `drain()` the queued microtasks, `stall(ms)` runs nothing. */
function setup(intervalMs = 17) {
  let now = 0;
  let timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let micro: Array<() => void> = [];
  let nextId = 1;
  const deliveries: Array<{ at: number; items: WireEvent[] }> = [];
  const c = new EventCoalescer({
    intervalMs,
    deliver: (items) => deliveries.push({ at: now, items }),
    now: () => now,
    setTimer: (fn, ms) => {
      const t = { at: now + ms, fn, id: nextId++ };
      timers.push(t);
      return t.id;
    },
    clearTimer: (id) => void (timers = timers.filter((t) => t.id !== id)),
    soon: (fn) => void micro.push(fn),
  });
  const drain = () => {
    while (micro.length) micro.shift()!();
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      drain();
      const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.fn();
    }
    now = end;
    drain();
  };
  /** Moves the clock inside one synchronous job: no timer or microtask runs. */
  const stall = (ms: number) => void (now += ms);
  return { c, deliveries, drain, advance, stall };
}

describe('EventCoalescer', () => {
  it('sends the first event after a quiet spell at once, with whatever was emitted in the same job', () => {
    const { c, deliveries, drain } = setup();
    c.push('session/status', { a: 1 });
    c.push('session/patches', { b: 2 });
    expect(deliveries).toHaveLength(0); // not inside the emitting job...
    drain(); // ...but right after it, without waiting for a timer
    expect(deliveries).toEqual([{ at: 0, items: [['session/status', { a: 1 }], ['session/patches', { b: 2 }]] }]);
  });

  it('keeps the order of every event across names and deliveries', () => {
    const { c, deliveries, advance } = setup();
    const sent: string[] = [];
    for (let i = 0; i < 500; i++) {
      const name = ['session/patches', 'inspector/appended', 'session/status'][i % 3]!;
      sent.push(`${name}#${i}`);
      c.push(name, i);
      advance(1);
    }
    advance(100);
    const received = deliveries.flatMap((d) => d.items.map(([name, payload]) => `${name}#${String(payload)}`));
    expect(received).toEqual(sent);
  });

  it('delivers at most once per interval under a flood, and nothing is lost', () => {
    const { c, deliveries, advance } = setup(17);
    let pushed = 0;
    // Four sessions at 250 updates/s each plus inspector rows: an event every 0.5 ms for 3 s.
    for (let t = 0; t < 3000; t++) {
      c.push('session/patches', pushed++);
      c.push('inspector/appended', pushed++);
      advance(1);
    }
    advance(100);
    expect(deliveries.flatMap((d) => d.items)).toHaveLength(pushed);
    for (let i = 1; i < deliveries.length; i++) expect(deliveries[i]!.at - deliveries[i - 1]!.at).toBeGreaterThanOrEqual(17);
    // The busiest second carries at most 1000 / 17 ≈ 59 deliveries.
    for (let s = 0; s + 1000 <= 3000; s += 100) expect(deliveries.filter((d) => d.at >= s && d.at < s + 1000).length).toBeLessThanOrEqual(59);
    expect(deliveries.length).toBeGreaterThan(150); // it does keep delivering (3 s / 17 ms)
  });

  it('delivers on a push when its timer is late (a busy event loop), still at most once per interval', () => {
    const { c, deliveries, drain, stall } = setup(17);
    c.push('a', 1);
    drain(); // the first one at once; the next waits for a timer at 17 ms
    c.push('b', 2);
    stall(10); // one long job: the clock moves, no timer runs
    c.push('c', 3);
    expect(deliveries).toHaveLength(1); // 10 ms after the last delivery: too early
    stall(30);
    c.push('d', 4); // 40 ms: the timer is late, so this push delivers
    expect(deliveries.map((d) => [d.at, d.items])).toEqual([
      [0, [['a', 1]]],
      [40, [['b', 2], ['c', 3], ['d', 4]]],
    ]);
  });

  it('after a delivery, the next event waits for the rest of the interval', () => {
    const { c, deliveries, advance, drain } = setup(17);
    c.push('a', 1);
    drain();
    advance(5);
    c.push('b', 2);
    advance(11);
    expect(deliveries).toHaveLength(1);
    advance(1);
    expect(deliveries.map((d) => [d.at, d.items])).toEqual([
      [0, [['a', 1]]],
      [17, [['b', 2]]],
    ]);
    advance(40); // quiet again: the next one goes at once
    c.push('c', 3);
    drain();
    expect(deliveries.at(-1)).toEqual({ at: 57, items: [['c', 3]] });
  });

  it('flush() delivers what is pending at once (before an answer) and cancels the planned delivery', () => {
    const { c, deliveries, advance, drain } = setup(17);
    c.push('a', 1);
    drain();
    c.push('b', 2);
    c.flush();
    expect(deliveries.map((d) => d.items)).toEqual([[['a', 1]], [['b', 2]]]);
    advance(100);
    expect(deliveries).toHaveLength(2); // the cancelled timer sends no empty or duplicate message
    c.flush();
    expect(deliveries).toHaveLength(2);
  });

  it('sends nothing after dispose', () => {
    const { c, deliveries, advance } = setup();
    c.push('a', 1);
    c.dispose();
    c.push('b', 2);
    advance(100);
    expect(deliveries).toHaveLength(0);
  });
});
