import { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { installKnownScrollExtent, knownMaxScrollOffset, styledHeight } from './known-scroll-extent';

function virtualizer(count: number, size: number) {
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
const maxOffset = (v: Virtualizer<HTMLDivElement, Element>) => (v as unknown as { getMaxScrollOffset(): number }).getMaxScrollOffset();

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
    const v = virtualizer(100, 30);
    const { el, reads } = scroller(5_000, 600);
    let content: number | null = 3_024;
    expect(installKnownScrollExtent(v, () => content)).toBe(true);
    (v as unknown as { scrollElement: unknown }).scrollElement = el;
    v.scrollRect = { width: 400, height: 600 };
    expect(maxOffset(v)).toBe(3_024 - 600);
    expect(reads.n).toBe(0);
    content = null; // e.g. the empty-session hint shows below the rows: ask the layout
    expect(maxOffset(v)).toBe(5_000 - 600);
    expect(reads.n).toBe(2);
  });

  it('asks the layout before the scroller’s size is known', () => {
    const v = virtualizer(10, 30);
    const { el, reads } = scroller(400, 200);
    installKnownScrollExtent(v, () => 1_000);
    (v as unknown as { scrollElement: unknown }).scrollElement = el;
    v.scrollRect = null;
    expect(maxOffset(v)).toBe(200);
    expect(reads.n).toBe(2);
  });

  it('leaves a virtualizer without the member alone (a version that renamed it reads the layout as before)', () => {
    const v = virtualizer(10, 30);
    delete (v as unknown as Record<string, unknown>)._elementMaxScrollOffset;
    expect(installKnownScrollExtent(v, () => 1_000)).toBe(false);
  });
});
