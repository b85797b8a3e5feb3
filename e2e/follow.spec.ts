import { expect, test, type Locator, type Page } from '@playwright/test';
import { useSharedWebHost } from './support/shared-host';
import { pane, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

const host = useSharedWebHost();

/** A prompt's script of `n` alternating thoughts and messages, then end_turn (as transcript.spec.ts). */
function floodSteps(n: number): object[] {
  const steps: object[] = [];
  for (let i = 0; i < n; i++) steps.push({ thought: `thinking ${i}` }, { text: `answer ${i}` });
  steps.push({ end: 'end_turn' });
  return steps;
}

/** Whether the pane's last entry shows whole in its scroller ('in view'), else the figures that say where it is. */
function lastEntryInView(p: Locator): Promise<string> {
  return p.getByTestId('transcript-scroll').evaluate((s) => {
    const count = Number(s.closest('[data-testid="transcript"]')?.getAttribute('data-count'));
    const box = s.querySelector(`.tx-row[data-index="${count - 1}"]`)?.getBoundingClientRect();
    const view = s.getBoundingClientRect();
    if (box && box.top >= view.top - 1 && box.bottom <= view.bottom + 1) return 'in view';
    return JSON.stringify({ scrollTop: s.scrollTop, scrollHeight: s.scrollHeight, clientHeight: s.clientHeight, last: box && [box.top, box.bottom], view: [view.top, view.bottom] });
  });
}

/** The pane follows (no "Jump to latest") and shows its last entry. */
async function followsItsEnd(p: Locator, what: string) {
  await expect(p.getByTestId('transcript'), what).toHaveAttribute('data-following', 'true');
  await expect(p.getByTestId('jump-to-latest'), what).toHaveCount(0);
  await expect.poll(() => lastEntryInView(p), `${what}: last entry in view`).toBe('in view');
}

test('long sessions opened side by side each follow their end once loaded', async ({ page, browser }: { page: Page; browser: import('@playwright/test').Browser }) => {
  test.setTimeout(240_000);
  // Four recorded sessions long enough to load end first, their older entries joining later.
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: floodSteps(1500) } }, cwd: tempProject() });
    await sendPrompt(page, s.sessionId, 'flood');
    ids.push(s.sessionId);
  }
  for (const id of ids) await expect(pane(page, id)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  // Opened one after the other in a fresh window, as a reader does (each opening narrows the others
  // while their transcripts still load); nobody scrolls. Several windows: the timing varies.
  for (let round = 0; round < 4; round++) {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const reader = await context.newPage();
    try {
      await reader.goto(host().url);
      await expect(reader.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
      for (const id of ids) {
        await reader.locator(`[data-testid="session-item"][data-session-id="${id}"]`).click();
        await expect(pane(reader, id).getByTestId('transcript')).not.toHaveAttribute('data-count', '0');
      }
      for (const id of ids) await expect(pane(reader, id).getByTestId('transcript')).toHaveAttribute('data-complete', 'true', { timeout: 60_000 });
      for (const id of ids) await followsItsEnd(pane(reader, id), `window ${round + 1}, pane ${ids.indexOf(id) + 1}`);
    } finally {
      await context.close();
    }
  }
});

test('a following pane whose viewport gets shorter (nobody scrolled) still follows and shows its end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: floodSteps(200) } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'flood');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await followsItsEnd(p, 'after the stream');
  // Shorter by more than the "at the end" threshold, then by a few pixels: the layout's doing, not the reader's.
  await page.setViewportSize({ width: 1280, height: 700 });
  await followsItsEnd(p, '300 px shorter');
  await page.setViewportSize({ width: 1280, height: 690 });
  await followsItsEnd(p, '10 px shorter');
  // The reader's own scroll still stops it.
  const box = (await p.getByTestId('transcript-scroll').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -600);
  await expect(p.getByTestId('transcript')).toHaveAttribute('data-following', 'false');
  await expect(p.getByTestId('jump-to-latest')).toBeVisible();
});
