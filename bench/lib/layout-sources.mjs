// Where the renderer's layouts come from, in a CDP trace (the `devtools.timeline` category, as
// trace-self-time.mjs records it): every `Layout` event of the page's main thread, by what was
// running when it happened —
//   - forced: JavaScript was on the stack (a read of `scrollHeight`, `scrollTop`, `getAnimations`…
//     made the layout happen there), by the JavaScript's context: a ResizeObserver callback, an
//     event (`scroll event`), an animation frame callback, the microtasks after one (React renders
//     a store update there: `microtask after an animation frame`), a timer, a task's microtasks;
//   - `frame lifecycle`: the frame's own layout (no JavaScript on the stack), by the longest
//     JavaScript that ran since the layout before it, forced or not (whose changes it lays out: an
//     animation frame callback — e.g. a render in `flushSync` there —, the microtasks after one,
//     ResizeObserver callbacks, a task between frames), `nothing` if none did.
// Each source with its count, milliseconds and dirty layout objects (`beginData.dirtyObjects`: what
// the layout had to redo). Also `paints` (top-level `Paint` events) and `frames` (BeginMainFrame).
// Usage: `node bench/lib/layout-sources.mjs TRACE.json` (RENDERER_COST_TRACE_FILE of
// renderer-cost.mjs), or `layoutSources(events)` from a script.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The page's renderer main thread: the `CrRendererMain` thread with the most events. */
function mainThreadSpans(events) {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  let best = [];
  for (const m of mains) {
    const spans = events.filter((e) => e.ph === 'X' && e.pid === m.pid && e.tid === m.tid);
    if (spans.length > best.length) best = spans;
  }
  return best.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
}

/** Context of JavaScript running with `stack` (outermost first) open around it. */
function jsContext(stack) {
  for (let i = stack.length - 1; i >= 0; i--) {
    const name = stack[i].name;
    if (name === 'LocalFrameView::NotifyResizeObservers') return 'ResizeObserver callback';
    if (name === 'EventDispatch') return `${stack[i].args?.data?.type ?? ''} event`;
    if (name === 'FireAnimationFrame') return stack.slice(i).some((s) => s.name === 'RunMicrotasks') ? 'microtask after an animation frame' : 'animation frame callback';
    if (name === 'TimerFire') return 'timer';
  }
  return stack.some((s) => s.name === 'RunMicrotasks') ? 'microtask after a task' : 'task';
}

export function layoutSources(events) {
  const spans = mainThreadSpans(events);
  const stack = [];
  const sources = {};
  let longestJs = null; // since the last layout: { context, dur }
  let paints = 0;
  let frames = 0;
  for (const e of spans) {
    while (stack.length && stack[stack.length - 1].ts + (stack[stack.length - 1].dur ?? 0) <= e.ts) stack.pop();
    const jsOnStack = stack.some((s) => s.name === 'FunctionCall');
    if (e.name === 'ProxyMain::BeginMainFrame') frames++;
    if (e.name === 'Paint' && !stack.some((s) => s.name === 'Paint')) paints++;
    if (e.name === 'FunctionCall' && !jsOnStack && (!longestJs || e.dur > longestJs.dur)) longestJs = { context: jsContext(stack), dur: e.dur };
    if (e.name === 'Layout') {
      const source = jsOnStack ? `forced in ${jsContext(stack)}` : `frame lifecycle, after ${longestJs?.context ?? 'nothing'}`;
      // What this layout did not lay out: the JavaScript that goes on after it (if forced).
      const outer = stack.find((s) => s.name === 'FunctionCall');
      longestJs = outer ? { context: jsContext(stack.slice(0, stack.indexOf(outer))), dur: outer.ts + outer.dur - (e.ts + (e.dur ?? 0)) } : null;
      const s = (sources[source] ??= { count: 0, ms: 0, dirtyObjects: 0 });
      s.count++;
      s.ms += (e.dur ?? 0) / 1000;
      s.dirtyObjects += e.args?.beginData?.dirtyObjects ?? 0;
    }
    stack.push(e);
  }
  const layouts = Object.entries(sources)
    .map(([source, s]) => ({ source, count: s.count, ms: Math.round(s.ms * 10) / 10, dirtyObjects: s.dirtyObjects }))
    .sort((a, b) => b.ms - a.ms);
  return { frames, paints, layouts: layouts.reduce((n, s) => n + s.count, 0), sources: layouts };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const parsed = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const result = layoutSources(parsed.traceEvents ?? parsed);
  console.log(`frames ${result.frames}, paints ${result.paints}, layouts ${result.layouts}`);
  for (const s of result.sources) console.log(`${String(s.count).padStart(4)} ${String(s.ms).padStart(7)} ms ${String(s.dirtyObjects).padStart(6)} dirty  ${s.source}`);
}
