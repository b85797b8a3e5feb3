import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost } from './support/web-host';
import { FIXTURE_AGENT, pane, screenshot, sendPrompt, tempProject } from './support/workbench';

let host: RunningWebHost;
test.beforeEach(async () => {
  host = await startWebHost(); // a fresh data and config folder for every test
});
test.afterEach(async () => {
  await host?.stop();
});

test('a fresh data folder opens on the demo agent, and a prompt streams', async ({ page }) => {
  await page.goto(host.url);
  // The welcome screen leads to each way of working: compare runs and History too.
  await page.getByTestId('welcome-compare').click();
  await expect(page.getByTestId('new-run-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('new-run-dialog')).toHaveCount(0);
  await page.getByTestId('welcome-history').click();
  await expect(page.getByTestId('history-screen')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('history-screen')).toHaveCount(0);
  await page.getByTestId('welcome-demo').click();
  const p = page.getByTestId('session-pane');
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.getByTestId('pane-agent')).toContainText('Demo agent (scripted)');
  await p.getByTestId('composer-input').fill('show me around');
  await p.getByTestId('send-prompt').click();
  await expect(p.getByTestId('entry-agent_message').first()).toContainText('demo agent');
  await expect(p.getByTestId('plan')).toBeVisible();
  // The demo asks before writing its note: a permission request waits for the user.
  await expect(p).toHaveAttribute('data-status', 'waiting');
  await expect(page.getByTestId('session-waiting-badge')).toHaveText('1');
  await screenshot(page, 'demo-permission');
  await p.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.getByTestId('terminal-output').last()).toContainText('Listing the session folder');
  expect(existsSync(join(host.dataDir, 'demo-workspace', 'demo-notes.md'))).toBe(true);
});

test('the Agents dialog takes the focus when opened with the mouse, Esc closes it and the focus comes back', async ({ page }) => {
  await page.goto(host.url);
  await page.getByTestId('open-agents').click();
  await expect(page.getByTestId('agents-dialog')).toBeVisible();
  await expect(page.getByTestId('agents-dialog')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('agents-dialog')).toBeHidden();
  await expect(page.getByTestId('open-agents')).toBeFocused();
});

test('a custom agent whose command is missing says so, and what to do, once', async ({ page }) => {
  await page.goto(host.url);
  await page.getByTestId('open-agents').click();
  const agents = page.getByTestId('agents-dialog');
  await agents.getByTestId('agent-add').click();
  await agents.getByTestId('agent-form-name').fill('Missing binary');
  await agents.getByTestId('agent-form-command').fill('/nonexistent/agent-bin --acp');
  await agents.getByTestId('agent-form-save').click();
  await expect(agents.locator('[data-testid="agent-row"][data-agent-id="missing-binary"]')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.getByTestId('new-session-agent').selectOption('missing-binary');
  await dialog.getByTestId('new-session-cwd').fill(tempProject());
  await dialog.getByTestId('new-session-start').click();
  const error = dialog.getByTestId('new-session-error');
  await expect(error).toContainText('Missing binary (missing-binary) cannot be started: it is not installed');
  // The fix was shown twice: once inside the message and once more as the hint.
  expect(((await error.textContent()) ?? '').split('To install:').length - 1).toBe(1);
});

test('a custom agent added in the UI is saved to settings and starts', async ({ page }) => {
  await page.goto(host.url);
  await page.getByTestId('open-agents').click();
  const dialog = page.getByTestId('agents-dialog');
  await expect(dialog.locator('[data-testid="agent-row"][data-agent-id="demo"]')).toBeVisible();
  await dialog.getByTestId('agent-add').click();
  await dialog.getByTestId('agent-form-name').fill('My test agent');
  await dialog.getByTestId('agent-form-command').fill(`"${process.execPath}" "${FIXTURE_AGENT}" --scenario basic-text`);
  await dialog.getByTestId('agent-form-env').fill('GREETING=hello');
  await dialog.getByTestId('agent-form-save').click();
  const row = dialog.locator('[data-testid="agent-row"][data-agent-id="my-test-agent"]');
  await expect(row).toBeVisible();
  const settings = JSON.parse(readFileSync(join(host.dataDir, 'config', 'settings.json'), 'utf8')) as { customAgents: Array<Record<string, unknown>> };
  expect(settings.customAgents[0]).toMatchObject({ id: 'my-test-agent', name: 'My test agent', command: process.execPath, env: { GREETING: 'hello' } });
  await row.getByTestId('agent-duplicate').click();
  await expect(dialog.locator('[data-testid="agent-row"][data-source="custom"]')).toHaveCount(2);
  await page.keyboard.press('Escape');

  await page.keyboard.press('Control+n');
  const start = page.getByTestId('new-session-dialog');
  await start.getByTestId('new-session-agent').selectOption('my-test-agent');
  await start.getByTestId('new-session-cwd').fill(tempProject());
  await start.getByTestId('new-session-start').click();
  const p = page.getByTestId('session-pane');
  await expect(p).toHaveAttribute('data-status', 'ready');
  await sendPrompt(page, (await p.getAttribute('data-session-id'))!, 'hi');
  await expect(pane(page, (await p.getAttribute('data-session-id'))!).getByTestId('entry-agent_message')).toHaveCount(1);
});

test('an agent waiting for the user while the window is in the background raises a desktop notification', async ({ page }) => {
  await page.addInitScript(() => {
    const shown: string[] = [];
    (globalThis as unknown as { __notifications: string[] }).__notifications = shown;
    const instances: unknown[] = [];
    (globalThis as unknown as { __notificationInstances: unknown[] }).__notificationInstances = instances;
    class FakeNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string) {
        shown.push(title);
        instances.push(this);
      }
      close() {}
    }
    (globalThis as unknown as { Notification: unknown }).Notification = FakeNotification;
    // The window is not focused: the user is elsewhere.
    (globalThis as unknown as { Document: { prototype: { hasFocus: () => boolean } } }).Document.prototype.hasFocus = () => false;
  });
  await page.goto(host.url);
  await page.getByTestId('welcome-demo').click();
  const p = page.getByTestId('session-pane');
  await expect(p).toHaveAttribute('data-status', 'ready');
  await p.getByTestId('composer-input').fill('go');
  await p.getByTestId('send-prompt').click();
  await expect(p).toHaveAttribute('data-status', 'waiting');
  await expect.poll(() => page.evaluate(() => (globalThis as unknown as { __notifications: string[] }).__notifications)).toContainEqual(expect.stringContaining('is waiting for you'));
  await expect(page).toHaveTitle(/^\(1\) ACP Workbench/);
  // A click on the notification brings back the pane that waits, focused, even when it was hidden.
  const sessionId = (await p.getAttribute('data-session-id'))!;
  await p.getByTestId('pane-hide').click();
  await expect(page.getByTestId('session-pane')).toHaveCount(0);
  await page.evaluate(() => {
    const all = (globalThis as unknown as { __notificationInstances: Array<{ onclick: (() => void) | null }> }).__notificationInstances;
    all[all.length - 1]!.onclick!();
  });
  await expect(pane(page, sessionId)).toHaveClass(/focused/);
});
