// Benchmarks 4 and 5 of issue #11 alone, A/B: opening a long session and scrolling 4 long
// transcripts, measured as browser.bench.mjs measures them, for one or more renderer builds served
// by ONE web host (same core, same prepared sessions; the renderer folder is a symlink switched
// between pages), in rotated order, back to back.
//   - long session (50,000 updates of the mix): ms from the click until the last entry shows; the
//     longest renderer task until every entry is loaded and 300 ms after;
//   - scrolling 4 panes × 50,000 entries up 400 px per frame for 1.5 s: % of frames over 20 ms,
//     long tasks over 50 ms.
// Usage (after a build): node bench/lib/scroll-cost.mjs [rounds] [name=rendererDir ...]
//   default: one variant, dist/renderer. E.g. `node bench/lib/scroll-cost.mjs 3
//   old=/tmp/old-dist/renderer new=dist/renderer`. One JSON line per measurement.
// SCROLL_COST_TRACE=1 records a CDP trace of each scroll and of each open (main-thread self time per
// event, and what is inside each long task); SCROLL_COST_PROFILE=DIR writes a CPU profile of each
// scroll and open there (summarize with profile-summary.mjs). SCROLL_COST_SKIP=long|scroll skips a part.
// SCROLL_COST_TRACE_FILE=DIR traces each fling and keeps its whole trace there (slow-frames.mjs tells
// what the frames over 20 ms were).
// SCROLL_COST_FLINGS=N scrolls N times in the same page, each fling from the panes' end ("Jump to
// latest" and a settle between, scroll-fling.mjs — the benchmark takes the median of 3), one line each.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { procCpuSeconds } from './proc-cpu.mjs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pageProbe } from './page-probe.mjs';
import { backToLatest, fling } from './scroll-fling.mjs';
import { traceWhile } from './trace-self-time.mjs';
import { CLI, floodCommand, launchChromium, openWorkbench, paneOf, prompt, startListening, startSession, transcriptComplete, transcriptShown } from './web.mjs';
import { benchDir } from './worker-common.mjs';

const ROUNDS = Number(process.argv[2] ?? 1);
const given = process.argv.slice(3).map((a) => a.split('='));
const VARIANTS = given.length ? given.map(([name, dir]) => ({ name, dir: resolve(dir) })) : [{ name: 'current', dir: join(benchDir, '..', 'dist', 'renderer') }];
const TRACE_DIR = process.env.SCROLL_COST_TRACE_FILE;
const TRACE = Boolean(process.env.SCROLL_COST_TRACE || TRACE_DIR);
const PROFILE_DIR = process.env.SCROLL_COST_PROFILE;
const SKIP = process.env.SCROLL_COST_SKIP ?? '';
const STEPS = Number(process.env.SCROLL_COST_STEPS ?? 0);
const MOUNTS = Boolean(process.env.SCROLL_COST_MOUNTS);
const FLINGS = Number(process.env.SCROLL_COST_FLINGS ?? 1);
const cwd = tmpdir();

