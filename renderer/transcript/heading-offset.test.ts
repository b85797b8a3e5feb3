import { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { headingOffset, scrollingToEnd } from './heading-offset';

/** A virtualizer over a fake scroller: its writes are recorded, its frames run by hand. */
function pane() {
  const writes: number[] = [];
  const frames: (() => void)[] = [];
  const win = { requestAnimationFrame: (cb: () => void) => frames.push(cb), cancelAnimationFrame: () => undefined };
  const el = { scrollHeight: 3_000, clientHeight: 500, scrollTop: 0, ownerDocument: { defaultView: win } };
  const v = new Virtualizer<HTMLDivElement, Element>({
    count: 100,
    estimateSize: () => 30,
    getScrollElement: () => el as unknown as HTMLDivElement,
    scrollToFn: (offset) => void writes.push(offset),
    observeElementRect: (_, cb) => cb({ width: 400, height: 500 }),
    observeElementOffset: () => undefined,
    initialOffset: 1_200,
  });
  v._willUpdate();
  return { v, writes };
}

describe('where a pane’s scroll is heading', () => {
  it('is the offset last read while no scroll is in flight', () => {
    const { v } = pane();
    expect(scrollingToEnd(v)).toBe(false);
    expect(headingOffset(v)).toBe(1_200);
  });

  it('is the end, and the written target, while a scroll to the end has not been read back', () => {
    const { v, writes } = pane();
    v.scrollToEnd();
    expect(writes.at(-1)).toBe(2_500);
    expect(scrollingToEnd(v)).toBe(true);
    expect(headingOffset(v)).toBe(2_500); // the scroll event saying so has not come yet
    expect(v.scrollOffset).toBe(1_200);
  });

  it('is where the reader left it once their scroll ends the one to the end', () => {
    const { v } = pane();
    v.scrollToEnd();
    v.cancelScroll();
    expect(scrollingToEnd(v)).toBe(false);
    expect(headingOffset(v)).toBe(1_200);
  });

  it('is not the end for a scroll to an offset', () => {
    const { v } = pane();
    v.scrollToOffset(600);
    expect(scrollingToEnd(v)).toBe(false);
    expect(headingOffset(v)).toBe(600);
  });
});
