/**
 * The virtualizer's `observeElementOffset` for a transcript pane, through the frame batch
 * (frame-batch.ts): a scroll event schedules the pane; its offset is read with the other panes' in
 * the frame and handed to the virtualizer as "scrolling". As the library's own observer (without
 * `scrollend`), the pane counts as still once no scroll event came for `isScrollingResetDelay` ms.
 * Vertical only (transcripts do not scroll sideways).
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
    const job: FrameJob = {
      read: () => {
        offset = element.scrollTop;
      },
      apply: () => cb(offset, true),
    };
    let still: ReturnType<typeof setTimeout> | undefined;
    const settled = () => {
      batch.cancel(job);
      cb(element.scrollTop, false);
    };
    const onScroll = () => {
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
