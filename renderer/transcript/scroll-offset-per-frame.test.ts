import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFrameBatch } from './frame-batch';
import { observeOffsetPerFrame } from './scroll-offset-per-frame';

function scroller(top: number) {
  return Object.assign(new EventTarget(), { scrollTop: top });
}

function setup() {
  const frames: (() => void)[] = [];
  let commits = 0;
  const batch = createFrameBatch((run) => frames.push(run), (apply) => (commits++, apply()));
  const seen: string[] = [];
  const observe = (name: string, element: ReturnType<typeof scroller>) =>
    observeOffsetPerFrame(batch)({ scrollElement: element, options: { isScrollingResetDelay: 150 } }, (o, s) =>
      seen.push(`${name} ${o} ${s}${batch.deferring ? ' deferred' : ''}${batch.applying ? ' in frame' : ''}`),
    );
  return { frames, seen, observe, commits: () => commits };
}

describe('a pane scroll offset, its render once per frame', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands the offset over in the scroll event, deferred; in the frame only an offset that moved since, in one commit', () => {
    const h = setup();
    const a = scroller(1000);
    const b = scroller(2000);
    const offA = h.observe('a', a);
    h.observe('b', b);
    a.dispatchEvent(new Event('scroll'));
    b.dispatchEvent(new Event('scroll'));
    expect(h.seen).toEqual(['a 1000 true deferred', 'b 2000 true deferred']);
    a.scrollTop = 600; // moved again before the frame (the frame's own step): the frame hands it over
    expect(h.frames).toHaveLength(1);
    h.frames.shift()!();
    expect(h.seen.slice(2)).toEqual(['a 600 true in frame']);
    expect(h.commits()).toBe(1);
    // Still once no scroll came for the reset delay.
    vi.advanceTimersByTime(150);
    expect(h.seen.slice(3).sort()).toEqual(['a 600 false', 'b 2000 false']);
    // After disposal a scroll does nothing.
    offA?.();
    a.dispatchEvent(new Event('scroll'));
    expect(h.frames).toHaveLength(0);
    vi.advanceTimersByTime(1000);
    expect(h.seen).toHaveLength(5);
  });

  it('settling drops a frame job still pending, so "scrolling" never comes after "still"', () => {
    const h = setup();
    const a = scroller(10);
    h.observe('a', a);
    a.dispatchEvent(new Event('scroll'));
    a.scrollTop = 20;
    vi.advanceTimersByTime(150); // no frame ran meanwhile (a hidden window)
    h.frames.shift()?.();
    expect(h.seen).toEqual(['a 10 true deferred', 'a 20 false']);
  });

  it('observes nothing without a scroll element', () => {
    const batch = createFrameBatch(() => undefined, (apply) => apply());
    expect(observeOffsetPerFrame(batch)({ scrollElement: null, options: { isScrollingResetDelay: 150 } }, () => undefined)).toBeUndefined();
  });
});
