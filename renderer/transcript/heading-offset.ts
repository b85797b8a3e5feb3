/**
 * Where a pane's scroll is heading, for its "at the latest entry" test: a scroll to the end still
 * in flight counts as at the end, and a written scroll not yet read back counts at its target.
 *
 * A pane that follows the stream scrolls to the new end in the commit that grew its list; the
 * scroll event that reports the new offset comes a frame later, and rows measured meanwhile (their
 * real heights replacing the estimates) move the end further while the virtualizer's scroll to the
 * end is still settling (it retargets each frame until the offset holds). A render in between that
 * judged "at the end" by the offset last read saw the pane short of its end: "Jump to latest"
 * flashed in and out while the pane followed (26 times in 35 streamed entries of an e2e run), and
 * each flash resized the scroller. The reader scrolling themself ends the virtualizer's scroll
 * (user-scroll-intent.ts), so this never holds a pane the reader moved "at the end".
 */
import type { Virtualizer } from '@tanstack/react-virtual';

/** The virtualizer's scroll command (private members of @tanstack/virtual-core 3.19). */
interface ScrollCommand {
  scrollState?: { toEnd?: boolean } | null;
  getCommandWrittenOffset?: () => number | null;
}

/** True while the virtualizer's scroll to the end has not settled. */
export function scrollingToEnd(virtualizer: Virtualizer<HTMLDivElement, Element>): boolean {
  return (virtualizer as unknown as ScrollCommand).scrollState?.toEnd === true;
}

/** The target of a written scroll not yet read back, else the offset last read. */
export function headingOffset(virtualizer: Virtualizer<HTMLDivElement, Element>): number {
  const written = (virtualizer as unknown as ScrollCommand).getCommandWrittenOffset?.() ?? null;
  return written ?? virtualizer.scrollOffset ?? 0;
}
