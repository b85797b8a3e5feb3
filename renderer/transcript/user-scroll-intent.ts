/**
 * The reader moving a scroller themself — wheel, touch, a press on its scrollbar, a navigation key —
 * as opposed to the app writing its offset. The virtualizer keeps re-writing the offset of a
 * scroll-to-end for up to 5 s while row heights settle, and an outside scroll cancels it only before
 * its first write; a reader who scrolls up while a long transcript opens must win (issue #11's
 * byte-bounded loading makes that window longer).
 */
const NAVIGATION_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

export function onUserScrollIntent(scroller: EventTarget, handler: () => void): () => void {
  const wheelOrTouch = () => handler();
  const pointer = (e: Event) => {
    if (e.target === scroller) handler(); // the scrollbar (a press on a row is not a scroll)
  };
  const key = (e: Event) => {
    if (NAVIGATION_KEYS.has((e as KeyboardEvent).key)) handler();
  };
  const passive = { passive: true } as const;
  scroller.addEventListener('wheel', wheelOrTouch, passive);
  scroller.addEventListener('touchstart', wheelOrTouch, passive);
  scroller.addEventListener('pointerdown', pointer, passive);
  scroller.addEventListener('keydown', key);
  return () => {
    scroller.removeEventListener('wheel', wheelOrTouch);
    scroller.removeEventListener('touchstart', wheelOrTouch);
    scroller.removeEventListener('pointerdown', pointer);
    scroller.removeEventListener('keydown', key);
  };
}
