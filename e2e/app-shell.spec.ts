import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startWebHost, type RunningWebHost } from './support/web-host';

const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let host: RunningWebHost;

test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
});

test('the UI loads through the web host and shows the version it got from the core', async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
  await expect(page.getByTestId('app-version')).toHaveText(version);
  await expect(page.getByTestId('status-version')).toHaveText(`v${version}`);
  await expect(page.getByTestId('app-host')).toHaveText('web');
  await expect(page.getByTestId('app-data-dir')).toHaveText(host.dataDir);
  // The token is swapped for a cookie and removed from the address bar.
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
});

test('a reload works on the cookie alone', async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByTestId('app-version')).toHaveText(version);
  await page.goto(host.origin + '/');
  await expect(page.getByTestId('app-version')).toHaveText(version);
});

test('without the token the page is refused', async ({ page }) => {
  const response = await page.goto(host.origin + '/');
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('access token');
});

test('a WebSocket opened from a foreign page is refused', async ({ page, context }) => {
  await page.goto(host.url); // the cookie is set for 127.0.0.1
  const foreign = await context.newPage();
  await foreign.goto('about:blank');
  const outcome = await foreign.evaluate(
    (wsUrl) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(wsUrl);
        ws.onopen = () => resolve('open');
        ws.onerror = () => resolve('refused');
      }),
    `ws://127.0.0.1:${host.port}/api`,
  );
  expect(outcome).toBe('refused');
});
