import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../common/api/wire';
import { PatchBatcher, SESSION_BATCH_MS } from '../sessions/patch-batcher';
import { EVENT_ACK_WINDOW, EventCoalescer } from './event-coalescer';

/** A coalescer on a fake clock: `advance(ms)` runs the timers due, `drain()` the queued microtasks, `stall(ms)` runs nothing. */
function setup(intervalMs = 17, acknowledged = false, collect?: () => void) {
  let now = 0;
  let timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let micro: Array<() => void> = [];
  let nextId = 1;
  const deliveries: Array<{ at: number; items: WireEvent[]; n: number }> = [];
  const c = new EventCoalescer({
    intervalMs,
    acknowledged,
    ...(collect ? { collect: () => collect() } : {}),
    deliver: (items, n) => deliveries.push({ at: now, items, n }),
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
  /** Timers and clock of this setup, for a second batcher on the same clock. */
  const clock = {
    now: () => now,
    setTimer: (fn: () => void, ms: number) => {
      const t = { at: now + ms, fn, id: nextId++ };
      timers.push(t);
      return t.id;
    },
    clearTimer: (id: unknown) => void (timers = timers.filter((t) => t.id !== id)),
  };
  return { c, deliveries, drain, advance, stall, clock };
}

/**
 * A session's patch batcher (16 ms unless said) feeding a window's coalescer (20 ms; a window that
 * keeps up), as the core and the WebSocket bridge do, on one fake clock; with `collecting`, each
 * delivery takes the batcher's pending patches along (`collect`, the bridge's `core.release()`).
 */
function twoStages(collecting: boolean, batchMs = 16) {
  let batcher: PatchBatcher<number> | undefined;
  const t = setup(20, false, collecting ? () => batcher!.flushNow() : undefined);
  batcher = new PatchBatcher<number>({ deliver: (patches) => t.c.push('session/patches', patches), intervalMs: batchMs, ...t.clock });
  /** Each patch's wait from its push to the delivery that carried it. */
  const waits = () => {
    const out: number[] = [];
    for (const d of t.deliveries) {
      for (const [, patches] of d.items) for (const p of patches as number[]) out.push(d.at - p);
    }
    return out;
  };
  return { ...t, batcher, waits };
}

describe('EventCoalescer', () => {
  it('sends the first event after a quiet spell at once, with whatever was emitted in the same job', () => {
    const { c, deliveries, drain } = setup();
    c.push('session/status', { a: 1 });
    c.push('session/patches', { b: 2 });
    expect(deliveries).toHaveLength(0); // not inside the emitting job...
    drain(); // ...but right after it, without waiting for a timer
    expect(deliveries).toEqual([{ at: 0, items: [['session/status', { a: 1 }], ['session/patches', { b: 2 }]], n: 1 }]);
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
    expect(deliveries.at(-1)).toEqual({ at: 57, items: [['c', 3]], n: 3 });
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

  it('a delivery takes what `collect` pushes along: in the same message, no extra delivery', () => {
    let collected = 0;
    const t = setup(17, false, () => {
      collected++;
      t.c.push('late', collected); // what the core held back, released as the delivery leaves
    });
    t.c.push('a', 1);
    t.drain();
    t.advance(5);
    t.c.push('b', 2);
    t.advance(100);
    expect(t.deliveries.map((d) => [d.at, d.n, d.items])).toEqual([
      [0, 1, [['a', 1], ['late', 1]]],
      [17, 2, [['b', 2], ['late', 2]]],
    ]);
    t.c.flush(); // an answer's flush collects too; nothing pending but what it pushes
    expect(t.deliveries.at(-1)).toEqual({ at: 105, n: 3, items: [['late', 3]] });
    expect(collected).toBe(3);
  });

  it('with `collect`, a session\'s patch waits for the window\'s delivery only, not for its batcher first', () => {
    const run = (collecting: boolean) => {
      const t = twoStages(collecting);
      // A patch every 4 ms (a session at 250 updates/s) for 2 s, each numbered by the time it was made.
      for (let at = 0; at < 2000; at += 4) {
        t.batcher.push([at]);
        t.advance(4);
      }
      t.advance(100);
      const waits = t.waits();
      expect(waits).toHaveLength(500); // nothing lost either way
      return { waits, deliveries: t.deliveries.length };
    };
    const two = run(false);
    const one = run(true);
    // Without it a patch can wait for its batcher's 16 ms and then for the window's 20 ms.
    expect(Math.max(...two.waits)).toBeGreaterThan(20);
    // With it no patch waits longer than the window's interval, and the window gets no more messages.
    expect(Math.max(...one.waits)).toBeLessThanOrEqual(20);
    expect(one.deliveries).toBeLessThanOrEqual(two.deliveries);
  });

  it('a session batcher at its default interval (shorter than a frame) leaves the window\'s messages as many and as far apart, with the same patches in the same order', () => {
    const run = (batchMs: number) => {
      const t = twoStages(true, batchMs);
      // A flood: 30 patches every 2 ms for 2 s (a session at 15,000 updates/s), then a trickle.
      let n = 0;
      for (let at = 0; at < 2000; at += 2) {
        t.batcher.push(Array.from({ length: 30 }, () => n++));
        t.advance(2);
      }
      for (let at = 0; at < 500; at += 50) {
        t.batcher.push([n++]);
        t.advance(50);
      }
      t.advance(100);
      const gaps = t.deliveries.slice(1).map((d, i) => d.at - t.deliveries[i]!.at);
      const patches = t.deliveries.flatMap((d) => d.items.flatMap(([, p]) => p as number[]));
      const events = t.deliveries.reduce((sum, d) => sum + d.items.length, 0);
      return { deliveries: t.deliveries.length, minGap: Math.min(...gaps), patches, events, n };
    };
    const frame = run(16);
    const short = run(SESSION_BATCH_MS);
    expect(short.patches).toEqual(Array.from({ length: short.n }, (_, i) => i)); // nothing lost, nothing reordered
    expect(short.patches).toEqual(frame.patches);
    expect(short.minGap).toBeGreaterThanOrEqual(20); // the window's pace, whatever the batcher's
    expect(short.deliveries).toBeLessThanOrEqual(frame.deliveries);
    expect(short.events).toBeGreaterThan(frame.events); // the same patches in more, smaller batches
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

describe('EventCoalescer for a window that acknowledges its deliveries', () => {
  /** Makes EVENT_ACK_WINDOW deliveries, none acknowledged, one per interval from t = 0. */
  const fillWindow = (t: ReturnType<typeof setup>) => {
    for (let i = 1; i <= EVENT_ACK_WINDOW; i++) {
      t.c.push('w', i);
      t.advance(20);
    }
    expect(t.deliveries.map((d) => d.n)).toEqual(Array.from({ length: EVENT_ACK_WINDOW }, (_, i) => i + 1));
  };

  it('holds the next delivery while the window of unacknowledged ones is full, however long past the interval', () => {
    const t = setup(20, true);
    fillWindow(t);
    t.c.push('b', 2);
    t.advance(200); // the window is busy: no acknowledgement yet
    t.c.push('c', 3);
    t.advance(200);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW);
    t.c.acknowledge(1); // one slot free
    t.drain();
    expect(t.deliveries.at(-1)).toEqual({ at: 20 * EVENT_ACK_WINDOW + 400, n: EVENT_ACK_WINDOW + 1, items: [['b', 2], ['c', 3]] }); // everything held, in one delivery
    t.c.push('d', 4);
    t.advance(100);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW + 1); // full again
  });

  it('still keeps the interval after an acknowledgement', () => {
    const t = setup(20, true);
    fillWindow(t); // deliveries at 0, 20, 40, 60; now 80
    t.c.acknowledge(EVENT_ACK_WINDOW);
    t.c.push('x', 1);
    t.drain();
    expect(t.deliveries.at(-1)!.at).toBe(80);
    t.advance(2);
    t.c.acknowledge(EVENT_ACK_WINDOW + 1);
    t.c.push('b', 2);
    t.advance(17);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW + 1);
    t.advance(1);
    expect(t.deliveries.at(-1)).toEqual({ at: 100, n: EVENT_ACK_WINDOW + 2, items: [['b', 2]] });
  });

  it('a stale acknowledgement does not free a slot; one beyond what was delivered counts as all', () => {
    const t = setup(20, true);
    fillWindow(t);
    t.c.acknowledge(0);
    t.c.push('b', 2);
    t.advance(100);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW);
    t.c.acknowledge(1);
    t.drain();
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW + 1);
    t.c.acknowledge(1); // again: nothing new
    t.c.push('c', 3);
    t.advance(100);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW + 1);
    t.c.acknowledge(99); // counts as every delivery so far: a whole window free
    t.drain();
    for (let i = 0; i < EVENT_ACK_WINDOW + 2; i++) {
      t.c.push('more', i);
      t.advance(20);
    }
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW + 1 + EVENT_ACK_WINDOW); // c, then a window's worth
  });

  it('a window silent for a second gets the next delivery anyway (it may have reloaded), and acknowledging that one resumes', () => {
    const t = setup(20, true);
    fillWindow(t); // the last delivery at 60; now 80
    t.c.push('b', 2);
    t.advance(979);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW);
    t.advance(1);
    expect(t.deliveries.at(-1)).toEqual({ at: 1060, n: EVENT_ACK_WINDOW + 1, items: [['b', 2]] });
    t.c.acknowledge(EVENT_ACK_WINDOW + 1); // the reloaded page acknowledges what it received
    t.advance(30);
    t.c.push('c', 3);
    t.drain();
    expect(t.deliveries.at(-1)).toEqual({ at: 1090, n: EVENT_ACK_WINDOW + 2, items: [['c', 3]] });
  });

  it('a page that starts listening (a reload) frees the whole window at once: its predecessor will never acknowledge', () => {
    const t = setup(20, true);
    fillWindow(t); // now 80, nothing acknowledged
    t.c.push('b', 2);
    t.advance(100);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW); // held, as for a busy window
    t.c.acknowledgeAll();
    t.drain();
    expect(t.deliveries.at(-1)).toEqual({ at: 180, n: EVENT_ACK_WINDOW + 1, items: [['b', 2]] }); // not at 1060
    for (let i = 0; i < EVENT_ACK_WINDOW - 1; i++) {
      t.c.push('more', i);
      t.advance(20);
    }
    expect(t.deliveries).toHaveLength(2 * EVENT_ACK_WINDOW); // a whole window again for the new page
    t.c.push('held', 0);
    t.advance(100);
    expect(t.deliveries).toHaveLength(2 * EVENT_ACK_WINDOW); // ...and no more: it counts from there
    t.c.acknowledge(2 * EVENT_ACK_WINDOW);
    t.drain();
    expect(t.deliveries.at(-1)!.items).toEqual([['held', 0]]);
  });

  it('acknowledgeAll on a coalescer without acknowledgements changes nothing', () => {
    const t = setup(20, false);
    t.c.push('a', 1);
    t.c.acknowledgeAll();
    t.drain();
    t.c.push('b', 2);
    t.advance(19);
    expect(t.deliveries.map((d) => d.items)).toEqual([[['a', 1]]]); // the interval holds as before
    t.advance(1);
    expect(t.deliveries).toHaveLength(2);
  });

  it('flush() before an answer ignores the hold; nothing is lost or repeated', () => {
    const t = setup(20, true);
    fillWindow(t);
    t.c.push('b', 2);
    t.c.flush();
    expect(t.deliveries.at(-1)!.n).toBe(EVENT_ACK_WINDOW + 1);
    t.c.push('c', 3);
    t.c.acknowledge(1); // still a full window (5 delivered, 1 acknowledged)
    t.advance(100);
    expect(t.deliveries).toHaveLength(EVENT_ACK_WINDOW + 1);
    t.c.acknowledge(2);
    t.drain();
    expect(t.deliveries.flatMap((d) => d.items.map(([name]) => name))).toEqual([...Array(EVENT_ACK_WINDOW).fill('w'), 'b', 'c']);
  });

  it('a window that reads late receives at most 54 messages in any second', () => {
    // The window reads (and acknowledges) only every 700 ms, then all it got at once.
    const t = setup(20, true);
    const received: number[] = [];
    let read = 0;
    for (let ms = 0; ms < 5000; ms++) {
      t.c.push('flood', ms);
      t.advance(1);
      if (ms % 700 === 699) {
        for (let i = read; i < t.deliveries.length; i++) received.push(ms);
        read = t.deliveries.length;
        if (read) t.c.acknowledge(t.deliveries[read - 1]!.n);
      }
    }
    for (let s = 0; s + 1000 <= 5000; s += 10) expect(received.filter((at) => at >= s && at < s + 1000).length).toBeLessThanOrEqual(54);
    expect(received.length).toBeGreaterThan(20); // it does keep delivering
    t.c.acknowledge(t.deliveries.at(-1)!.n);
    t.advance(100);
    expect(t.deliveries.flatMap((d) => d.items.map(([, ms]) => ms))).toEqual(Array.from({ length: 5000 }, (_, i) => i)); // nothing lost, in order
  });
});
