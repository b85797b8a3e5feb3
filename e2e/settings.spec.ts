import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost } from './support/web-host';
import { FIXTURE_AGENT, screenshot, tempProject } from './support/workbench';

let host: RunningWebHost;
test.beforeEach(async () => {
  host = await startWebHost(); // a fresh data and config folder for every test
});
test.afterEach(async () => {
  await host?.stop();
});

const settingsFile = () => join(host.dataDir, 'config', 'settings.json');
const readSettings = () => JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
const writeSettings = (text: string) => {
  mkdirSync(join(host.dataDir, 'config'), { recursive: true });
  writeFileSync(settingsFile(), text);
};

async function openApp(page: Page) {
  await page.goto(host.url);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
}

test('theme, default agent, folder, policy and capabilities are saved to settings.json, survive a reload and preselect the new-session dialog', async ({ page }) => {
  writeSettings(JSON.stringify({ myOwnKey: 'kept', customAgents: [{ id: 'my-fixture', name: 'My fixture', command: process.execPath, args: [FIXTURE_AGENT, '--scenario', 'basic-text'] }] }, null, 2));
  const project = tempProject();
  await openApp(page);
  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('settings-file')).toContainText(settingsFile());

  // Appearance applies at once.
  await dialog.getByTestId('settings-theme-dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await dialog.getByTestId('settings-theme-system').check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/);
  await dialog.getByTestId('settings-theme-light').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  await dialog.getByTestId('settings-policy-reads').check();
  await dialog.getByTestId('settings-default-agent').selectOption('my-fixture');
  // A bad folder is refused next to the field; a real one is saved.
  await dialog.getByTestId('settings-default-folder').fill('not/absolute');
  await dialog.getByTestId('settings-default-folder-save').click();
  await expect(dialog.getByTestId('settings-error-defaultFolder')).toContainText('must be an absolute folder path');
  await dialog.getByTestId('settings-default-folder').fill(project);
  await dialog.getByTestId('settings-default-folder').press('Enter');
  await expect(dialog.getByTestId('settings-error-defaultFolder')).toHaveCount(0);
  await dialog.getByTestId('settings-cap-terminal').uncheck();
  await expect(dialog.getByTestId('settings-cap-terminal')).not.toBeChecked();
  await screenshot(page, 'settings-screen');
  await expect.poll(readSettings).toMatchObject({
    myOwnKey: 'kept',
    theme: 'light',
    permissionPolicy: 'reads',
    defaultAgent: 'my-fixture',
    defaultFolder: project,
    clientCapabilities: { terminal: false },
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('open-settings').click();
  await expect(dialog.getByTestId('settings-policy-reads')).toBeChecked();
  await expect(dialog.getByTestId('settings-theme-light')).toBeChecked();
  await expect(dialog.getByTestId('settings-default-agent')).toHaveValue('my-fixture');
  await expect(dialog.getByTestId('settings-default-folder')).toHaveValue(project);
  await dialog.getByTestId('settings-close').click();

  await page.keyboard.press('Control+n');
  const start = page.getByTestId('new-session-dialog');
  await expect(start.getByTestId('new-session-agent')).toHaveValue('my-fixture');
  await expect(start.getByTestId('new-session-cwd')).toHaveValue(project);
  await expect(start.getByTestId('new-session-policy')).toHaveValue('reads');
  await expect(start.getByTestId('new-session-cap-terminal')).not.toBeChecked();
  await expect(start.getByTestId('new-session-cap-readTextFile')).toBeChecked();
  await start.getByTestId('new-session-start').click();
  await expect(page.getByTestId('session-pane')).toHaveAttribute('data-status', 'ready');
});

test('a secret set for an agent is listed by name only and never reaches the page or settings.json', async ({ page }) => {
  const value = 'sk-e2e-SECRET-4242424242';
  await openApp(page);
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog.getByTestId('settings-secrets-protection')).toContainText('Not encrypted: no keychain');
  await dialog.getByTestId('settings-secrets-agent').selectOption('demo');
  await expect(dialog.getByTestId('settings-secrets-empty')).toContainText('acp-workbench agents secrets demo set NAME');
  await dialog.getByTestId('settings-secret-name').fill('DEMO_TOKEN');
  await dialog.getByTestId('settings-secret-value').fill(value);
  await dialog.getByTestId('settings-secret-save').click();
  const row = dialog.locator('[data-testid="settings-secret-row"][data-name="DEMO_TOKEN"]');
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-state', 'plain');
  await expect(dialog.getByTestId('settings-secret-value')).toHaveValue('');
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-secrets');
  expect(await page.content()).not.toContain(value);
  expect(readFileSync(join(host.dataDir, 'secrets.json'), 'utf8')).toContain(value);
  expect(() => readFileSync(settingsFile(), 'utf8')).toThrow(); // no settings change was needed, none was written

  // A bad name is refused with the reason.
  await dialog.getByTestId('settings-secret-name').fill('BAD NAME');
  await dialog.getByTestId('settings-secret-value').fill('x');
  await dialog.getByTestId('settings-secret-save').click();
  await expect(dialog.getByTestId('settings-secrets-error')).toContainText('is not an environment variable name');

  // After a reload the name is still listed; deleting it removes it.
  await page.reload();
  await page.getByTestId('open-settings').click();
  await dialog.getByTestId('settings-secrets-agent').selectOption('demo');
  await expect(row).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await row.getByTestId('settings-secret-delete').click();
  await expect(row).toHaveCount(0);
  expect(readFileSync(join(host.dataDir, 'secrets.json'), 'utf8')).not.toContain(value);
});

test('MCP servers: add, disable, refuse a bad URL next to the form', async ({ page }) => {
  await openApp(page);
  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByTestId('settings-mcp-add').click();
  await dialog.getByTestId('settings-mcp-name').fill('files');
  await dialog.getByTestId('settings-mcp-command').fill('npx -y @modelcontextprotocol/server-filesystem /tmp');
  await dialog.getByTestId('settings-mcp-pairs').fill('LOG_LEVEL=info');
  await dialog.getByTestId('settings-mcp-save').click();
  const row = dialog.locator('[data-testid="settings-mcp-row"][data-name="files"]');
  await expect(row).toHaveAttribute('data-enabled', 'true');
  await row.getByTestId('settings-mcp-enabled').uncheck();
  await expect(row).toHaveAttribute('data-enabled', 'false');
  await expect.poll(() => readSettings().mcpServers).toEqual([
    { name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: [{ name: 'LOG_LEVEL', value: 'info' }], enabled: false },
  ]);

  await dialog.getByTestId('settings-mcp-add').click();
  await dialog.getByTestId('settings-mcp-type').selectOption('http');
  await dialog.getByTestId('settings-mcp-name').fill('docs');
  await dialog.getByTestId('settings-mcp-url').fill('ftp://example.com/mcp');
  await dialog.getByTestId('settings-mcp-save').click();
  await expect(dialog.getByTestId('settings-mcp-form-error')).toContainText('an http(s) URL');
  await dialog.getByTestId('settings-mcp-url').fill('https://mcp.example.com/mcp');
  await dialog.getByTestId('settings-mcp-save').click();
  await expect(dialog.locator('[data-testid="settings-mcp-row"][data-name="docs"]')).toBeVisible();
  await screenshot(page, 'settings-mcp');
  await expect(dialog.getByTestId('settings-mcp-form')).toHaveCount(0);
});

test('a broken settings.json is reported and left untouched', async ({ page }) => {
  writeSettings('{ "theme": "dark", }');
  await openApp(page);
  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog.getByTestId('settings-problem')).toContainText('not valid JSON at line 1');
  // The change is refused: the error says why, and the switch goes back to what is in effect.
  await dialog.getByTestId('settings-theme-light').click();
  await expect(dialog.getByTestId('settings-error-file')).toContainText('has errors; fix them');
  await expect(dialog.getByTestId('settings-theme-system')).toBeChecked();
  expect(readFileSync(settingsFile(), 'utf8')).toBe('{ "theme": "dark", }');
});

test('a change made in one window reaches the others at once', async ({ page, context }) => {
  await openApp(page);
  const other = await context.newPage();
  await other.goto(host.url);
  await expect(other.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
  await other.getByTestId('open-settings').click();
  await expect(other.getByTestId('settings-policy-ask')).toBeChecked();

  await page.keyboard.press('Control+,');
  await page.getByTestId('settings-theme-dark').check();
  await page.getByTestId('settings-policy-none').check();
  await expect(other.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(other.getByTestId('settings-policy-none')).toBeChecked();
  await expect(other.getByTestId('settings-theme-dark')).toBeChecked();
  // Scrolled down to the last section, the close button is still in view (it scrolled away before).
  await other.getByTestId('settings-secret-save').scrollIntoViewIfNeeded();
  await expect(other.getByTestId('settings-close')).toBeInViewport({ ratio: 1 });
  await other.getByTestId('settings-close').click();
  await expect(other.getByTestId('settings-dialog')).toBeHidden();
});
