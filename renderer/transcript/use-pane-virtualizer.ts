/**
 * The transcript's binding of the virtualizer to React, in place of `useVirtualizer` from
 * `@tanstack/react-virtual`: the same, except that the render a pane's scroll asks for is done with
 * the other panes' once per frame (frame-batch.ts, scroll-offset-per-frame.ts) instead of in its
 * own scroll event. Every other change the virtualizer announces as synchronous (a measured row
 * moved the scroll position, a row grew while following the end) still renders at once, before
 * paint, as the library's hook does.
 */
import { Virtualizer, elementScroll, observeElementRect, type PartialKeys, type VirtualizerOptions } from '@tanstack/react-virtual';
import { useLayoutEffect, useReducer, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { createFrameBatch, type FrameBatch, type FrameJob } from './frame-batch';
import { knownScrollExtent, type PaneLayout } from './known-scroll-extent';
import { observeOffsetPerFrame } from './scroll-offset-per-frame';
import { observeRectPerFrame } from './rect-per-frame';

type Options = PartialKeys<VirtualizerOptions<HTMLDivElement, Element>, 'observeElementRect' | 'observeElementOffset' | 'scrollToFn'>;

/** One batch for every pane of the window (created on first use: the module loads without a DOM in tests). */
let shared: { batch: FrameBatch; observeOffset: ReturnType<typeof observeOffsetPerFrame> } | undefined;
function frameBatch() {
  if (!shared) {
    const batch = createFrameBatch(
      (run) => requestAnimationFrame(run),
      (apply) => flushSync(apply),
    );
    shared = { batch, observeOffset: observeOffsetPerFrame(batch) };
  }
  return shared;
}

/**
 * `layout`: what the pane knows of its scroller's layout without reading it — the virtualizer then
 * takes its largest scroll offset from it instead of forcing a layout (known-scroll-extent.ts).
 */
export function usePaneVirtualizer(options: Options, layout?: PaneLayout): Virtualizer<HTMLDivElement, Element> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  // A row's ref measuring it runs inside React's commit, where a synchronous render is not allowed.
  const measuring = useRef(false);
  const { batch: frames, observeOffset } = frameBatch();
  // This pane's render in a frame's batch.
  const [renderJob] = useState<FrameJob>(() => ({ read: () => undefined, apply: rerender }));
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const [extent] = useState(() => {
    const known = knownScrollExtent({
      contentHeight: () => layoutRef.current?.contentHeight() ?? null,
      viewportKey: () => layoutRef.current?.viewportKey(),
    });
    // A size report renders the pane; while it scrolls, in the next frame's batch (rect-per-frame.ts).
    const observeRect = observeRectPerFrame(frames, observeElementRect, rerender, renderJob);
    return { known, observeRect: known.observeRect(observeRect), observeOffset: known.observeOffset(observeOffset) };
  });
  const resolved: VirtualizerOptions<HTMLDivElement, Element> = {
    observeElementRect: extent.observeRect,
    observeElementOffset: extent.observeOffset,
    scrollToFn: elementScroll,
    ...options,
    onChange: (instance, sync) => {
      // A scroll event's render is scheduled into the frame's batch; inside the batch an update
      // joins the batch's single commit (it runs in `flushSync`).
      if (!sync || measuring.current || frames.applying) rerender();
      else if (frames.deferring) frames.schedule(renderJob);
      else flushSync(rerender);
      options.onChange?.(instance, sync);
    },
  };
  const [instance] = useState(() => {
    const virtualizer = new Virtualizer(resolved);
    const measure = virtualizer.measureElement;
    virtualizer.measureElement = (node) => {
      measuring.current = true;
      try {
        measure(node);
      } finally {
        measuring.current = false;
      }
    };
    extent.known.install(virtualizer);
    return virtualizer;
  });
  instance.setOptions(resolved);
  useLayoutEffect(() => {
    const unmount = instance._didMount();
    return () => {
      frames.cancel(renderJob);
      unmount();
    };
  }, []);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
