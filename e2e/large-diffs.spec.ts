import { expect, test } from '@playwright/test';
import { useSharedWebHost } from './support/shared-host';
import { pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

useSharedWebHost();

/**
 * Diffs over 8 KiB reach the window as previews (common/transcript/window-diffs.ts): the collapsed
 * view and the counts come with the transcript, the texts when a reader asks (session/diff-texts).
 * The scenario's big.ts: 300 lines, every tenth from the sixth changed → 30 hunks of 8 lines.
 */
const CHANGED = 'export const value295 = 590; // doubled in the rewrite';

test('a large diff comes as a preview; expanding it and the diff editor fetch its full texts', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'large-diff', cwd: tempProject(), policy: 'all' });
  await sendPrompt(page, s.sessionId, 'edit');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const big = p.locator('[data-testid="tool-call"][data-tool-call-id="big-1"]').getByTestId('diff-inline');
  const small = p.locator('[data-testid="tool-call"][data-tool-call-id="small-1"]').getByTestId('diff-inline');

  // Collapsed: the preview's rows and counts, without the texts; a small diff travels whole.
  await expect(big).toHaveAttribute('data-preview', 'true');
  await expect(big.getByTestId('diff-stats')).toHaveText('+30 −30');
  await expect(big.getByTestId('diff-lines')).toHaveAttribute('data-total', '240');
  await expect(big.getByTestId('diff-lines')).toHaveAttribute('data-shown', '10');
  await expect(big.locator('.tx-diff-run-add .tx-diff-run-code').first()).toContainText('export const value5 = 10; // doubled in the rewrite');
  await expect(big).not.toContainText(CHANGED);
  await expect(small).not.toHaveAttribute('data-preview', 'true');
  await expect(small.getByTestId('diff-stats')).toHaveText('+1 −1');
  await screenshot(page, 'large-diff-preview');

  // Expanded: the texts are fetched and the whole diff shows, every line.
  const toggle = big.getByTestId('diff-toggle-all');
  await expect(toggle).toHaveText('Show all 240 lines');
  await toggle.click();
  await expect(big.getByTestId('diff-toggle-all')).toHaveText('Show less');
  await expect(big).not.toHaveAttribute('data-preview', 'true');
  await expect(big.getByTestId('diff-lines')).toHaveAttribute('data-shown', '240');
  await expect(big.locator('.tx-diff-add .tx-diff-text').last()).toHaveText(CHANGED);
  await expect(big.getByTestId('diff-stats')).toHaveText('+30 −30');

  // The diff editor gets the full texts: 300 lines on each side.
  await big.getByTestId('open-diff').click();
  const dialog = page.getByTestId('diff-dialog');
  await expect(dialog).toContainText('300 → 300 lines');
  await expect(dialog.getByTestId('diff-dialog-editor')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the diff editor opened on a preview loads the texts first', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'large-diff', cwd: tempProject(), policy: 'all' });
  await sendPrompt(page, s.sessionId, 'edit');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const big = p.locator('[data-testid="tool-call"][data-tool-call-id="big-1"]').getByTestId('diff-inline');
  await expect(big).toHaveAttribute('data-preview', 'true');
  await big.getByTestId('open-diff').click();
  const dialog = page.getByTestId('diff-dialog');
  await expect(dialog).toContainText('300 → 300 lines');
  await expect(dialog.getByTestId('diff-dialog-editor')).toBeVisible();
  await expect(dialog.getByTestId('diff-dialog-error')).toHaveCount(0);
  await page.keyboard.press('Escape');
  // The texts joined the transcript: the inline diff is whole now, still collapsed.
  await expect(big).not.toHaveAttribute('data-preview', 'true');
  await expect(big.getByTestId('diff-toggle-all')).toHaveText('Show all 240 lines');
});

test('the changes panel counts a previewed diff once its texts are here', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'large-diff', cwd: tempProject(), policy: 'all' });
  await sendPrompt(page, s.sessionId, 'edit');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.locator('[data-testid="tool-call"][data-tool-call-id="big-1"]').getByTestId('diff-inline')).toHaveAttribute('data-preview', 'true');
  await p.getByTestId('toggle-changes').click();
  const panel = p.getByTestId('changes-panel');
  await expect(panel).not.toHaveAttribute('data-loading', 'true');
  await expect(panel.getByTestId('changes-loading')).toHaveCount(0);
  await expect(panel).toHaveAttribute('data-count', '2');
  const bigRow = panel.locator('[data-testid="change-row"]').filter({ hasText: 'big.ts' });
  await expect(bigRow.getByTestId('change-stats')).toHaveText('+30 −30');
  await expect(panel.locator('[data-testid="change-row"]').filter({ hasText: 'small.ts' }).getByTestId('change-stats')).toHaveText('+1 −1');
});

test('a large diff waiting for permission is shown whole in the permission card', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'large-diff', cwd: tempProject(), policy: 'ask' });
  await sendPrompt(page, s.sessionId, 'ask');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'waiting');
  const card = p.locator('[data-testid="permission-card"][data-status="pending"]');
  await expect(card.getByTestId('permission-diff-view')).toBeVisible();
  await expect(card.getByTestId('permission-diff-loading')).toHaveCount(0);
  await card.getByTestId('permission-diff-open').click();
  await expect(page.getByTestId('diff-dialog')).toContainText('300 → 300 lines');
  await page.keyboard.press('Escape');
  await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.locator('[data-testid="tool-call"][data-tool-call-id="asked-1"]')).toHaveAttribute('data-status', 'completed');
});

test('a diff opened in a pane at its end stays where the reader opened it: the pane stops following', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'large-diff', cwd: tempProject(), policy: 'all' });
  await sendPrompt(page, s.sessionId, 'edit');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const transcript = p.getByTestId('transcript');
  await expect(transcript).toHaveAttribute('data-following', 'true');
  const big = p.locator('[data-testid="tool-call"][data-tool-call-id="big-1"]').getByTestId('diff-inline');
  const head = big.getByTestId('diff-stats');
  await expect(head).toBeInViewport();
  await big.getByTestId('diff-toggle-all').click();
  await expect(big.getByTestId('diff-lines')).toHaveAttribute('data-shown', '240');
  // 240 lines grew below the reader: the head they clicked under stays in view, the pane is left
  // where it was (it followed the growth to its end before), and "Jump to latest" offers the end.
  await page.waitForTimeout(500);
  await expect(head).toBeInViewport();
  await expect(transcript).toHaveAttribute('data-following', 'false');
  await expect(p.getByTestId('jump-to-latest')).toBeVisible();
  await p.getByTestId('jump-to-latest').click();
  await expect(transcript).toHaveAttribute('data-following', 'true');
  await expect(big.getByTestId('diff-toggle-all')).toBeInViewport();
});
