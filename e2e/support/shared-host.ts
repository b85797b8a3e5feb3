import { expect, test } from '@playwright/test';
import { startWebHost, type RunningWebHost } from './web-host';

/**
 * One web host for every test of a spec file, and each test starting on its page with the
 * connection open. Returns a getter for the host (it exists once beforeAll has run).
 */
export function useSharedWebHost(): () => RunningWebHost {
  let host: RunningWebHost | undefined;
  test.beforeAll(async () => {
    host = await startWebHost();
  });
  test.afterAll(async () => {
    await host?.stop();
  });
  test.beforeEach(async ({ page }) => {
    await page.goto(host!.url);
    await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
  });
  return () => host!;
}
