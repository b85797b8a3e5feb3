/**
 * The transcript scroller's largest scroll offset without asking the layout for it. The virtualizer
 * reads `scrollHeight - clientHeight` of its scroller whenever it follows the end or checks a write
 * for clamping; each read in a commit full of new rows forces a layout in the middle of it, and a
 * window streaming into 4 panes spent a sixth of its renderer time there (docs/performance.md § 3).
 *
 * A transcript pane knows the answer: once it has entries its scroller holds the rows' sizer alone
 * (`contain: strict`, no padding or border), so its content is as tall as the height the last commit
 * gave the sizer — read from the sizer's inline style, not its layout — and its viewport is as tall
 * as the resize observer last reported. Two moments where that is not the truth read the layout as
 * before:
 * - The pane changed its own viewport since the observer last reported: its "Jump to latest" button
 *   sits below the scroller, in the flow, so the commit that hides it makes the viewport taller
 *   before the observer says so. A scroll to the end written in that commit would aim past the end,
 *   land short of it by the button's height — more than the "at the end" threshold — and show the
 *   button again: the pane never followed again. The pane names what shapes its viewport
 *   (`viewportKey`), and the known extent holds only while that is what it was at the last report.
 * - A scroll event whose offset lies past the known extent: the virtualizer takes an offset past
 *   the extent for an overscroll (during which it holds its writes). A row that grew since the last
 *   commit (a streamed chunk re-renders its row alone) can run past the sizer until it is measured,
 *   so the true extent can be larger than the sizer's, and the reader can scroll there. Only then
 *   is the layout read (an offset within the known extent is no overscroll either way): a scroll
 *   event often comes after a streamed commit dirtied the layout, and reading it at every one cost
 *   5 % of the renderer's samples over a 4-pane stream.
 */
import type { Virtualizer } from '@tanstack/react-virtual';

/** What the pane knows of its scroller's layout without reading it. */
export interface PaneLayout {
  /** The scroller's content height by the last commit, or null when the pane does not know it. */
  contentHeight(): number | null;
  /** What else in the pane shapes the scroller's viewport (compared with `===`). */
  viewportKey(): unknown;
}

type RectObserver = (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) => void | (() => void);
type OffsetObserver = (instance: Virtualizer<HTMLDivElement, Element>, cb: (offset: number, isScrolling: boolean) => void) => void | (() => void);

/** `scrollHeight - clientHeight` as the layout would give it: both are whole pixels. */
export function knownMaxScrollOffset(contentHeight: number, viewportHeight: number): number {
  return Math.max(0, Math.round(contentHeight) - Math.round(viewportHeight));
}

/** The height an element's inline style gives it (`"1234.5px"`), or null without one. */
export function styledHeight(element: { style: { height: string } } | null | undefined): number | null {
  const h = element ? Number.parseFloat(element.style.height) : Number.NaN;
  return Number.isFinite(h) ? h : null;
}

/** The virtualizer's own DOM read, replaced per instance (a private member of @tanstack/virtual-core 3.19). */
interface ElementMax {
  _elementMaxScrollOffset?: () => number | null;
}

const NOT_REPORTED = Symbol('not reported');

/**
 * The pieces that give one pane's virtualizer its extent from `layout`: the rect and offset
 * observers wrapped (to note the viewport's key at each size report, and the offset of the scroll
 * event being handled), and `install`, which replaces the virtualizer's read.
 */
export function knownScrollExtent(layout: PaneLayout) {
  let keyAtReport: unknown = NOT_REPORTED;
  // The offset of the scroll event the virtualizer is handling, else null.
  let eventOffset: number | null = null;
  return {
    observeRect:
      (observe: RectObserver): RectObserver =>
      (instance, cb) =>
        observe(instance, (rect) => {
          keyAtReport = layout.viewportKey();
          cb(rect);
        }),
    observeOffset:
      (observe: OffsetObserver): OffsetObserver =>
      (instance, cb) =>
        observe(instance, (offset, isScrolling) => {
          const outer = eventOffset;
          eventOffset = offset;
          try {
            cb(offset, isScrolling);
          } finally {
            eventOffset = outer;
          }
        }),
    /**
     * Makes the virtualizer take its largest offset from the pane's layout where it holds. Returns
     * false (and changes nothing) when this version of the virtualizer has no such member to replace.
     */
    install(virtualizer: Virtualizer<HTMLDivElement, Element>): boolean {
      const target = virtualizer as unknown as ElementMax;
      const read = target._elementMaxScrollOffset;
      if (typeof read !== 'function') return false;
      target._elementMaxScrollOffset = () => {
        const rect = virtualizer.scrollRect;
        const known = virtualizer.scrollElement && rect && keyAtReport === layout.viewportKey();
        const content = known ? layout.contentHeight() : null;
        if (content === null) return read();
        const max = knownMaxScrollOffset(content, rect!.height);
        return eventOffset !== null && eventOffset > max + 1 ? read() : max;
      };
      return true;
    },
  };
}
