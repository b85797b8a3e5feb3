/**
 * The transcript scroller's largest scroll offset without asking the layout for it. The virtualizer
 * reads `scrollHeight - clientHeight` of its scroller whenever it follows the end, checks a write
 * for clamping, or handles a scroll event; each read in a commit full of new rows forces a layout
 * in the middle of it, and a window streaming into 4 panes spent a sixth of its renderer time there
 * (docs/performance.md § 3, ninth pass). A transcript pane knows the answer: once it has entries
 * its scroller holds the rows' sizer alone (`contain: strict`, no padding or border), so its content
 * is as tall as the height the last commit gave the sizer — read from the sizer's inline style, not
 * its layout (the virtualizer's own total may already count rows measured since, which the DOM
 * does not have yet: a scroll to that end would be clamped) — and its viewport is as tall as the
 * resize observer last reported. Where that does not hold (no entries yet, the empty-session hint
 * below the rows, no size reported yet) the virtualizer reads the layout as before.
 */
import type { Virtualizer } from '@tanstack/react-virtual';

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

/**
 * Makes the virtualizer take its scroller's largest offset from `contentHeight()` (the sizer's
 * committed height while the scroller holds it alone, else null) and the viewport it was told
 * about. Returns false (and changes nothing) when this version of the virtualizer has no such
 * member to replace.
 */
export function installKnownScrollExtent(virtualizer: Virtualizer<HTMLDivElement, Element>, contentHeight: () => number | null): boolean {
  const target = virtualizer as unknown as ElementMax;
  const read = target._elementMaxScrollOffset;
  if (typeof read !== 'function') return false;
  target._elementMaxScrollOffset = () => {
    const rect = virtualizer.scrollRect;
    const content = virtualizer.scrollElement && rect && rect.height > 0 ? contentHeight() : null;
    return content === null ? read() : knownMaxScrollOffset(content, rect!.height);
  };
  return true;
}
