// Reads the timelines renderer-cost.mjs writes (`RENDERER_COST_TIMELINE=FILE`) and says where the
// end-to-end latency went: per run, stamp → message reached the page (`arrival`) and message → store
// commit, p50 / p95, and the animation frames (interval between frames, how late their callbacks
// started after the frame's timestamp); then, over every 0.5 s of every run given, the chunks' p95
// by quartile of how long the renderer's main thread, its compositor and the GPU process's display
// compositor waited for a CPU (runnable, not running: `/proc/…/schedstat`) and how busy the machine was.
// Usage: `node bench/lib/latency-timeline.mjs TIMELINE.json…`.
import { readFileSync } from 'node:fs';

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
};
const ms = (v) => (Math.round(v * 10) / 10).toString();

const windows = [];
for (const file of process.argv.slice(2)) {
  const t = JSON.parse(readFileSync(file, 'utf8'));
  // chunks: [stamp (wall ms), stamp → commit, stamp → message reached the page]
  const latency = t.chunks.map((c) => c[1]);
  const arrival = t.chunks.map((c) => c[2]);
  const toCommit = t.chunks.map((c) => c[1] - c[2]);
  const intervals = t.rafs.slice(1).map((r, i) => r[0] - t.rafs[i][0]);
  const late = t.rafs.map((r) => r[1] - r[0]);
  console.log(
    `${file}: latency ${ms(pct(latency, 0.5))} / ${ms(pct(latency, 0.95))}, arrival ${ms(pct(arrival, 0.5))} / ${ms(pct(arrival, 0.95))}, ` +
      `message → commit ${ms(pct(toCommit, 0.5))} / ${ms(pct(toCommit, 0.95))}; ${t.rafs.length} frames, interval p95 ${ms(pct(intervals, 0.95))}, ` +
      `callbacks late p50 / p95 ${ms(pct(late, 0.5))} / ${ms(pct(late, 0.95))}; long tasks ${t.longTasks.length}`,
  );
  const s = t.samples ?? [];
  for (let i = 5; i < s.length; i += 5) {
    const a = s[i - 5];
    const b = s[i];
    const seconds = (b.at - a.at) / 1000;
    const lats = t.chunks.filter((c) => c[0] >= a.at && c[0] < b.at).map((c) => c[1]);
    if (lats.length < 50) continue;
    windows.push({ p95: pct(lats, 0.95), main: (b.main - a.main) / seconds, compositor: (b.compositor - a.compositor) / seconds, viz: (b.viz - a.viz) / seconds, busy: (b.busy - a.busy) / Math.max(1, b.total - a.total) });
  }
}
windows.sort((x, y) => x.main + x.compositor + x.viz - (y.main + y.compositor + y.viz));
const size = Math.ceil(windows.length / 4);
for (let q = 0; q < 4 && q * size < windows.length; q++) {
  const group = windows.slice(q * size, (q + 1) * size);
  const mean = (key) => (group.reduce((n, w) => n + w[key], 0) / group.length).toFixed(2);
  console.log(
    `quartile ${q + 1} of waiting (${group.length} × 0.5 s): waiting per second main ${mean('main')}, compositor ${mean('compositor')}, display compositor ${mean('viz')}; machine busy ${mean('busy')} → chunks' p95, median ${ms(pct(group.map((w) => w.p95), 0.5))} ms`,
  );
}
