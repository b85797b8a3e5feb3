// Screenshots of 4 long transcripts while they scroll fast (light rows) and once they are still, in
// the light and the dark theme, for one or more renderer builds served by one web host (as
// scroll-cost.mjs). Usage (after a build): node bench/lib/scroll-look.mjs OUTDIR [name=rendererDir ...]
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI, floodCommand, launchChromium, openWorkbench, paneOf, prompt, startListening, startSession, transcriptComplete, transcriptShown, waitReady } from './web.mjs';

const out = resolve(process.argv[2] ?? join(tmpdir(), 'scroll-look'));
const given = process.argv.slice(3).map((a) => a.split('='));
const variants = given.length ? given.map(([name, dir]) => ({ name, dir: resolve(dir) })) : [{ name: 'current', dir: resolve('dist/renderer') }];
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'scroll-look-'));
const link = join(work, 'renderer');
const serve = (v) => (rmSync(link, { force: true }), symlinkSync(v.dir, link));

const browser = await launchChromium();
serve(variants[0]);
const host = await startListening(process.execPath, [CLI, 'web', '--json', '--data-dir', join(work, 'data'), '--renderer', link], { ...process.env, ACP_WORKBENCH_CONFIG_DIR: join(work, 'config') });
try {
  const setup = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await openWorkbench(setup, host.url);
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push(await startSession(setup, floodCommand('--n 3000 --alternate --tool-every 0'), tmpdir()));
  for (const id of ids) await prompt(setup, id);
  for (const id of ids) await waitReady(setup, id);
  await setup.close();
  for (const v of variants) {
    serve(v);
    for (const theme of ['light', 'dark']) {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      await openWorkbench(page, host.url);
      for (const id of ids) await transcriptShown(page, id);
      for (const id of ids) await transcriptComplete(page, id);
      await page.keyboard.press('Control+Shift+P');
      await page.getByTestId('palette-input').fill(`theme ${theme}`);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(500);
      // 8 fast steps (400 px a frame), then a picture of the frame after the last one.
      await page.evaluate(
        () =>
          new Promise((done) => {
            const scrollers = [...document.querySelectorAll('[data-testid="transcript-scroll"]')];
            let n = 0;
            const step = () => {
              for (const s of scrollers) {
                // A reader's fling: a wheel event each frame (the pane draws rows light only for a
                // scroll of the reader's — TranscriptView.tsx), the offset written by the script.
                s.dispatchEvent(new WheelEvent('wheel', { deltaY: -400 }));
                s.scrollTop = Math.max(0, s.scrollTop - 400);
              }
              if (++n < 8) requestAnimationFrame(step);
              else requestAnimationFrame(() => done());
            };
            requestAnimationFrame(step);
          }),
      );
      const light = await page.evaluate(() => document.querySelectorAll('.tx-row-light').length);
      // Per pane: the first row index in view and the mean height per row of the rows in the DOM
      // (from their places): a pane whose unmeasured rows are guessed too tall scrolls less.
      const panes = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="transcript-scroll"]')].map((s) => {
          const rows = [...s.querySelectorAll('.tx-row')].map((r) => ({ i: Number(r.dataset.index), y: new DOMMatrix(getComputedStyle(r).transform).m42 })).sort((a, b) => a.i - b.i);
          const first = rows[0];
          const last = rows[rows.length - 1];
          const top = s.getBoundingClientRect().top;
          const inView = [...s.querySelectorAll('.tx-row')].filter((r) => r.getBoundingClientRect().bottom > top).map((r) => Number(r.dataset.index));
          return { firstInView: Math.min(...inView), pxPerRow: first && last && last.i > first.i ? Math.round(((last.y - first.y) / (last.i - first.i)) * 10) / 10 : null };
        }),
      );
      await page.screenshot({ path: join(out, `${v.name}-${theme}-scrolling.png`) });
      await page.waitForTimeout(1500);
      const lightAfter = await page.evaluate(() => document.querySelectorAll('.tx-row-light').length);
      await page.screenshot({ path: join(out, `${v.name}-${theme}-still.png`) });
      console.log(JSON.stringify({ variant: v.name, theme, lightRowsWhileScrolling: light, lightRowsWhenStill: lightAfter, panes }));
      await page.close();
    }
  }
} finally {
  await browser.close();
  await host.stop();
  rmSync(work, { recursive: true, force: true });
}
