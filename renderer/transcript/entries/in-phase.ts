/**
 * Puts an element's CSS animations in phase with the document timeline (start time 0), so that
 * every copy of a looping animation — the spinners of the in-progress tool cards in 4 streaming
 * panes — changes at the same moments. A stepped spinner (8 steps a second) asks for a frame only
 * when it changes: 4 spinners out of phase asked for up to 32 frames a second, in phase for 8
 * (issue #11, docs/performance.md § 3). The alignment runs in a task of its own after the element
 * is mounted: `getAnimations()` needs the element's style, which is clean by then (no forced style
 * recalculation in React's commit).
 */

/** What this needs of an element (a subset of `Element`, so it can be tested without a DOM). */
export interface Animated {
  isConnected: boolean;
  getAnimations?: () => Array<{ startTime: number | null | CSSNumberish }>;
}

export function alignToTimeline(element: Animated | null, later: (run: () => void) => void = (run) => setTimeout(run, 0)): void {
  if (!element?.getAnimations) return;
  later(() => {
    if (!element.isConnected) return;
    for (const animation of element.getAnimations!()) animation.startTime = 0;
  });
}
