/**
 * Logging in to an agent from the UI (issue #10 item 5), through the web host against the real
 * fixture agent (auth-required scenario): the failed start lists the agent's methods; a terminal
 * login runs in xterm.js wired to a real PTY, the user types the code, the core starts the agent
 * again and the session opens; an agent-type method is one click; the agents dialog offers the
 * same per agent.
 */
import { expect, test, type Page } from '@playwright/test';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost } from './support/web-host';
import { FIXTURE_AGENT, pane, screenshot, sendPrompt, tempProject } from './support/workbench';

let host: RunningWebHost;
test.beforeEach(async () => {
  host = await startWebHost();
});
test.afterEach(async () => {
  await host?.stop();
});

async function openApp(page: Page) {
  await page.goto(host.url);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
}

async function startNeedsLogin(page: Page, credential: string) {
  await openApp(page);
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-command').fill(`"${process.execPath}" "${FIXTURE_AGENT}" --scenario auth-required`);
  await dialog.getByTestId('new-session-env').fill(`FIXTURE_CREDENTIAL_FILE=${credential}`);
  await dialog.getByTestId('new-session-cwd').fill(tempProject());
  await dialog.getByTestId('new-session-start').click();
  await expect(dialog.getByTestId('new-session-error')).toContainText('needs you to log in first');
  const methods = dialog.getByTestId('auth-methods');
  await expect(methods.getByTestId('auth-method')).toHaveCount(3);
  await expect(page.getByTestId('session-item')).toHaveCount(0); // no leftover of the failed start
  return { dialog, methods };
}

test('a terminal login runs in the terminal view, the typed code logs in, and the session starts and streams', async ({ page }) => {
  const credential = join(tempProject(), 'credential.json');
  const { dialog, methods } = await startNeedsLogin(page, credential);
  const terminalMethod = methods.locator('[data-testid="auth-method"][data-method-id="fixture-terminal-login"]');
  await expect(terminalMethod).toHaveAttribute('data-kind', 'terminal');
  await terminalMethod.getByTestId('auth-method-terminal').click();

  const login = dialog.getByTestId('terminal-login');
  await expect(login).toHaveAttribute('data-state', 'running');
  await expect(login.getByTestId('terminal-login-command')).toContainText('FIXTURE_LOGIN=1');
  const screen = login.getByTestId('terminal-login-screen');
  await expect(screen).toContainText('Paste code:');
  await expect(screen).toContainText('FIXTURE_LOGIN=1, terminal: yes');
  // The start error stays readable above the login: the dialog scrolls, the error is not squeezed
  // to a sliver (it shows up to 200 px of its text and scrolls past that).
  const error = dialog.getByTestId('new-session-error');
  const { client, scroll } = await error.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight }));
  expect(client).toBeGreaterThanOrEqual(Math.min(scroll, 200) - 1);
  await screenshot(page, 'terminal-login');
  await screen.click();
  await page.keyboard.type('fixture-code-42');
  await page.keyboard.press('Enter');

  // Exit 0 → the core starts the agent again (it finds the credential) and the session opens.
  const p = page.getByTestId('session-pane');
  await expect(p).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  await expect(dialog).toHaveCount(0);
  expect(existsSync(credential)).toBe(true);
  const sessionId = (await p.getAttribute('data-session-id'))!;
  await sendPrompt(page, sessionId, 'hello');
  await expect(pane(page, sessionId).getByTestId('entry-agent_message')).toContainText('You are logged in.');
});