/** CPU seconds (user + system, /proc) of the renderers' main threads: what the load moves least. */
async function rendererCpu(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  let sum = 0;
  for (const p of processInfo.filter((q) => q.type === 'renderer')) {
    try {
      sum += procCpuSeconds(p.id, p.id); // the main thread's id is the process id
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

const work = mkdtempSync(join(tmpdir(), 'scroll-cost-'));
const link = join(work, 'renderer');
function serve(variant) {
  rmSync(link, { force: true });
  symlinkSync(variant.dir, link);
}

async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  await context.addInitScript(pageProbe);
  const page = await context.newPage();
  return { page, context, cdp: await context.newCDPSession(page) };
}

/** As browser.bench.mjs: sessions started and prompted from one window, until a fresh one shows them ready. */
async function prepared(browser, url, count, options) {
  const { page, context } = await newPage(browser);
  const ids = [];
  try {
    await openWorkbench(page, url);
    for (let i = 0; i < count; i++) ids.push(await startSession(page, floodCommand(options), cwd));
    for (const id of ids) await prompt(page, id);
    for (const id of ids) await paneOf(page, id).locator('[data-testid="transcript"]:not([data-count="0"])').waitFor({ timeout: 30_000 });
  } finally {
    await context.close(); // the core goes on without a window to feed
  }
  const { page: check, context: checkContext } = await newPage(browser);
  try {
    await openWorkbench(check, url);
    for (const id of ids) await check.locator(`[data-testid="session-item"][data-session-id="${id}"][data-status="ready"]`).waitFor({ timeout: 600_000 });
  } finally {
    await checkContext.close();
  }
  return ids;
}

async function openLong(browser, url, id, label) {
  const { page, context, cdp } = await newPage(browser);
  try {
    await openWorkbench(page, url);
    await page.waitForTimeout(300);
    await page.evaluate(() => (window.__bench.longTasks = []));
    const cpu0 = await rendererCpu(browser);
    let ms;
    const run = async () => {
      const t0 = performance.now();
      await transcriptShown(page, id);
      ms = performance.now() - t0;
      await transcriptComplete(page, id);
      await page.waitForTimeout(300);
    };
    if (PROFILE_DIR) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const trace = TRACE ? await traceWhile(cdp, run) : (await run(), undefined);
    if (PROFILE_DIR) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(PROFILE_DIR, `open-${label}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    const cpuMs = Math.round(((await rendererCpu(browser)) - cpu0) * 1000);
    const tasks = await page.evaluate(() => window.__bench.longTasks.map((t) => Math.round(t.duration)));
    return { ms: Math.round(ms), cpuMs, longest: Math.max(0, ...tasks), over50: tasks.filter((d) => d > 50).length, ...(trace ? { trace } : {}) };
  } finally {
    await context.close();
  }
}

async function scroll(browser, url, ids, label) {
  const { page, context, cdp } = await newPage(browser);
  try {
    await openWorkbench(page, url);
    for (const id of ids) await transcriptShown(page, id);
    for (const id of ids) await transcriptComplete(page, id);
    await page.waitForTimeout(1000);
    const nodes = [];
    const panes = [];
    for (const id of ids)
      panes.push(
        await paneOf(page, id)
          .getByTestId('transcript')
          .evaluate((el) => ({ nodes: el.querySelectorAll('*').length, rows: el.querySelectorAll('.tx-row').length, light: el.querySelectorAll('.tx-row-light').length, following: el.dataset.following })),
      );
    for (const p of panes) nodes.push(p.nodes);
    // The first row shown in each pane (to count the rows a scroll passes) and row heights by kind.
    const firstRows = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="transcript-scroll"]')].map((s) => {
      const top = s.getBoundingClientRect().top;
      const rows = [...s.querySelectorAll('.tx-row')].filter((r) => r.getBoundingClientRect().bottom > top);
      return Math.min(...rows.map((r) => Number(r.dataset.index)));
    }));
    const heights = await page.evaluate(() => {
      const by = {};
      for (const r of document.querySelectorAll('.tx-row')) {
        const kind = r.querySelector('[data-entry-id]')?.dataset.testid ?? '?';
        (by[kind] ??= new Set()).add(r.offsetHeight);
      }
      return Object.fromEntries(Object.entries(by).map(([k, v]) => [k, [...v].slice(0, 5)]));
    });
    await cdp.send('Performance.enable');
    const results = [];
    for (let f = 0; f < FLINGS; f++) {
      if (f > 0) await backToLatest(page);
      const before = await firstRows();
      await page.evaluate(() => {
        window.__bench.longTasks = [];
        window.__flingSteps = [];
      });
      const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
      const m0 = await metrics();
      const cpu0 = await rendererCpu(browser);
      let steps = 0;
      if (MOUNTS && f === 0) {
        // Rows mounted per step of the fling (the step's number is set before its scroll).
        await page.evaluate(() => {
          window.__scrollStep = 0;
          window.__mountsByStep = [];
          new MutationObserver((records) => {
            for (const r of records) {
              for (const n of r.addedNodes) {
                if (!n.classList?.contains('tx-row')) continue;
                const counts = (window.__mountsByStep[window.__scrollStep] ??= [0, 0, 0]);
                counts[n.classList.contains('tx-row-light') ? 1 : 0]++;
              }
              // Rows removed in the step (a row turned from full to light is one removed, one added).
              for (const n of r.removedNodes) if (n.classList?.contains('tx-row')) (window.__mountsByStep[window.__scrollStep] ??= [0, 0, 0])[2]++;
            }
          }).observe(document.body, { childList: true, subtree: true });
        });
      }
      const run = async () => {
        await page.evaluate(() => window.__bench.startFrames());
        // As the benchmark: up 400 px per frame for 1.5 s; or (SCROLL_COST_STEPS) a fixed number of steps.
        steps = await fling(page, STEPS);
      };
      let trace;
      if (PROFILE_DIR) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      if (TRACE) trace = await traceWhile(cdp, run, TRACE_DIR ? join(TRACE_DIR, `scroll-${label}-${f}-${Date.now()}.json`) : undefined);
      else await run();
      if (PROFILE_DIR) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(join(PROFILE_DIR, `scroll-${label}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
      }
      const frames = await page.evaluate(() => window.__bench.stopFrames());
      const m1 = await metrics();
      const after = await firstRows();
      const rowsPassed = before.reduce((sum, b, i) => sum + b - after[i], 0);
      const cpu1 = await rendererCpu(browser);
      // Main-thread time per scroll step (4 panes × 400 px): what the machine's load moves least.
      const perStep = (name) => Math.round(((m1[name] - m0[name]) * 1000 * 10) / Math.max(1, steps)) / 10;
      const tasks = await page.evaluate(() => window.__bench.longTasks.map((t) => Math.round(t.duration)));
      // Each task over 50 ms: [ms, steps run before it started, ms since the last of them, ms until the
      // next one ran] — a frame task starts a little before its own step's callback (the next one).
      const longAt = await page.evaluate(() => {
        const steps = window.__flingSteps ?? [];
        return window.__bench.longTasks
          .filter((t) => t.duration > 50)
          .map((t) => {
            let i = 0;
            while (i < steps.length && steps[i] <= t.start) i++;
            const until = i < steps.length ? Math.round(steps[i] - t.start) : null;
            return [Math.round(t.duration), i, i ? Math.round(t.start - steps[i - 1]) : null, until];
          });
      });
      const slow = frames.filter((f) => f > 20).length;
      results.push({
        fling: f,
        slowPct: Math.round((slow / Math.max(1, frames.length)) * 1000) / 10,
        frames: frames.length,
        p50Frame: Math.round(frames.sort((a, b) => a - b)[Math.floor(frames.length / 2)] ?? 0),
        longTasks: tasks.filter((d) => d > 50).length,
        longest: Math.max(0, ...tasks),
        longAt,
        maxNodes: Math.max(...nodes),
      panes,
        steps,
        rowsPassed,
        heights,
        cpuMsPerStep: Math.round(((cpu1 - cpu0) * 1000 * 10) / Math.max(1, steps)) / 10,
        msPerStep: { task: perStep('TaskDuration'), script: perStep('ScriptDuration'), layout: perStep('LayoutDuration'), style: perStep('RecalcStyleDuration') },
        ...(trace ? { trace } : {}),
        ...(MOUNTS ? { mountsByStep: await page.evaluate(() => Array.from({ length: 8 }, (_, i) => window.__mountsByStep[i] ?? [0, 0, 0])) } : {}),
      });
      if (MOUNTS) await page.evaluate(() => (window.__mountsByStep = []));
    }
    return results;
  } finally {
    await context.close();
  }
}

const browser = await launchChromium();
serve(VARIANTS[0]);
const dataDir = join(work, 'data');
const host = await startListening(process.execPath, [CLI, 'web', '--json', '--data-dir', dataDir, '--renderer', link], { ...process.env, ACP_WORKBENCH_CONFIG_DIR: join(work, 'config') });
try {
  const [longId] = SKIP === 'long' ? [] : await prepared(browser, host.url, 1, '--n 50000');
  const scrollIds = SKIP === 'scroll' ? [] : await prepared(browser, host.url, 4, '--n 50000 --alternate --tool-every 0');
  for (let r = 0; r < ROUNDS; r++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]);
    for (const v of order) {
      serve(v);
      if (longId) console.log(JSON.stringify({ round: r, variant: v.name, part: 'long-session', ...(await openLong(browser, host.url, longId, v.name)) }));
      if (scrollIds.length) for (const one of await scroll(browser, host.url, scrollIds, v.name)) console.log(JSON.stringify({ round: r, variant: v.name, part: 'scroll', ...one }));
    }
  }
} finally {
  await browser.close();
  await host.stop();
  rmSync(work, { recursive: true, force: true });
}
