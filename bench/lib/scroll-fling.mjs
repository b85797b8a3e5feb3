// The scroll of benchmark 5 ("frames over 20 ms while scrolling 4 panes"), shared by
// browser.bench.mjs and scroll-cost.mjs so that both measure the same thing:
//   - `fling(page, steps)`: every transcript pane scrolled up 400 px per animation frame for 1.5 s
//     (or `steps` frames), as a reader's fling — a wheel event each frame (a pane draws rows light
//     only for a scroll of the reader's, TranscriptView.tsx) and the offset written by the script.
//     Resolves with the number of steps done.
//   - `backToLatest(page)`: the reader's way back — "Jump to latest" in every pane that shows it —,
//     then waits until every pane follows its end again, has no light row left, and the page has
//     been still for a second: the state the first fling starts from, so a run can be repeated.
// One 1.5 s fling records ≈ 80 frames on the project's host; the share of them over 20 ms moved
// 1.1–10 % between runs of the same renderer (docs/performance.md § 5), so the benchmark takes the
// median of SCROLL_RUNS flings, each from the end of the four panes.

export const SCROLL_RUNS = 3;

export function fling(page, steps = 0) {
  return page.evaluate(
    (fixed) =>
      new Promise((done) => {
        const scrollers = [...document.querySelectorAll('[data-testid="transcript-scroll"]')];
        const end = performance.now() + 1500;
        let n = 0;
        const step = () => {
          window.__scrollStep = n + 1;
          window.__flingSteps?.push(performance.now()); // when each step ran (scroll-cost.mjs places long tasks by it)
          for (const s of scrollers) {
            s.dispatchEvent(new WheelEvent('wheel', { deltaY: -400 }));
            s.scrollTop = Math.max(0, s.scrollTop - 400);
          }
          n++;
          if (fixed ? n < fixed : performance.now() < end) requestAnimationFrame(step);
          else done(n);
        };
        requestAnimationFrame(step);
      }),
    steps,
  );
}

export async function backToLatest(page) {
  // Wait for the panes to settle after the fling (they show "Jump to latest" once still).
  await page.waitForTimeout(300);
  await page.evaluate(() => {
    for (const b of document.querySelectorAll('[data-testid="jump-to-latest"]')) b.click();
  });
  await page.waitForFunction(
    () => {
      const views = [...document.querySelectorAll('[data-testid="transcript"]')];
      return views.length > 0 && views.every((v) => v.dataset.following === 'true') && !document.querySelector('.tx-row-light');
    },
    null,
    { timeout: 30_000, polling: 100 },
  );
  await page.waitForTimeout(1000);
}
