import { describe, expect, it } from 'vitest';
import { createFrameBatch, type FrameJob } from './frame-batch';
import { observeRectPerFrame, type Rect, type RectTarget } from './rect-per-frame';

/** A pane's virtualizer as far as the observer sees it; its `onRect` is what the library does with a report. */
function setup(scrolling: boolean) {
  const frames: (() => void)[] = [];
  const log: string[] = [];
  const batch = createFrameBatch((run) => frames.push(run), (apply) => (log.push('commit'), apply()));
  const instance: RectTarget = { isScrolling: scrolling, scrollRect: null };
  const job: FrameJob = { read: () => undefined, apply: () => log.push('render in frame') };
  let report: (rect: Rect) => void = () => undefined;
  const observe = observeRectPerFrame(batch, (_i: RectTarget, cb) => void (report = cb), () => log.push('render now'), job);
  observe(instance, (rect) => {
    instance.scrollRect = rect;
    // The library while scrolling renders at once, unless the batch defers its renders.
    if (instance.isScrolling) log.push(batch.deferring ? 'library: deferred' : 'library: sync render');
  });
  return { instance, log, frames, report: (height: number, width = 300) => report({ width, height }) };
}

describe('a pane size report, rendered with the frame batch', () => {
  it('while the pane scrolls: the size at once, its render in the next frame (once), not in the observer callback', () => {
    const h = setup(true);
    h.report(803);
    h.report(768); // "Jump to latest" appeared below the scroller
    expect(h.instance.scrollRect?.height).toBe(768);
    expect(h.log).toEqual(['library: deferred', 'library: deferred']);
    expect(h.frames).toHaveLength(1);
    h.frames.shift()!();
    expect(h.log.slice(2)).toEqual(['commit', 'render in frame']);
  });

  it('while the pane is still: a change of height renders it at once, as before; the same height does not', () => {
    const h = setup(false);
    h.report(803); // the first report (the observer's own read on mount)
    h.report(803);
    expect(h.log).toEqual([]);
    h.report(768);
    expect(h.log).toEqual(['render now']);
    expect(h.frames).toHaveLength(0);
    expect(h.instance.scrollRect?.height).toBe(768);
  });

  it('a width change while scrolling is deferred alike but asks for no render of its own', () => {
    const h = setup(true);
    h.report(803);
    h.report(803, 280);
    expect(h.log).toEqual(['library: deferred', 'library: deferred']);
    expect(h.frames).toHaveLength(0);
  });
});