test('a failed terminal login says so and keeps its output; an agent-type method then starts the session', async ({ page }) => {
  const { dialog, methods } = await startNeedsLogin(page, join(tempProject(), 'credential.json'));
  await methods.locator('[data-method-id="fixture-terminal-login"]').getByTestId('auth-method-terminal').click();
  const login = dialog.getByTestId('terminal-login');
  const screen = login.getByTestId('terminal-login-screen');
  await expect(screen).toContainText('Paste code:');
  await screen.click();
  await page.keyboard.type('wrong');
  await page.keyboard.press('Enter');
  await expect(login).toHaveAttribute('data-state', 'failed');
  await expect(login.getByTestId('terminal-login-status')).toContainText('exited with code 1');
  await expect(screen).toContainText('Wrong code; not logged in.');

  await methods.locator('[data-method-id="fixture-login"]').getByTestId('auth-method-authenticate').click();
  const p = page.getByTestId('session-pane');
  await expect(p).toHaveAttribute('data-status', 'ready');
  const sessionId = (await p.getAttribute('data-session-id'))!;
  await sendPrompt(page, sessionId, 'hello');
  await expect(pane(page, sessionId).getByTestId('entry-agent_message')).toContainText('You are logged in.');
});

test('the agents dialog offers "Log in…" per agent with its methods', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('open-agents').click();
  const dialog = page.getByTestId('agents-dialog');
  await dialog.getByTestId('agent-add').click();
  await dialog.getByTestId('agent-form-name').fill('Needs Login');
  await dialog.getByTestId('agent-form-command').fill(`"${process.execPath}" "${FIXTURE_AGENT}" --scenario auth-required`);
  await dialog.getByTestId('agent-form-save').click();
  const row = dialog.locator('[data-testid="agent-row"][data-agent-id="needs-login"]');
  await row.getByTestId('agent-login').click();
  const panel = dialog.getByTestId('agent-login-panel');
  await expect(panel.getByTestId('auth-method')).toHaveCount(3);
  await panel.locator('[data-method-id="fixture-login"]').getByTestId('auth-method-authenticate').click();
  await expect(panel.getByTestId('agent-login-message')).toHaveText('Logged in.');
  await panel.locator('[data-method-id="fixture-broken"]').getByTestId('auth-method-authenticate').click();
  await expect(panel.getByTestId('agent-login-message')).toContainText('logging in with "fixture-broken" failed');
});

test('a pane whose agent wants a login again on restart offers the methods, and a terminal login restarts it in place', async ({ page }) => {
  const dir = tempProject();
  const credential = join(dir, 'credential.json');
  writeFileSync(credential, '{}');
  const scenario = join(dir, 'scenario.json');
  writeFileSync(
    scenario,
    JSON.stringify({
      initialize: { authMethods: [{ type: 'terminal', id: 'relogin', name: 'Log in again', args: ['--login'] }] },
      requireAuth: { methodIds: ['unused'], terminalLogin: { code: 'again' } },
      defaultPrompt: { steps: [{ crash: { exitCode: 3 } }] },
    }),
  );
  await openApp(page);
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-command').fill(`"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${scenario}"`);
  await dialog.getByTestId('new-session-env').fill(`FIXTURE_CREDENTIAL_FILE=${credential}`);
  await dialog.getByTestId('new-session-cwd').fill(dir);
  await dialog.getByTestId('new-session-start').click();
  const first = page.getByTestId('session-pane');
  await expect(first).toHaveAttribute('data-status', 'ready');
  const sessionId = (await first.getAttribute('data-session-id'))!;
  await sendPrompt(page, sessionId, 'crash');
  await expect(first).toHaveAttribute('data-status', 'crashed');

  rmSync(credential); // the login expired meanwhile
  await first.getByTestId('restart-session').click();
  await expect(first.getByTestId('restart-error')).toContainText('needs you to log in first');
  await first.locator('[data-method-id="relogin"]').getByTestId('auth-method-terminal').click();
  const screen = first.getByTestId('terminal-login-screen');
  await expect(screen).toContainText('Paste code:');
  await screen.click();
  await page.keyboard.type('again');
  await page.keyboard.press('Enter');
  const fresh = page.getByTestId('session-pane');
  await expect(fresh).toHaveCount(1);
  await expect(fresh).not.toHaveAttribute('data-session-id', sessionId, { timeout: 20_000 });
  await expect(fresh).toHaveAttribute('data-status', 'ready');
});
