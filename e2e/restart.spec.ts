/**
 * The workbench dies with sessions open (a crash, a killed process): the next start offers them
 * back — resumed in panes, with their conversation — or dismissed for good.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost } from './support/web-host';
import { pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

let dataDir: string;
let host: RunningWebHost | undefined;
test.beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'acpwb-e2e-restart-'));
});
test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** A web host on the test's data folder, with the workbench open in `page`. */
async function open(page: import('@playwright/test').Page): Promise<RunningWebHost> {
  host = await startWebHost({}, { dataDir });
  await page.goto(host.url);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
  return host;
}

/** The host killed outright (no shutdown: the traces end without an exit), its agent gone with it. */
async function crash(h: RunningWebHost): Promise<void> {
  const exited = new Promise((r) => h.process.once('exit', r));
  h.process.kill('SIGKILL');
  await exited;
  host = undefined;
}

/** A host with one session that answered `prompt`, killed: the session is cut off. */
async function crashWithOneSession(page: import('@playwright/test').Page, prompt: string) {
  const first = await open(page);
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, prompt);
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await crash(first);
  return s;
}

test('sessions open when the workbench was killed are offered at the next start and resume with their conversation', async ({ page }) => {
  await crashWithOneSession(page, 'remember the pelican');

  await open(page);
  const banner = page.getByTestId('interrupted-banner');
  await expect(banner).toHaveAttribute('data-count', '1');
  await expect(banner).toContainText('A session was cut off when the workbench last stopped');
  await expect(banner).toContainText('remember the pelican');
  await screenshot(page, 'interrupted-banner');
  await banner.getByTestId('interrupted-resume-all').click();
  await expect(banner).toBeHidden();
  const live = page.getByTestId('session-pane').first();
  await expect(live).toHaveAttribute('data-status', 'ready');
  await expect(live.getByTestId('entry-user_message').filter({ hasText: 'remember the pelican' })).toHaveCount(1);

  // Resumed: not offered again, even after another crash of a window that never dismissed it
  // (the resumed session is the one cut off now).
  await page.reload();
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
  await page.waitForTimeout(1500);
  await expect(page.getByTestId('interrupted-banner')).toHaveCount(0);
});

test('a dismissed offer is not made again; the sessions stay in History', async ({ page }) => {
  const s = await crashWithOneSession(page, 'a question about herons');

  await open(page);
  const banner = page.getByTestId('interrupted-banner');
  await expect(banner).toBeVisible();
  await banner.getByTestId('interrupted-dismiss').click();
  await expect(banner).toBeHidden();
  // Not again: neither in this window nor after a restart of the host (another origin for the
  // browser: the dismissal is the core's, not the page's storage).
  await host!.stop();
  host = undefined;
  await open(page);
  await page.waitForTimeout(1500);
  await expect(page.getByTestId('interrupted-banner')).toHaveCount(0);
  await page.getByTestId('open-history').click();
  await expect(page.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`)).toContainText('interrupted');
});

test('a workbench stopped the usual way offers nothing at the next start', async ({ page }) => {
  const first = await open(page);
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'hello');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await first.stop();
  host = undefined;
  await open(page);
  await page.waitForTimeout(1500);
  await expect(page.getByTestId('interrupted-banner')).toHaveCount(0);
});
