/**
 * The virtualizer's `observeElementOffset` for a transcript pane, with the frame batch
 * (frame-batch.ts): a scroll event hands the pane's offset to the virtualizer at once, as
 * "scrolling", inside `defer` (the render it asks for joins the frame's batch); in the frame the
 * offset is read again with the other panes' and handed over if it moved meanwhile (the rows then
 * match the position the frame paints). As the library's own observer (without `scrollend`), the
 * pane counts as still once no scroll event came for `isScrollingResetDelay` ms. Vertical only
 * (transcripts do not scroll sideways).
 */
import type { FrameBatch, FrameJob } from './frame-batch';

/** What the observer needs of the virtualizer (a subset of `Virtualizer`). */
export interface OffsetSource {
  scrollElement: (EventTarget & { scrollTop: number }) | null;
  options: { isScrollingResetDelay: number };
}

export function observeOffsetPerFrame(batch: FrameBatch) {
  return (instance: OffsetSource, cb: (offset: number, isScrolling: boolean) => void): (() => void) | undefined => {
    const element = instance.scrollElement;
    if (!element) return undefined;
    let offset = 0;
    let latest = 0;
    const job: FrameJob = {
      read: () => {
        latest = element.scrollTop;
      },
      apply: () => {
        if (latest === offset) return;
        offset = latest;
        cb(offset, true);
      },
    };
    let still: ReturnType<typeof setTimeout> | undefined;
    const settled = () => {
      batch.cancel(job);
      cb((offset = element.scrollTop), false);
    };
    const onScroll = () => {
      offset = element.scrollTop;
      batch.defer(() => cb(offset, true));
      batch.schedule(job);
      clearTimeout(still);
      still = setTimeout(settled, instance.options.isScrollingResetDelay);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      element.removeEventListener('scroll', onScroll);
      clearTimeout(still);
      batch.cancel(job);
    };
  };
}
