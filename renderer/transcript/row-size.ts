/**
 * How the transcript's virtualizer learns a row's height without forcing layout. The library's
 * default reads `offsetHeight` when a row mounts; it then writes the row's position, so every
 * mounted row costs a synchronous layout of the whole pane (write, read, write, read…) — the
 * renderer's largest cost while streaming and while opening a long session (issue #11). Here a
 * mounting row gets its known height (cached by entry id) or the estimate, and the real height
 * comes from the ResizeObserver entry, which the browser delivers after its own layout, before
 * paint: the same frame, no forced layout.
 */
import type { Virtualizer } from '@tanstack/react-virtual';

export function rowSize(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  // A ResizeObserver without box sizes (old engines): its entry is delivered after layout anyway.
  if (entry) return (element as HTMLElement).offsetHeight;
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}
