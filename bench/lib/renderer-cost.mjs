// The renderer's cost of the end-to-end stream (issue #11), in figures the machine's load moves
// less than wall times: 4 flood agents × 250 updates/s for BENCH_BROWSER_SECONDS (default 5) into
// the built web host in Chromium, as `browser.bench.mjs` runs them, and per run
//   - the renderer process's CPU seconds (user + system, from /proc/<pid>/stat; the pid from CDP
//     `SystemInfo.getProcessInfo`), from the first prompt until every turn ended, and per thread name
//     (`rendererThreadCpuSeconds`: CrRendererMain, Compositor, CompositorTileW — the raster workers); the GPU process's
//     too (`gpuProcessCpuSeconds`: with --disable-gpu it composites and draws every frame in software);
//   - composited layers: CDP `LayerTree` for one second in the middle of the stream (largest and
//     median layer count of the layer trees Chromium committed meanwhile);
//   - latency p50/p95 (agent stamp → the store commit that applied it, see page-probe.mjs), as the
//     benchmark takes it; paintP50/paintP95: stamp → the end of the rendering update that painted
//     that commit (the main thread's paint, handed to the compositor; page-probe.mjs) — what the
//     user sees comes no sooner; and frameP50/frameP95 (stamp → the animation frame after the message), arrivalP50 (stamp → the message reached the page, before its handler);
//     `commits` counts the store's commits during the stream; `layouts`, `styleRecalcs` and
//     `mainThreadCpuSeconds` are the page's CDP `Performance` metrics (LayoutCount, RecalcStyleCount,
//     ThreadTime) over the stream.
//   - `runqueueWaitSeconds`: how long the renderer's threads (by name; the GPU process's as `gpu:…`)
//     were runnable but waiting for a CPU over the stream (/proc/<pid>/task/<tid>/schedstat), and
//     `machineBusyFraction` (/proc/stat): on a shared machine the latency's tail follows them
//     (docs/performance.md § 3, seventeenth pass).
// Usage (after a build): `node bench/lib/renderer-cost.mjs [runs]` — one JSON line per run.
// RENDERER_COST_TIMELINE=FILE writes the stream's timeline there: every chunk's stamp, stamp → page,
// stamp → commit; every animation frame's timestamp, start and callbacks' time; long tasks; the
// waits above every 100 ms (read it with latency-timeline.mjs).
// BENCH_RENDERER=DIR serves another built renderer (e.g. a copy of an older dist/renderer).
// RENDERER_COST_SIDE_CLIENT=1 also connects a bare WebSocket client in Node to the same web host
// (every connection receives every event) and reports `sideArrivalP50/P95`: stamp → the message
// reached a client that does nothing else, to tell the renderer's backlog from the host's.
// RENDERER_COST_TRACE=1 records a CDP `Tracing` second instead of the layer trees and adds the
// renderer main thread's self time per trace event (Paint, Layerize, Layout, FunctionCall...).
// It also adds `tracedLayouts`: that second's frames, paints and layouts, the layouts by where they
// came from (forced in which JavaScript, or the frame's own; layout-sources.mjs).
// RENDERER_COST_TRACE_FILE=PATH (with RENDERER_COST_TRACE) keeps that second's whole trace there.
// RENDERER_COST_AGENTS=N streams N agents (N panes) instead of 4, to tell a frame's cost from a pane's.
// RENDERER_COST_FLOOD="--tool-every 0" adds flood-agent options to every agent (e.g. messages only,
// `--diff-bytes 400` for tool cards with small diffs), to tell what each kind of entry costs.
// RENDERER_COST_PROFILE=DIR writes a CDP CPU profile of the renderer over the whole stream into DIR
// (summarize it with profile-summary.mjs; build the renderer unminified for names: `npx vite build
// --minify false --outDir DIR` and BENCH_RENDERER=DIR).
// `messages` counts the WebSocket messages the page received during the stream, `peakMessagesPerSecond`
// the busiest second as the benchmark takes it.
// RENDERER_COST_FRAMES=1 counts animation frames that ran callbacks (`rafFrames`), scroll events and
// ResizeObserver callbacks during the stream (observing only: it asks for no frame of its own).
// RENDERER_COST_MOUNTS=1 counts the transcript rows mounted during the stream (`rowMounts`: `.tx-row`
// elements added to the page, by a MutationObserver), the rows' kinds (`mountsByKind`) and the tool
// cards mounted as their head alone while their pane followed a fast stream (`deferredBodyMounts`).
import { writeFileSync } from 'node:fs';
import { procCpuSeconds, procThreadCpuSeconds, procThreadRunqueueSeconds, machineCpuTicks } from './proc-cpu.mjs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { tmpdir } from 'node:os';
import { pageProbe, peakMessagesPerSecond } from './page-probe.mjs';
import { traceWhile } from './trace-self-time.mjs';
import { floodCommand, launchChromium, openWorkbench, prompt, startSession, startWebHost, waitReady } from './web.mjs';

