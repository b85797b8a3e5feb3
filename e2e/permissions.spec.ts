import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSharedWebHost } from './support/shared-host';
import { pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

useSharedWebHost();

/** The option the agent received in our answer to its permission request. */
function chosenOption(received: Array<Record<string, unknown>>): unknown {
  const answer = received.find((m) => m.method === undefined && typeof m.result === 'object' && m.result !== null && 'outcome' in (m.result as object));
  return (answer?.result as { outcome?: unknown } | undefined)?.outcome;
}

test('a permission answered from its diff view reaches the agent with the chosen option', async ({ page }) => {
  const cwd = tempProject({ 'hello.txt': 'Hello\n' });
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'ask' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'waiting');
  const card = p.locator('[data-testid="permission-card"][data-status="pending"]');
  await expect(card.getByTestId('permission-diff')).toBeVisible();
  // The Monaco diff editor shows the proposed text.
  await expect(card.getByTestId('permission-diff')).toContainText('Hello, world!');
  await screenshot(page, 'permission-with-diff');
  await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  expect(chosenOption(s.received())).toMatchObject({ outcome: 'selected', optionId: 'allow-once' });
  expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');
  await expect(p.getByTestId('permission-summary').first()).toContainText('by you');
});

test('a permission to create a file shows the new text alone: every line added, no empty line removed', async ({ page }) => {
  const cwd = tempProject({});
  const s = await startFixtureSession(page, { scenario: 'new-file', cwd, policy: 'ask' });
  await sendPrompt(page, s.sessionId, 'write a to-do list');
  const p = pane(page, s.sessionId);
  const card = p.locator('[data-testid="permission-card"][data-status="pending"]');
  await expect(card.getByText('new file')).toBeVisible();
  const view = card.getByTestId('permission-diff-view');
  await expect(view).toHaveAttribute('data-state', 'live');
  await expect(view).toHaveAttribute('data-whole-file', 'added');
  // Three lines, each marked inserted; the empty line after the final newline is shown but not
  // marked; nothing on a removed side (a diff editor against an empty original showed a phantom
  // removed line 1).
  await expect(view.locator('.line-numbers')).toHaveText(['1', '2', '3', '4']);
  await expect(view.locator('.line-insert')).toHaveCount(3);
  await expect(view.locator('.line-delete, .char-delete, .monaco-diff-editor')).toHaveCount(0);
  await expect(view).toContainText('write the tests');
  await screenshot(page, 'permission-new-file');
  await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  expect(readFileSync(join(cwd, 'todo.md'), 'utf8')).toBe('# To do\n- write the tests\n- ship it\n');
});

test('a rejected permission leaves the file alone and the agent hears the reject option', async ({ page }) => {
  const cwd = tempProject({ 'hello.txt': 'Hello\n' });
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'ask' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await p.locator('[data-testid="permission-option"][data-kind="reject_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  expect(chosenOption(s.received())).toMatchObject({ outcome: 'selected' });
  expect((chosenOption(s.received()) as { optionId: string }).optionId).toMatch(/reject/);
  expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('Hello\n');
  await expect(p.getByTestId('transcript')).toContainText('OK, I will leave hello.txt alone.');
});

test('cancelling a turn with a pending permission answers it cancelled and clears the card', async ({ page }) => {
  const cwd = tempProject({ 'hello.txt': 'Hello\n' });
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'ask' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'waiting');
  await p.getByTestId('cancel-turn').click();
  await expect(p).toHaveAttribute('data-status', 'cancelled');
  expect(chosenOption(s.received())).toEqual({ outcome: 'cancelled' });
  await expect(p.locator('[data-testid="permission-card"][data-status="pending"]')).toHaveCount(0);
});

test('keyboard approves the focused pane’s permission request', async ({ page }) => {
  const cwd = tempProject({ 'hello.txt': 'Hello\n' });
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'ask' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'waiting');
  // The pane says "waiting" as the agent asks, a moment before the request reaches the transcript;
  // a person presses the key when they see the card, and so does this test.
  await expect(p.locator('[data-testid="permission-card"][data-status="pending"]')).toBeVisible();
  await page.keyboard.press('Control+Shift+Y');
  await expect(p).toHaveAttribute('data-status', 'ready');
  expect((chosenOption(s.received()) as { optionId: string }).optionId).toBe('allow-once');
});

test('the changes panel shows the agent’s change and undoes it, refusing when the file changed since', async ({ page }) => {
  const cwd = tempProject({ 'hello.txt': 'Hello\n' });
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'all' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  await p.getByTestId('toggle-changes').click();
  const row = p.locator('[data-testid="change-row"]').filter({ hasText: 'hello.txt' });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('change-stats')).toContainText('+1');
  // The agent's change as a patch that git applies to the folder as it was.
  const [download] = await Promise.all([page.waitForEvent('download'), p.getByTestId('changes-patch').click()]);
  expect(readFileSync((await download.path())!, 'utf8')).toBe('--- a/hello.txt\n+++ b/hello.txt\n@@ -1,1 +1,1 @@\n-Hello\n+Hello, world!\n');
  // Someone edits the file after the agent: undo must refuse rather than lose that edit.
  writeFileSync(join(cwd, 'hello.txt'), 'Hello, edited by hand\n');
  await row.getByTestId('change-undo').click();
  await expect(row.getByTestId('change-undo-result')).toContainText('changed after the agent wrote it');
  expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('Hello, edited by hand\n');
  // Put the agent's text back: now undo restores the original.
  writeFileSync(join(cwd, 'hello.txt'), 'Hello, world!\n');
  await row.getByTestId('change-undo').click();
  await expect.poll(() => readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('Hello\n');
  // Undone entirely: nothing of it is left to put in a patch.
  await expect(p.getByTestId('changes-patch')).toHaveCount(0);
  await screenshot(page, 'changes-panel');
});

test('an agent reading .env waits for the card, and reads it once allowed — even under policy "all"', async ({ page }) => {
  const cwd = tempProject({ '.env': 'API_KEY=s3cr3t\n', 'notes.txt': 'plain' });
  const s = await startFixtureSession(page, { scenario: 'sensitive-files', cwd, policy: 'all' });
  await sendPrompt(page, s.sessionId, 'read them');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'waiting');
  const card = p.locator('[data-testid="permission-card"][data-status="pending"]');
  await expect(card).toContainText(`Read ${join(cwd, '.env')}`);
  await expect(card.getByTestId('permission-context')).toContainText(`The agent wants to read ${join(cwd, '.env')}, a file that usually holds secrets`);
  // Nothing was read yet: the agent's second request (the .env read) has no answer.
  expect(s.received().filter((m) => m.method === undefined)).toHaveLength(1);
  await screenshot(page, 'permission-sensitive-read');
  await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.getByTestId('transcript')).toContainText('env:API_KEY=s3cr3t');
  await expect(p.getByTestId('permission-summary').first()).toContainText('by you');
});
