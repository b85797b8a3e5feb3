// What a slow frame is, from a CDP trace of the renderer (issue #11 § 5: "frames over 20 ms while
// scrolling"). The frames are the renderer main thread's tasks that ran animation-frame callbacks
// (`FireAnimationFrame` inside a top-level `RunTask`); a frame's interval runs from the start of its
// task to the start of the next one, as the page's own frame recorder measures it
// (page-probe.mjs `startFrames`). Per interval: the frame task's wall and CPU time (`dur`, `tdur`:
// a task that took 30 ms of wall for 12 of CPU waited for a core), the other main-thread tasks
// in the interval, and the main thread's self time by event name. Then the slow intervals
// (over `slowMs`) against the others, summed.
// Usage: node bench/lib/slow-frames.mjs TRACE.json [slowMs=20] — a trace as written by
// trace-self-time.mjs's `rawFile` (scroll-cost.mjs SCROLL_COST_TRACE_FILE=DIR).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function frameIntervals(events) {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const spansOf = (m) => events.filter((e) => e.ph === 'X' && e.pid === m.pid && e.tid === m.tid && e.dur > 0);
  const spans = mains.map(spansOf).sort((a, b) => b.length - a.length)[0]?.sort((a, b) => a.ts - b.ts || b.dur - a.dur) ?? [];
  // Top-level tasks with their self times by name.
  const tasks = [];
  const stack = [];
  for (const e of spans) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (!parent) tasks.push({ ts: e.ts, dur: e.dur, tdur: e.tdur ?? e.dur, self: {}, frame: false });
    const task = tasks[tasks.length - 1];
    if (e.name === 'FireAnimationFrame') task.frame = true;
    if (parent) task.self[parent.name] = (task.self[parent.name] ?? 0) - e.dur;
    task.self[e.name] = (task.self[e.name] ?? 0) + e.dur;
    stack.push(e);
  }
  const frameTasks = tasks.filter((t) => t.frame);
  const intervals = [];
  let k = 0;
  for (let i = 0; i + 1 < frameTasks.length; i++) {
    const start = frameTasks[i].ts;
    const end = frameTasks[i + 1].ts;
    const inside = [];
    while (k < tasks.length && tasks[k].ts < end) {
      if (tasks[k].ts >= start) inside.push(tasks[k]);
      k++;
    }
    const self = {};
    for (const t of inside) for (const [name, us] of Object.entries(t.self)) self[name] = (self[name] ?? 0) + us;
    intervals.push({
      ms: (end - start) / 1000,
      frameTaskMs: frameTasks[i].dur / 1000,
      frameTaskCpuMs: frameTasks[i].tdur / 1000,
      busyMs: inside.reduce((s, t) => s + t.dur, 0) / 1000,
      busyCpuMs: inside.reduce((s, t) => s + t.tdur, 0) / 1000,
      tasks: inside.length,
      self,
    });
  }
  return intervals;
}

export function summarize(intervals, slowMs = 20) {
  const group = (list) => {
    const n = Math.max(1, list.length);
    const self = {};
    for (const f of list) for (const [name, us] of Object.entries(f.self)) self[name] = (self[name] ?? 0) + us;
    const mean = (key) => Math.round((list.reduce((s, f) => s + f[key], 0) / n) * 10) / 10;
    return {
      frames: list.length,
      meanMs: mean('ms'),
      frameTaskMs: mean('frameTaskMs'),
      frameTaskCpuMs: mean('frameTaskCpuMs'),
      busyMs: mean('busyMs'),
      busyCpuMs: mean('busyCpuMs'),
      // Per frame, main-thread self time by event name (≥ 0.3 ms).
      selfMs: Object.fromEntries(
        Object.entries(self)
          .map(([name, us]) => [name, Math.round(us / n / 100) / 10])
          .filter(([, ms]) => ms >= 0.3)
          .sort((a, b) => b[1] - a[1]),
      ),
    };
  };
  return { slow: group(intervals.filter((f) => f.ms > slowMs)), fast: group(intervals.filter((f) => f.ms <= slowMs)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const parsed = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const intervals = frameIntervals(parsed.traceEvents ?? parsed);
  console.log(JSON.stringify({ intervals: intervals.map((f) => [Math.round(f.ms), Math.round(f.frameTaskMs), Math.round(f.frameTaskCpuMs), Math.round(f.busyMs)]), ...summarize(intervals, Number(process.argv[3] ?? 20)) }, null, 1));
}