const SECONDS = Number(process.env.BENCH_BROWSER_SECONDS ?? 5);
const RUNS = Number(process.argv[2] ?? 1);
const FLOOD_EXTRA = process.env.RENDERER_COST_FLOOD ?? '';
const AGENTS = Number(process.env.RENDERER_COST_AGENTS ?? 4);
function cpuSeconds(pid) {
  try {
    return procCpuSeconds(pid);
  } catch {
    return 0;
  }
}

async function rendererPids(browser, type = 'renderer') {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  return processInfo.filter((p) => p.type === type).map((p) => p.id);
}

/** Injected into the page: counts `.tx-row` elements added (a row mounted) and their entry kinds. */
function countRowMounts() {
  let total = 0;
  let deferred = 0;
  let byKind = {};
  const rows = [];
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes)
        if (n.nodeType === 1 && n.classList.contains('tx-row')) {
          rows.push(n);
          // A tool card mounted as its head alone (stream-pace.ts), as it was when it mounted.
          if (n.querySelector('[data-body="deferred"]')) deferred++;
        }
  }).observe(document, { childList: true, subtree: true });
  const settle = () => {
    for (const n of rows) {
      total++;
      const kind = n.firstElementChild?.getAttribute('data-testid') ?? 'empty';
      byKind[kind] = (byKind[kind] ?? 0) + 1;
    }
    rows.length = 0;
  };
  window.__rowMounts = {
    reset() {
      settle();
      total = 0;
      deferred = 0;
      byKind = {};
    },
    read() {
      settle();
      return { total, byKind, deferred };
    },
  };
}

/**
 * Injected into the page: counts animation frames that ran callbacks (distinct frame timestamps of
 * `requestAnimationFrame` callbacks; it only observes, it asks for no frame), scroll events and
 * ResizeObserver callbacks, to tell how many frames and measuring passes each store commit costs.
 */
function countFrames() {
  const counts = { rafFrames: 0, scrollEvents: 0, resizeObserverCallbacks: 0 };
  let lastFrame = -1;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) =>
    raf((t) => {
      if (t !== lastFrame) {
        lastFrame = t;
        counts.rafFrames++;
      }
      cb(t);
    });
  document.addEventListener('scroll', () => counts.scrollEvents++, { capture: true, passive: true });
  const RO = window.ResizeObserver;
  window.ResizeObserver = class extends RO {
    constructor(cb) {
      super((entries, observer) => {
        counts.resizeObserverCallbacks++;
        cb(entries, observer);
      });
    }
  };
  window.__frameCounts = {
    reset() {
      for (const k of Object.keys(counts)) counts[k] = 0;
    },
    read: () => ({ ...counts }),
  };
}

const percentile = (values, p) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length ? v[Math.min(v.length - 1, Math.floor((p / 100) * v.length))] : null;
};

