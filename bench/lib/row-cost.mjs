// What one transcript row costs the renderer to style, lay out and paint (issue #11), measured so
// that variants interleave in one renderer and the machine's load hits them alike: 4 flood agents
// stream briefly into the built web host (quarter-width panes, as in the end-to-end benchmark); the
// last completed tool-call row and the last message row of the first pane are cloned into a box
// inside its scroller, COUNT at a time, each batch laid out, painted (the next frame) and removed.
// The figure is CPU time from /proc (the renderer's main thread, and its whole process: raster and
// compositor threads too) per batch — the machine's load inflates wall times, much less CPU time.
// Variants are CSS texts added to the page for their turn (ROW_COST_VARIANTS, a JSON object
// name → CSS; default: the page as built), rotated round by round.
// Usage (after a build): `node bench/lib/row-cost.mjs [rounds]` — one JSON line per kind and variant.
// ROW_COST_BATCHES=N batches per round (default 10), ROW_COST_COUNT rows per batch (default 8);
// Kind `nothing` is a batch's two frames with no row (subtract it). BENCH_RENDERER=DIR serves another
// built renderer.
import { procCpuSeconds } from './proc-cpu.mjs';
import { launchChromium, startWebHost, streamedPanes } from './web.mjs';

const ROUNDS = Number(process.argv[2] ?? 10);
const COUNT = Number(process.env.ROW_COST_COUNT ?? 8);
const BATCHES = Number(process.env.ROW_COST_BATCHES ?? 10);
const VARIANTS = process.env.ROW_COST_VARIANTS ? JSON.parse(process.env.ROW_COST_VARIANTS) : { as_built: '' };

/** CPU ms of the process `pid` (or its thread `tid`). */
const cpuMs = (pid, tid) => procCpuSeconds(pid, tid) * 1000;

const browser = await launchChromium();
const host = await startWebHost();
try {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  await streamedPanes(page, host.url);
  await page.waitForTimeout(300);
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  // The page's renderer: the renderer process with the most CPU so far.
  const pid = processInfo.filter((p) => p.type === 'renderer').sort((a, b) => b.cpuTime - a.cpuTime)[0].id;
  await page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="session-pane"] .tx-scroll');
    const rows = [...scroller.querySelectorAll('.tx-row')];
    const ofKind = (kind) => rows.filter((r) => r.firstElementChild?.getAttribute('data-testid') === `entry-${kind}` && !r.querySelector('[data-status="in_progress"]')).pop();
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;top:0;left:0;width:100%;height:0;overflow:visible';
    scroller.firstElementChild.appendChild(box);
    const style = document.createElement('style');
    document.head.appendChild(style);
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    window.__rowCost = {
      samples: { tool_call: ofKind('tool_call'), agent_message: ofKind('agent_message'), nothing: null },
      async setVariant(css) {
        // Spinners of tool calls the flood left running would animate under every variant.
        style.textContent = `.tx-spin { animation: none !important; }\n${css}`;
        await frame();
        await frame();
      },
      async run(kind, count, batches) {
        const sample = this.samples[kind];
        for (let b = 0; b < batches; b++) {
          const clones = [];
          for (let i = 0; i < count; i++) {
            if (!sample) break; // `nothing`: the two frames alone
            const c = sample.cloneNode(true);
            c.style.transform = `translateY(${i * 40}px)`;
            clones.push(c);
          }
          for (const c of clones) box.appendChild(c);
          await frame();
          for (const c of clones) c.remove();
          await frame();
        }
      },
    };
  });
  const totals = {};
  const names = Object.keys(VARIANTS);
  for (let r = 0; r < ROUNDS; r++) {
    for (let v = 0; v < names.length; v++) {
      const name = names[(v + r) % names.length];
      await page.evaluate((css) => window.__rowCost.setVariant(css), VARIANTS[name]);
      for (const kind of ['tool_call', 'agent_message', 'nothing']) {
        const main0 = cpuMs(pid, pid);
        const all0 = cpuMs(pid);
        await page.evaluate(([k, c, b]) => window.__rowCost.run(k, c, b), [kind, COUNT, BATCHES]);
        const t = (totals[`${kind}|${name}`] ??= { main: 0, all: 0, batches: 0 });
        t.main += cpuMs(pid, pid) - main0;
        t.all += cpuMs(pid) - all0;
        t.batches += BATCHES;
      }
    }
  }
  for (const [key, t] of Object.entries(totals)) {
    const [kind, variant] = key.split('|');
    console.log(JSON.stringify({ kind, variant, count: COUNT, batches: t.batches, mainCpuMsPerBatch: Math.round((t.main / t.batches) * 100) / 100, processCpuMsPerBatch: Math.round((t.all / t.batches) * 100) / 100 }));
  }
  await context.close();
} finally {
  await host.stop();
  await browser.close();
}
