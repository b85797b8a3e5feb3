import { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { knownMaxScrollOffset, knownScrollExtent, styledHeight, type PaneLayout } from './known-scroll-extent';

type V = Virtualizer<HTMLDivElement, Element>;

function virtualizer(count: number, size: number): V {
  return new Virtualizer<HTMLDivElement, Element>({
    count,
    estimateSize: () => size,
    getScrollElement: () => null,
    scrollToFn: () => undefined,
    observeElementRect: () => undefined,
    observeElementOffset: () => undefined,
    paddingStart: 8,
    paddingEnd: 16,
  });
}

/** What the virtualizer asks for when it follows the end or checks a write (private in its types). */
const maxOffset = (v: V) => (v as unknown as { getMaxScrollOffset(): number }).getMaxScrollOffset();

/** A scroller whose layout reads are counted (each would force a layout in a browser). */
function scroller(scrollHeight: number, clientHeight: number) {
  const reads = { n: 0 };
  const el = {
    get scrollHeight() {
      reads.n++;
      return scrollHeight;
    },
    get clientHeight() {
      reads.n++;
      return clientHeight;
    },
  };
  return { el: el as unknown as HTMLDivElement, reads };
}

/**
 * A pane with the known extent installed, whose size reports and scroll events the test sends by
 * hand (as the resize observer and the scroll listener would).
 */
function pane(layout: PaneLayout, dom: { scrollHeight: number; clientHeight: number }) {
  const v = virtualizer(100, 30);
  const extent = knownScrollExtent(layout);
  expect(extent.install(v)).toBe(true);
  const { el, reads } = scroller(dom.scrollHeight, dom.clientHeight);
  (v as unknown as { scrollElement: unknown }).scrollElement = el;
  let reportRect: (rect: { width: number; height: number }) => void = () => undefined;
  extent.observeRect((_, cb) => void (reportRect = cb))(v, (rect) => (v.scrollRect = rect));
  let scrollEvent: (offset: number) => void = () => undefined;
  let seenInEvent: number | undefined;
  extent.observeOffset((_, cb) => void (scrollEvent = (offset) => cb(offset, true)))(v, () => (seenInEvent = maxOffset(v)));
  return {
    v,
    reads,
    report: (height: number) => reportRect({ width: 400, height }),
    scrolled: (offset: number) => {
      scrollEvent(offset);
      return seenInEvent;
    },
  };
}

describe('the transcript scroller’s extent without a layout', () => {
  it('is the content’s height less the viewport, in whole pixels, never below 0', () => {
    expect(knownMaxScrollOffset(12_345.6, 700)).toBe(11_646);
    expect(knownMaxScrollOffset(300, 700)).toBe(0);
  });

  it('reads a committed height from an inline style, not from the layout', () => {
    expect(styledHeight({ style: { height: '3024.5px' } })).toBe(3024.5);
    expect(styledHeight({ style: { height: '' } })).toBeNull();
    expect(styledHeight(null)).toBeNull();
  });

  it('replaces the virtualizer’s layout read while the pane knows its content height, and reads the layout otherwise', () => {
    let content: number | null = 3_024;
    const p = pane({ contentHeight: () => content, viewportKey: () => false }, { scrollHeight: 5_000, clientHeight: 600 });
    p.report(600);
    expect(maxOffset(p.v)).toBe(3_024 - 600);
    expect(p.reads.n).toBe(0);
    content = null; // e.g. the empty-session hint shows below the rows: ask the layout
    expect(maxOffset(p.v)).toBe(5_000 - 600);
    expect(p.reads.n).toBe(2);
  });

  it('asks the layout before the scroller’s size was ever reported', () => {
    const p = pane({ contentHeight: () => 1_000, viewportKey: () => false }, { scrollHeight: 400, clientHeight: 200 });
    p.v.scrollRect = { width: 400, height: 200 };
    expect(maxOffset(p.v)).toBe(200);
    expect(p.reads.n).toBe(2);
  });

  it('asks the layout once the pane changed what shapes its viewport, until the next size report', () => {
    // The "Jump to latest" button hides in the commit that scrolls to the end: the viewport is 35 px
    // taller than last reported, and an end computed from the old viewport lies past the true end.
    let jumpShown = true;
    const p = pane({ contentHeight: () => 3_367, viewportKey: () => jumpShown }, { scrollHeight: 3_367, clientHeight: 540 });
    p.report(505);
    expect(maxOffset(p.v)).toBe(3_367 - 505);
    jumpShown = false;
    expect(maxOffset(p.v)).toBe(3_367 - 540);
    expect(p.reads.n).toBe(2);
    p.report(540);
    expect(maxOffset(p.v)).toBe(3_367 - 540);
    expect(p.reads.n).toBe(2);
  });

  it('reads the layout for a scroll event past the known extent: a row grown since the commit may run past the sizer', () => {
    const p = pane({ contentHeight: () => 3_000, viewportKey: () => false }, { scrollHeight: 3_080, clientHeight: 500 });
    p.report(500);
    expect(p.scrolled(2_400)).toBe(2_500); // within the known extent: no read
    expect(p.reads.n).toBe(0);
    expect(p.scrolled(2_580)).toBe(2_580); // past it: the layout says how far the scroller reaches
    expect(p.reads.n).toBe(2);
    expect(maxOffset(p.v)).toBe(2_500); // outside the event: the committed extent again
    expect(p.reads.n).toBe(2);
  });

  it('leaves a virtualizer without the member alone (a version that renamed it reads the layout as before)', () => {
    const v = virtualizer(10, 30);
    delete (v as unknown as Record<string, unknown>)._elementMaxScrollOffset;
    expect(knownScrollExtent({ contentHeight: () => 1_000, viewportKey: () => false }).install(v)).toBe(false);
  });
});
