import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoSeriousViolations } from './support/axe';
import { useSharedWebHost } from './support/shared-host';
import { FIXTURE_AGENT, pane, sendPrompt, startFixtureSession, tempProject } from './support/workbench';
import { DATABASE_FORM } from './support/elicitation-form';

/**
 * Every main screen of the workbench, in the light and the dark theme (the OS scheme, which the
 * "system" theme follows), checked by axe against WCAG 2.0/2.1 A and AA: no violation of impact
 * serious or critical may remain. See docs/accessibility.md.
 */
useSharedWebHost();

/** A session waiting on a permission request, after a plan, a read and a tool call with a diff. */
async function paneWithPendingPermission(page: Page): Promise<string> {
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd: tempProject({ 'hello.txt': 'Hello\n' }) });
  const p = pane(page, s.sessionId);
  await p.getByTestId('composer-input').fill('change the greeting');
  await p.getByTestId('send-prompt').click();
  await expect(p.getByTestId('permission-card')).toHaveAttribute('data-status', 'pending');
  await expect(p.getByTestId('plan')).toBeVisible();
  await expect(p.locator('[data-testid="tool-call"][data-tool-call-id="read-1"]')).toHaveAttribute('data-status', 'completed');
  // The permission's diff in Monaco, so that the check covers the editor's own DOM.
  await expect(p.getByTestId('permission-diff-view').first()).toHaveAttribute('data-state', 'live');
  return s.sessionId;
}

/** A session with one finished turn. */
async function paneAfterTurn(page: Page): Promise<string> {
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'hello there');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  return s.sessionId;
}

/** A git repository with one commit, for a compare run. */
function tempRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-a11y-repo-')));
  writeFileSync(join(dir, 'shared.txt'), 'line 1\nline 2\n');
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))), GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]) => execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=A', '-c', 'user.email=a@example.com', ...args], { cwd: dir, env });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  return dir;
}

