import { expect, type Page } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './web-host';

export const FIXTURE_AGENT = join(REPO_ROOT, 'dist', 'fixtures', 'fixture-agent.cjs');
export const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');

/** A fresh project folder for one test. */
export function tempProject(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-proj-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

export interface FixtureSession {
  sessionId: string;
  /** Every line the agent received, as parsed JSON-RPC messages. */
  received(): Array<Record<string, unknown>>;
}

/**
 * Start a fixture agent through the New session dialog (custom command), the way a user would,
 * and wait for its pane. `scenario` is a shipped scenario name, a file path, or an inline object.
 */
export async function startFixtureSession(
  page: Page,
  options: { scenario: string | object; cwd: string; policy?: 'ask' | 'all' | 'reads' | 'none'; label?: string },
): Promise<FixtureSession> {
  const logDir = mkdtempSync(join(tmpdir(), 'acpwb-log-'));
  const received = join(logDir, 'received.jsonl');
  let scenarioArg = typeof options.scenario === 'string' ? options.scenario : join(logDir, 'scenario.json');
  if (typeof options.scenario !== 'string') writeFileSync(scenarioArg, JSON.stringify(options.scenario));
  if (typeof options.scenario === 'string' && !options.scenario.includes('/')) scenarioArg = options.scenario;
  const before = await page.getByTestId('session-pane').count();
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-command').fill(`"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${scenarioArg}" --received-log "${received}"`);
  await dialog.getByTestId('new-session-cwd').fill(options.cwd);
  await dialog.getByTestId('new-session-policy').selectOption(options.policy ?? 'ask');
  await dialog.getByTestId('new-session-start').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('session-pane')).toHaveCount(before + 1);
  const pane = page.getByTestId('session-pane').nth(before);
  const sessionId = (await pane.getAttribute('data-session-id'))!;
  return {
    sessionId,
    received: () =>
      existsSync(received)
        ? readFileSync(received, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { message?: Record<string, unknown> }).message ?? {})
        : [],
  };
}

export function pane(page: Page, sessionId: string) {
  return page.locator(`[data-testid="session-pane"][data-session-id="${sessionId}"]`);
}

/**
 * Sends a prompt and waits until the core has taken it (the pane's status moved on from the send):
 * a wait for "ready" afterwards is then the turn's end, not the status from before the prompt.
 */
export async function sendPrompt(page: Page, sessionId: string, text: string): Promise<void> {
  const p = pane(page, sessionId);
  await p.getByTestId('composer-input').fill(text);
  await p.getByTestId('send-prompt').click();
  await expect(p).not.toHaveAttribute('data-sending', 'true');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
