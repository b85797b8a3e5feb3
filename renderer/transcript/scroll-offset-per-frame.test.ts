import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFrameBatch } from './frame-batch';
import { observeOffsetPerFrame } from './scroll-offset-per-frame';

function scroller(top: number) {
  return Object.assign(new EventTarget(), { scrollTop: top });
}

describe('a pane scroll offset read once per frame', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports nothing in the scroll event; in the frame, every scrolled pane its offset at that time, as scrolling', () => {
    const frames: (() => void)[] = [];
    let commits = 0;
    const batch = createFrameBatch((run) => frames.push(run), (apply) => (commits++, apply()));
    const observe = observeOffsetPerFrame(batch);
    const a = scroller(1000);
    const b = scroller(2000);
    const seen: string[] = [];
    const offA = observe({ scrollElement: a, options: { isScrollingResetDelay: 150 } }, (o, s) => seen.push(`a ${o} ${s}`));
    observe({ scrollElement: b, options: { isScrollingResetDelay: 150 } }, (o, s) => seen.push(`b ${o} ${s}`));
    a.dispatchEvent(new Event('scroll'));
    b.dispatchEvent(new Event('scroll'));
    a.scrollTop = 600; // moved again before the frame: the frame reads where it is now
    a.dispatchEvent(new Event('scroll'));
    expect(seen).toEqual([]);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(seen).toEqual(['a 600 true', 'b 2000 true']);
    expect(commits).toBe(1);
    // Still once no scroll came for the reset delay.
    vi.advanceTimersByTime(150);
    expect(seen.slice(2).sort()).toEqual(['a 600 false', 'b 2000 false']);
    // After disposal a scroll schedules nothing.
    offA?.();
    a.dispatchEvent(new Event('scroll'));
    expect(frames).toHaveLength(0);
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveLength(4);
  });

  it('settling drops a frame job still pending, so "scrolling" never comes after "still"', () => {
    const frames: (() => void)[] = [];
    const batch = createFrameBatch((run) => frames.push(run), (apply) => apply());
    const a = scroller(10);
    const seen: string[] = [];
    observeOffsetPerFrame(batch)({ scrollElement: a, options: { isScrollingResetDelay: 150 } }, (o, s) => seen.push(`${o} ${s}`));
    a.dispatchEvent(new Event('scroll'));
    vi.advanceTimersByTime(150); // no frame ran meanwhile (a hidden window)
    frames.shift()?.();
    expect(seen).toEqual(['10 false']);
  });

  it('observes nothing without a scroll element', () => {
    const batch = createFrameBatch(() => undefined, (apply) => apply());
    expect(observeOffsetPerFrame(batch)({ scrollElement: null, options: { isScrollingResetDelay: 150 } }, () => undefined)).toBeUndefined();
  });
});