/** The command line of a fixture agent that writes `file` and answers. */
function writingAgent(file: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-a11y-scn-'));
  const scenario = join(dir, 'scenario.json');
  const steps = [
    { toolCall: { toolCallId: 'w1', title: `Write ${file}`, kind: 'edit' } },
    { writeFile: { path: file, content: `from ${file}\n` } },
    { writeFile: { path: 'shared.txt', content: `line 1\nline 2 by ${file}\n` } },
    { toolCallUpdate: { toolCallId: 'w1', status: 'completed' } },
    { text: `wrote ${file}` },
  ];
  writeFileSync(scenario, JSON.stringify({ defaultPrompt: { steps } }));
  return `"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${scenario}" --max-lifetime-ms 120000`;
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('welcome screen', async ({ page }) => {
      await expect(page.getByTestId('welcome')).toBeVisible();
      await expectNoSeriousViolations(page, `welcome (${colorScheme})`);
    });

    test('new-session dialog', async ({ page }) => {
      await page.keyboard.press('Control+n');
      await expect(page.getByTestId('new-session-dialog')).toBeVisible();
      await expectNoSeriousViolations(page, `new-session dialog (${colorScheme})`);
      await page.getByTestId('new-session-agent').selectOption('__command__');
      await expect(page.getByTestId('new-session-command')).toBeVisible();
      await expectNoSeriousViolations(page, `new-session dialog, custom command (${colorScheme})`);
    });

    test('session pane with a tool call, a plan and a pending permission request', async ({ page }) => {
      const sessionId = await paneWithPendingPermission(page);
      await expectNoSeriousViolations(page, `session pane (${colorScheme})`);
      await pane(page, sessionId).getByTestId('permission-option').first().click();
      await expect(pane(page, sessionId)).toHaveAttribute('data-status', 'ready');
      await expect(pane(page, sessionId).getByTestId('terminal')).toBeVisible();
      await expectNoSeriousViolations(page, `session pane after the turn (${colorScheme})`);
      await pane(page, sessionId).locator('[data-testid="tool-call"][data-tool-call-id="edit-1"]').getByTestId('open-diff').click();
      await expect(page.getByTestId('diff-dialog').getByTestId('diff-dialog-editor')).toBeVisible();
      await expect(page.getByTestId('diff-dialog').getByTestId('diff-dialog-editor')).toHaveAttribute('data-state', 'live');
      await expectNoSeriousViolations(page, `diff dialog (${colorScheme})`);
    });

    test('find bar over a transcript', async ({ page }) => {
      const sessionId = await paneAfterTurn(page);
      const p = pane(page, sessionId);
      await p.getByTestId('composer-input').click();
      await page.keyboard.press('Control+f');
      await expect(p.getByTestId('find-input')).toBeFocused();
      await page.keyboard.type('hello');
      await expect(p.getByTestId('find-bar')).not.toHaveAttribute('data-total', '0');
      await expectNoSeriousViolations(page, `find bar (${colorScheme})`);
    });

    test('crash banner', async ({ page }) => {
      const s = await startFixtureSession(page, { scenario: 'crash-mid-turn', cwd: tempProject() });
      await sendPrompt(page, s.sessionId, 'do it');
      await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'crashed');
      await expect(pane(page, s.sessionId).getByTestId('crash-stderr')).toContainText('panic');
      await expectNoSeriousViolations(page, `crash banner (${colorScheme})`);
    });

    test('New compare run dialog', async ({ page }) => {
      await page.getByTestId('new-compare-run').click();
      await expect(page.getByTestId('new-run-dialog')).toBeVisible();
      await expectNoSeriousViolations(page, `New compare run dialog (${colorScheme})`);
    });

    test('a compare run: its strip and timeline over the panes, then the comparison view', async ({ page }) => {
      await page.setViewportSize({ width: 1500, height: 950 });
      await page.getByTestId('new-compare-run').click();
      const dialog = page.getByTestId('new-run-dialog');
      const rows = dialog.getByTestId('new-run-agent');
      for (const [i, file] of ['a.txt', 'b.txt'].entries()) {
        await rows.nth(i).getByTestId('new-run-agent-select').selectOption('__command__');
        await rows.nth(i).getByTestId('new-run-agent-command').fill(writingAgent(file));
        await rows.nth(i).getByTestId('new-run-agent-label').fill(file);
      }
      await dialog.getByTestId('new-run-cwd').fill(tempRepo());
      await dialog.getByTestId('new-run-prompt').fill('write your file');
      await dialog.getByTestId('new-run-policy').selectOption('all');
      await dialog.getByTestId('new-run-start').click();
      await expect(dialog).toBeHidden();
      const strip = page.getByTestId('run-strip');
      await expect(strip).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      await expectNoSeriousViolations(page, `compare run strip and panes (${colorScheme})`);
      await strip.getByTestId('run-open-comparison').click();
      const comparison = page.getByTestId('comparison-view');
      await expect(comparison).toHaveAttribute('data-loaded', 'true');
      await expect(comparison.getByTestId('file-row')).toHaveCount(3);
      await expectNoSeriousViolations(page, `comparison view (${colorScheme})`);
      await comparison.locator('[data-testid="file-row"][data-path="shared.txt"]').getByTestId('file-show-diff').click();
      await expect(comparison.getByTestId('comparison-diffs')).toBeVisible();
      await expect(comparison.getByTestId('diff-column')).toHaveCount(2);
      for (const view of await comparison.getByTestId('comparison-diff-view').all()) await expect(view).toHaveAttribute('data-state', 'live');
      await expectNoSeriousViolations(page, `comparison view, a file's diffs (${colorScheme})`);
    });

    test('an elicitation form, with its validation problems shown', async ({ page }) => {
      const params = DATABASE_FORM;
      const scenario = { defaultPrompt: { steps: [{ request: { method: 'elicitation/create', params }, saveAs: 'answer' }, { text: 'ok' }, { end: 'end_turn' }] } };
      const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
      await sendPrompt(page, s.sessionId, 'set up the database');
      const card = pane(page, s.sessionId).getByTestId('elicitation');
      await expect(card).toContainText('Which database should I use?');
      await expectNoSeriousViolations(page, `elicitation form (${colorScheme})`);
      await card.locator('[data-testid="elicitation-field"][data-field="name"]').fill('x');
      await card.getByTestId('elicitation-accept').click();
      await expect(card.locator('[data-testid="elicitation-problem"][data-field="engine"]')).toHaveText('Required');
      // A field with a problem says so to assistive technology; a required one says that too.
      await expect(card.locator('[data-testid="elicitation-field"][data-field="engine"]')).toHaveAttribute('aria-invalid', 'true');
      await expect(card.locator('[data-testid="elicitation-field"][data-field="engine"]')).toHaveAttribute('aria-required', 'true');
      await expect(card.locator('[data-testid="elicitation-field"][data-field="port"]')).not.toHaveAttribute('aria-invalid', /.*/);
      await expectNoSeriousViolations(page, `elicitation form with problems (${colorScheme})`);
    });

    test('command palette', async ({ page }) => {
      await paneAfterTurn(page);
      await page.keyboard.press('Control+Shift+P');
      await expect(page.getByTestId('command-palette')).toBeVisible();
      await expectNoSeriousViolations(page, `command palette (${colorScheme})`);
    });

    test('keyboard shortcuts', async ({ page }) => {
      await paneAfterTurn(page);
      await page.keyboard.press('Control+/');
      await expect(page.getByTestId('shortcuts-dialog')).toBeVisible();
      await expectNoSeriousViolations(page, `keyboard shortcuts (${colorScheme})`);
    });

    test('history with a recorded session selected', async ({ page }) => {
      const sessionId = await paneAfterTurn(page);
      await page.keyboard.press('Control+h');
      const screen = page.getByTestId('history-screen');
      await screen.locator(`[data-testid="history-row"][data-session-id="${sessionId}"]`).click();
      await expect(screen.getByTestId('history-preview')).toHaveAttribute('data-session-id', sessionId);
      await expect(screen.getByTestId('history-transcript')).toContainText('hello there');
      await expectNoSeriousViolations(page, `history (${colorScheme})`);
      await screen.getByTestId('history-search').fill('hello');
      await expect(screen.locator(`[data-testid="history-row"][data-session-id="${sessionId}"]`).getByTestId('history-snippet').locator('mark').first()).toBeVisible();
      await expectNoSeriousViolations(page, `history, search with highlighted snippets (${colorScheme})`);
    });

    test('settings', async ({ page }) => {
      await page.keyboard.press('Control+,');
      await expect(page.getByTestId('settings-dialog')).toBeVisible();
      await expectNoSeriousViolations(page, `settings (${colorScheme})`);
      await page.getByTestId('settings-mcp-add').click();
      await expect(page.getByTestId('settings-mcp-form')).toBeVisible();
      await expectNoSeriousViolations(page, `settings, MCP server form (${colorScheme})`);
    });

    test('agents dialog', async ({ page }) => {
      await page.getByTestId('open-agents').click();
      await expect(page.getByTestId('agents-dialog')).toBeVisible();
      await expectNoSeriousViolations(page, `agents dialog (${colorScheme})`);
      await page.getByTestId('agent-add').click();
      await expect(page.getByTestId('agent-form')).toBeVisible();
      await expectNoSeriousViolations(page, `agents dialog, custom agent form (${colorScheme})`);
    });

    test('protocol inspector: Messages, Conformance, Faults and Composer tabs', async ({ page }) => {
      await page.setViewportSize({ width: 1400, height: 900 });
      const sessionId = await paneAfterTurn(page);
      const p = pane(page, sessionId);
      await p.getByTestId('toggle-inspector').click();
      const inspector = p.getByTestId('inspector');
      await expect(inspector).toBeVisible();
      await inspector.getByTestId('inspector-row').first().click();
      await expect(inspector.getByTestId('inspector-detail-json')).toBeVisible();
      await expectNoSeriousViolations(page, `inspector, Messages (${colorScheme})`);
      await inspector.getByTestId('inspector-tab-conformance').click();
      await expect(inspector.getByTestId('qa-findings')).toBeVisible();
      await expectNoSeriousViolations(page, `inspector, Conformance (${colorScheme})`);
      await inspector.getByTestId('inspector-tab-faults').click();
      await expect(inspector.getByTestId('qa-faults')).toBeVisible();
      await expectNoSeriousViolations(page, `inspector, Faults & manual (${colorScheme})`);
      await inspector.getByTestId('inspector-tab-composer').click();
      await expect(inspector.getByTestId('raw-composer')).toBeVisible();
      await expectNoSeriousViolations(page, `inspector, Composer (${colorScheme})`);
    });
  });
}
