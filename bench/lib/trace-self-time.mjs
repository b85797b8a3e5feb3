// A CDP trace of the renderer while something runs, summarized as the main thread's self time per
// trace event name (Layout, UpdateLayoutTree, Paint, FunctionCall...), and its long tasks (the
// main thread's top-level `RunTask`s over 50 ms, with what took the time inside each).
// Used by scroll-cost.mjs and renderer-cost.mjs; `cdp` is a Playwright CDP session of the page.

import { writeFileSync } from 'node:fs';
import { layoutSources } from './layout-sources.mjs';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'v8.execute', 'toplevel'];

/**
 * Runs `during()` while tracing; resolves { selfMs, longTasks, layouts } of the renderer's main
 * thread (`layouts`: where its layouts came from, layout-sources.mjs).
 * `rawFile`: also writes the whole trace there (JSON, for chrome://tracing or a closer look).
 */
export async function traceWhile(cdp, during, rawFile) {
  await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES } });
  let stream;
  try {
    await during();
  } finally {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    ({ stream } = await complete);
  }
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  if (rawFile) writeFileSync(rawFile, text);
  const parsed = JSON.parse(text);
  const events = parsed.traceEvents ?? parsed;
  return { ...summarize(events), layouts: layoutSources(events) };
}

function summarize(events) {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The page's renderer is the one with the most work on its main thread.
  const spansOf = (m) => events.filter((e) => e.ph === 'X' && e.pid === m.pid && e.tid === m.tid && e.dur > 0);
  const spans = mains
    .map(spansOf)
    .sort((a, b) => b.length - a.length)[0]
    ?.sort((a, b) => a.ts - b.ts || b.dur - a.dur) ?? [];
  const self = {};
  const stack = [];
  const longTasks = [];
  let current = null;
  for (const e of spans) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) {
      self[parent.name] -= e.dur;
      if (current) current.inside[parent.name] = (current.inside[parent.name] ?? 0) - e.dur;
    } else {
      current = e.name === 'RunTask' && e.dur > 50_000 ? { ms: Math.round(e.dur / 100) / 10, inside: {} } : null;
      if (current) longTasks.push(current);
    }
    self[e.name] = (self[e.name] ?? 0) + e.dur;
    if (current && parent) current.inside[e.name] = (current.inside[e.name] ?? 0) + e.dur;
    stack.push(e);
  }
  const top = (table, min) =>
    Object.fromEntries(
      Object.entries(table)
        .map(([name, us]) => [name, Math.round(us / 100) / 10])
        .filter(([, ms]) => ms >= min)
        .sort((a, b) => b[1] - a[1]),
    );
  return { selfMs: top(self, 2), longTasks: longTasks.map((t) => ({ ms: t.ms, inside: top(t.inside, 3) })) };
}
