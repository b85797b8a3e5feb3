import { describe, expect, it } from 'vitest';
import { layoutSources } from './layout-sources.mjs';

// A synthetic trace of the renderer's main thread (pid 1, tid 1) and another renderer's (pid 2).
const thread = (pid: number) => ({ ph: 'M', name: 'thread_name', pid, tid: pid, args: { name: 'CrRendererMain' } });
let at = 0;
const span = (name: string, ts: number, dur: number, args: object = {}, pid = 1) => ({ ph: 'X', name, pid, tid: pid, ts, dur, args });
const layout = (ts: number, dur: number, dirtyObjects: number) => span('Layout', ts, dur, { beginData: { dirtyObjects } });
const js = (ts: number, dur: number) => span('FunctionCall', ts, dur, { data: { functionName: 'f' } });

function frameOfAStoreCommit() {
  const t = (at += 10_000);
  return [
    span('ProxyMain::BeginMainFrame', t, 5000),
    // A scroll event reads scrollTop: a forced layout.
    span('EventDispatch', t + 10, 200, { data: { type: 'scroll' } }),
    js(t + 20, 150),
    layout(t + 30, 100, 7),
    // The store's animation frame callback, then React's render in the microtasks after it; a
    // layout effect reads scrollHeight.
    span('FireAnimationFrame', t + 300, 2000),
    js(t + 310, 50),
    span('RunMicrotasks', t + 400, 1800),
    js(t + 410, 1700),
    layout(t + 900, 500, 300),
    // Another animation frame callback renders in flushSync; the frame lays it out.
    span('FireAnimationFrame', t + 2400, 900),
    js(t + 2410, 880),
    layout(t + 3400, 600, 120),
    span('Paint', t + 4100, 300),
    span('Paint', t + 4150, 100), // nested: the same paint
  ];
}

describe('layout sources of a trace', () => {
  it('tells forced layouts by the JavaScript they ran in from the frame’s own, with counts, time and dirty objects', () => {
    const events = [thread(1), thread(2), span('Layout', 0, 9999, {}, 2), ...frameOfAStoreCommit(), ...frameOfAStoreCommit()];
    const result = layoutSources(events);
    expect(result.frames).toBe(2);
    expect(result.paints).toBe(2);
    expect(result.layouts).toBe(6); // the other renderer's layout is not counted
    const by = Object.fromEntries(result.sources.map((s) => [s.source, s]));
    expect(by['forced in scroll event']).toEqual({ source: 'forced in scroll event', count: 2, ms: 0.2, dirtyObjects: 14 });
    expect(by['forced in microtask after an animation frame']).toMatchObject({ count: 2, ms: 1, dirtyObjects: 600 });
    expect(by['frame lifecycle, after animation frame callback']).toMatchObject({ count: 2, ms: 1.2, dirtyObjects: 240 });
    expect(Object.keys(by)).toHaveLength(3);
    expect(result.sources[0]?.source).toBe('frame lifecycle, after animation frame callback'); // most time first
  });

  it('counts a layout forced in a ResizeObserver callback and a frame layout with no JavaScript before it', () => {
    const events = [
      thread(1),
      span('ProxyMain::BeginMainFrame', 0, 5000),
      layout(10, 100, 5),
      span('LocalFrameView::NotifyResizeObservers', 200, 500),
      js(210, 400),
      layout(300, 50, 3),
    ];
    const by = Object.fromEntries(layoutSources(events).sources.map((s) => [s.source, s.count]));
    expect(by).toEqual({ 'frame lifecycle, after nothing': 1, 'forced in ResizeObserver callback': 1 });
  });
});