/** A bare client of the web host's API socket: the stamps' latency when its messages arrive. */
function sideClient(hostUrl) {
  const url = new URL(hostUrl);
  const token = url.searchParams.get('token');
  const socket = new WebSocket(`ws://${url.host}/api`, { headers: { Authorization: `Bearer ${token}` } });
  const side = { latencies: [], socket };
  socket.on('message', (data) => {
    const text = data.toString();
    const n = /^\{"t":"evts","n":(\d+)/.exec(text.slice(0, 40))?.[1];
    if (n) socket.send(JSON.stringify({ t: "ack", n: Number(n) })); // as a window does: the host holds its next frame until then
    if (text.indexOf('@') === -1) return;
    const now = Date.now();
    const re = /@(\d{10,14}\.\d{3});/g;
    let m;
    while ((m = re.exec(text))) side.latencies.push(now - Number(m[1]));
  });
  return side;
}

/** CDP `Performance` metrics of the page (counts of layouts and style recalculations, main-thread CPU `ThreadTime`). */
async function pageMetrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

async function once(browser) {
  const host = await startWebHost();
  const side = process.env.RENDERER_COST_SIDE_CLIENT ? sideClient(host.url) : null;
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, ...(process.env.RENDERER_COST_REDUCED_MOTION ? { reducedMotion: 'reduce' } : {}) });
  await context.addInitScript(pageProbe);
  if (process.env.RENDERER_COST_MOUNTS) await context.addInitScript(countRowMounts);
  if (process.env.RENDERER_COST_FRAMES) await context.addInitScript(countFrames);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    await openWorkbench(page, host.url);
    const ids = [];
    for (let i = 0; i < AGENTS; i++) ids.push(await startSession(page, floodCommand(`--rate 250 --seconds ${SECONDS} --stamp ${FLOOD_EXTRA}`.trim()), tmpdir()));
    await page.evaluate(() => {
      window.__bench.drain();
      window.__bench.latencies = [];
      window.__bench.frameLatencies = [];
      window.__bench.paintLatencies = [];
      window.__bench.arrivals = [];
      window.__bench.commits = 0;
      window.__bench.messages = [];
      window.__bench.longTasks = [];
      window.__bench.timeline = [];
      window.__bench.rafs = [];
      if (window.__rowMounts) window.__rowMounts.reset();
      if (window.__frameCounts) window.__frameCounts.reset();
    });
    const pids = await rendererPids(browser);
    const cpu0 = pids.map(cpuSeconds);
    const threads0 = pids.map(procThreadCpuSeconds);
    // The GPU process draws every frame in software here (--disable-gpu): its CPU is the other
    // share of the 2 cores the stream takes (the display compositor, not the renderer).
    const gpuPids = await rendererPids(browser, 'GPU');
    const gpu0 = gpuPids.map(cpuSeconds);
    // How long the machine's other work kept the renderer's and the GPU process's threads waiting
    // for a CPU (runnable, not running) during the stream, and how busy the machine was.
    const waits0 = [...pids, ...gpuPids].map(procThreadRunqueueSeconds);
    const machine0 = machineCpuTicks();
    // RENDERER_COST_TIMELINE: the same waits and the machine's busy ticks every 100 ms, to set
    // beside the chunks' latencies over the stream.
    const samples = [];
    const sample = () => samples.push({ at: Date.now(), machine: machineCpuTicks(), waits: [...pids, ...gpuPids].map(procThreadRunqueueSeconds) });
    const sampler = process.env.RENDERER_COST_TIMELINE ? setInterval(sample, 100) : null;
    if (side) side.latencies = [];
    await cdp.send('Performance.enable');
    const metrics0 = await pageMetrics(cdp);
    const t0 = Date.now();
    const profileDir = process.env.RENDERER_COST_PROFILE;
    if (profileDir) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    for (const id of ids) await prompt(page, id);
    // One second of layer trees (or of a trace) in the middle of the stream.
    await page.waitForTimeout((SECONDS * 1000) / 2);
    const layerCounts = [];
    let selfTime;
    let layoutSources;
    if (process.env.RENDERER_COST_TRACE) ({ selfMs: selfTime, layouts: layoutSources } = await traceWhile(cdp, () => page.waitForTimeout(1000), process.env.RENDERER_COST_TRACE_FILE));
    else {
      const onTree = (e) => {
        if (e.layers) layerCounts.push(e.layers.length);
      };
      cdp.on('LayerTree.layerTreeDidChange', onTree);
      await cdp.send('LayerTree.enable');
      await page.waitForTimeout(1000);
      await cdp.send('LayerTree.disable');
      cdp.off('LayerTree.layerTreeDidChange', onTree);
    }
    const scrollers = await page.evaluate(
      () => [...document.querySelectorAll('[data-testid="transcript"] *')].filter((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1).filter((el) => /auto|scroll/.test(getComputedStyle(el).overflow)).length,
    );
    for (const id of ids) await waitReady(page, id);
    const t1 = Date.now();
    if (profileDir) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(profileDir, `stream-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    const wall = (Date.now() - t0) / 1000;
    const metrics1 = await pageMetrics(cdp);
    const cpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - cpu0[i], 0);
    const threadCpu = {};
    pids.forEach((pid, i) => {
      for (const [name, seconds] of Object.entries(procThreadCpuSeconds(pid))) threadCpu[name] = (threadCpu[name] ?? 0) + seconds - (threads0[i][name] ?? 0);
    });
    if (sampler) clearInterval(sampler);
    const machine1 = machineCpuTicks();
    const runqueueWait = {};
    [...pids, ...gpuPids].forEach((pid, i) => {
      const prefix = i < pids.length ? '' : 'gpu:';
      for (const [name, seconds] of Object.entries(procThreadRunqueueSeconds(pid))) runqueueWait[prefix + name] = (runqueueWait[prefix + name] ?? 0) + seconds - (waits0[i][name] ?? 0);
    });
    const gpuCpu = gpuPids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - gpu0[i], 0);
    // The paints of the last commits are tasks after their frames: wait for those frames.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20))));
    const { latencies, frameLatencies, paintLatencies, arrivals, commits, messages } = await page.evaluate(() => {
      window.__bench.drain();
      return window.__bench;
    });
    // After the stream: what the renderer and the GPU process spend in 2 s with nothing arriving
    // (animations: the streaming cursor, spinners), to tell a per-frame cost from a steady one.
    const idle0 = [...pids.map(cpuSeconds), ...gpuPids.map(cpuSeconds)];
    await page.waitForTimeout(2000);
    const idle1 = [...pids.map(cpuSeconds), ...gpuPids.map(cpuSeconds)];
    const idleCpu = idle1.slice(0, pids.length).reduce((s, v, i) => s + v - idle0[i], 0);
    const idleGpu = idle1.slice(pids.length).reduce((s, v, i) => s + v - idle0[pids.length + i], 0);
    const timelineFile = process.env.RENDERER_COST_TIMELINE;
    if (timelineFile) {
      const timeline = await page.evaluate(() => ({ origin: performance.timeOrigin, chunks: window.__bench.timeline, longTasks: window.__bench.longTasks, rafs: window.__bench.rafs, messages: window.__bench.messages }));
      timeline.samples = samples.map(({ at, machine, waits }) => {
        const sum = (name, from, to) => waits.slice(from, to).reduce((n, w) => n + (w[name] ?? 0), 0);
        return { at, busy: machine.busy, total: machine.total, main: sum('chromium', 0, pids.length), compositor: sum('Compositor', 0, pids.length), raster: sum('ThreadPoolForeg', 0, pids.length), viz: sum('VizCompositorTh', pids.length) };
      });
      writeFileSync(timelineFile, JSON.stringify(timeline));
    }
    const mounts = await page.evaluate(() => window.__rowMounts?.read());
    const frameCounts = await page.evaluate(() => window.__frameCounts?.read());
    return {
      rendererCpuSeconds: Math.round(cpu * 100) / 100,
      gpuProcessCpuSeconds: Math.round(gpuCpu * 100) / 100,
      rendererThreadCpuSeconds: Object.fromEntries(Object.entries(threadCpu).filter(([, s]) => s >= 0.01).map(([name, s]) => [name, Math.round(s * 100) / 100])),
      wallSeconds: wall,
      machineBusyFraction: Math.round(((machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total)) * 1000) / 1000,
      runqueueWaitSeconds: Object.fromEntries(Object.entries(runqueueWait).filter(([, s]) => s >= 0.005).map(([name, s]) => [name, Math.round(s * 1000) / 1000])),
      idle2sRendererCpuSeconds: Math.round(idleCpu * 100) / 100,
      idle2sGpuCpuSeconds: Math.round(idleGpu * 100) / 100,
      layersMax: layerCounts.length ? Math.max(...layerCounts) : null,
      layersMedian: percentile(layerCounts, 50),
      layerTrees: layerCounts.length,
      scrollContainersInTranscripts: scrollers,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      chunks: latencies.length,
      paintP50: percentile(paintLatencies, 50),
      paintP95: percentile(paintLatencies, 95),
      paintedChunks: paintLatencies.length,
      commits,
      messages: messages.length,
      peakMessagesPerSecond: peakMessagesPerSecond(messages, t0 + 500, t1 - 500),
      layouts: metrics1.LayoutCount - metrics0.LayoutCount,
      styleRecalcs: metrics1.RecalcStyleCount - metrics0.RecalcStyleCount,
      mainThreadCpuSeconds: Math.round((metrics1.ThreadTime - metrics0.ThreadTime) * 100) / 100,
      frameP50: percentile(frameLatencies, 50),
      frameP95: percentile(frameLatencies, 95),
      arrivalP50: percentile(arrivals, 50),
      ...(side ? { sideArrivalP50: percentile(side.latencies, 50), sideArrivalP95: percentile(side.latencies, 95), sideChunks: side.latencies.length } : {}),
      ...(selfTime ? { mainThreadSelfMs: selfTime } : {}),
      ...(layoutSources ? { tracedLayouts: layoutSources } : {}),
      ...(frameCounts ?? {}),
      ...(mounts ? { rowMounts: mounts.total, mountsByKind: mounts.byKind, deferredBodyMounts: mounts.deferred } : {}),
    };
  } finally {
    side?.socket.close();
    await context.close();
    await host.stop();
  }
}

const browser = await launchChromium();
try {
  for (let r = 0; r < RUNS; r++) console.log(JSON.stringify(await once(browser)));
} finally {
  await browser.close();
}
