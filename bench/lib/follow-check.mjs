// Whether every pane still follows its end once its long transcript has loaded (docs/performance.md
// § 5, "a pane left not following"): 4 sessions of 50,000 entries recorded as the browser benchmark
// records them, then opened side by side in a fresh page, as the benchmark does, `pages` times. Per
// page, one JSON line: each pane's follow state, offsets and whether its last entry is in view; with
// FOLLOW_CHECK_LOG=1 also the timeline of a pane that does not follow (its scroll events, follow
// changes, resizes and any reader input, from the page's first event).
// Usage (after a build): node bench/lib/follow-check.mjs [pages] [rendererDir]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI, floodCommand, launchChromium, openWorkbench, paneOf, prompt, startListening, startSession, transcriptComplete, transcriptShown } from './web.mjs';
import { benchDir } from './worker-common.mjs';

const PAGES = Number(process.argv[2] ?? 5);
const RENDERER = resolve(process.argv[3] ?? join(benchDir, '..', 'dist', 'renderer'));
const LOG = Boolean(process.env.FOLLOW_CHECK_LOG);
const cwd = tmpdir();

/** In the page, before the app: a timeline of what each transcript pane does. */
function recorder() {
  const log = (window.__follow = []);
  const t0 = performance.now();
  const paneId = (el) => el?.closest?.('[data-testid="transcript"]')?.dataset.sessionId;
  const note = (kind, el, extra) => log.push({ t: Math.round(performance.now() - t0), kind, id: paneId(el), ...extra });
  document.addEventListener(
    'scroll',
    (e) => {
      const s = e.target;
      if (s?.dataset?.testid === 'transcript-scroll') note('scroll', s, { top: Math.round(s.scrollTop), height: s.scrollHeight, client: s.clientHeight });
    },
    true,
  );
  for (const type of ['wheel', 'pointerdown', 'keydown', 'touchstart']) document.addEventListener(type, (e) => note(type, e.target, {}), true);
  const sizes = new ResizeObserver((entries) => {
    for (const e of entries) note('resize', e.target, { w: Math.round(e.contentRect.width), h: Math.round(e.contentRect.height) });
  });
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') {
        const el = r.target;
        if (r.attributeName === 'data-following' || r.attributeName === 'data-complete') note(r.attributeName, el, { value: el.getAttribute(r.attributeName), count: el.dataset.count });
        continue;
      }
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        for (const s of n.matches('[data-testid="transcript-scroll"]') ? [n] : n.querySelectorAll('[data-testid="transcript-scroll"]')) sizes.observe(s);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-following', 'data-complete'] });
}

/** Sessions recorded as browser.bench.mjs records them, from one window, until ready. */
async function prepared(browser, url, count, options) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  const ids = [];
  try {
    await openWorkbench(page, url);
    for (let i = 0; i < count; i++) ids.push(await startSession(page, floodCommand(options), cwd));
    for (const id of ids) await prompt(page, id);
    for (const id of ids) await page.locator(`[data-testid="session-item"][data-session-id="${id}"][data-status="ready"]`).waitFor({ timeout: 600_000 });
  } finally {
    await context.close();
  }
  return ids;
}

async function check(browser, url, ids) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  try {
    await openWorkbench(page, url);
    for (const id of ids) await transcriptShown(page, id);
    for (const id of ids) await transcriptComplete(page, id);
    await page.waitForTimeout(1000);
    const panes = [];
    for (const id of ids)
      panes.push(
        await paneOf(page, id)
          .getByTestId('transcript')
          .evaluate((el) => {
            const s = el.querySelector('[data-testid="transcript-scroll"]');
            const rows = [...el.querySelectorAll('.tx-row')];
            const last = rows.reduce((a, r) => (Number(r.dataset.index) > Number(a?.dataset.index ?? -1) ? r : a), undefined);
            const box = s.getBoundingClientRect();
            const lastBox = last?.getBoundingClientRect();
            return {
              following: el.dataset.following,
              count: Number(el.dataset.count),
              rows: rows.length,
              lastIndex: Number(last?.dataset.index),
              lastInView: Boolean(lastBox && lastBox.bottom <= box.bottom + 1 && lastBox.top >= box.top),
              fromEnd: Math.round(s.scrollHeight - s.clientHeight - s.scrollTop),
            };
          }),
      );
    const log = LOG && panes.some((p) => p.following !== 'true') ? await page.evaluate(() => window.__follow) : undefined;
    const bad = new Set(ids.filter((_, i) => panes[i].following !== 'true'));
    return { panes, ...(log ? { log: log.filter((e) => !e.id || bad.has(e.id) || e.kind !== 'scroll') } : {}) };
  } finally {
    await context.close();
  }
}

const browser = await launchChromium();
const work = mkdtempSync(join(tmpdir(), 'follow-check-'));
const host = await startListening(process.execPath, [CLI, 'web', '--json', '--data-dir', join(work, 'data'), '--renderer', RENDERER], { ...process.env, ACP_WORKBENCH_CONFIG_DIR: join(work, 'config') });
try {
  const ids = await prepared(browser, host.url, 4, '--n 50000 --alternate --tool-every 0');
  for (let p = 0; p < PAGES; p++) console.log(JSON.stringify({ page: p, ids, ...(await check(browser, host.url, ids)) }));
} finally {
  await browser.close();
  await host.stop();
  rmSync(work, { recursive: true, force: true });
}
