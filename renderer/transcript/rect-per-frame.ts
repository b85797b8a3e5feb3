/**
 * The virtualizer's `observeElementRect` for a transcript pane, with the frame batch (frame-batch.ts):
 * a size report that comes while the pane scrolls renders it in the next frame's batch instead of in
 * the ResizeObserver callback.
 *
 * The library renders a scrolling pane synchronously whenever its range changes ("sync" while
 * scrolling), and a size report is no exception. The one that comes at every fling's first step is
 * "Jump to latest" appearing below the scroller (it sits in the flow): all four panes stop following
 * in the same frame, so their four ResizeObserver callbacks each rendered and committed their pane
 * (with the wider overscan of a pane not following) after the frame's layout, and each callback
 * after the first forced a layout to read its scroller's size from the DOM the previous one had just
 * changed — a fifth of that frame's main-thread time (issue #11, § 5 seventeenth pass).
 *
 * The viewport is handed to the virtualizer at once (whatever renders meanwhile sees it, as the
 * offset in scroll-offset-per-frame.ts); only the render waits for the next frame, where it joins
 * the other panes' scroll renders. Until then the frame shows the rows of the previous size: for a
 * viewport that shrank (the button appeared) they cover it; one that grew is covered by the overscan
 * below it for a frame. A pane that is still renders as before (the library's render is not
 * synchronous then; a change of height renders it too, which the library would not do).
 */
import type { FrameBatch, FrameJob } from './frame-batch';

/** What the observer needs of the virtualizer (a subset of `Virtualizer`). */
export interface RectTarget {
  isScrolling: boolean;
  scrollRect: { height: number } | null;
}

export type Rect = { width: number; height: number };
export type RectObserver<I> = (instance: I, cb: (rect: Rect) => void) => void | (() => void);

/**
 * `observe` (the library's `observeElementRect`) wrapped for one pane: `render` is the pane's render
 * now, `job` the same render as a job of the frame batch.
 */
export function observeRectPerFrame<I extends RectTarget>(batch: FrameBatch, observe: RectObserver<I>, render: () => void, job: FrameJob): RectObserver<I> {
  return (instance, cb) =>
    observe(instance, (rect) => {
      const before = instance.scrollRect?.height;
      const scrolling = instance.isScrolling;
      if (scrolling) batch.defer(() => cb(rect));
      else cb(rect);
      // A viewport that changed height renders the pane (the library renders only when its range of
      // rows changes): a pane that follows its end then scrolls back to it (TranscriptView.tsx).
      if (before === undefined || rect.height === before) return;
      if (scrolling) batch.schedule(job);
      else render();
    });
}
