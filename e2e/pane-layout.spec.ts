import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSharedWebHost } from './support/shared-host';
import { pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

// Layout of a pane as a user sees it: narrow panes, long paths, the transcript's end, dark mode.
useSharedWebHost();

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`${locator.toString()} has no box: it is not on screen`);
  return b;
}

/** A computed style property of the element (e2e code has no DOM types: the browser runs this). */
function cssOf(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((el, prop) => {
    const view = globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(p: string): string } };
    return view.getComputedStyle(el).getPropertyValue(prop).trim();
  }, property);
}

/** Whether the element's content is wider than its box (it is clipped). */
function overflows(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const e = el as unknown as { scrollWidth: number; clientWidth: number };
    return e.scrollWidth > e.clientWidth;
  });
}

/** Switch the app's theme from the command palette, as a user does. */
async function useTheme(page: Page, theme: 'dark' | 'light'): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill(`theme ${theme}`);
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** A project folder deep enough that its paths cannot fit in a narrow pane. */
function deepProject(): string {
  const cwd = join(tempProject(), 'a-rather', 'deeply', 'nested', 'project', 'folder', 'with', 'long', 'names');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, 'hello.txt'), 'Hello\n');
  return cwd;
}

test('three narrow panes: diff button on one line, paths keep their file name, composer on one row', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const cwd = deepProject();
  const a = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'all' });
  const b = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  await startFixtureSession(page, { scenario: 'basic-text', cwd });
  const p = pane(page, a.sessionId);
  // Two selected panes: the composer shows "Send to 2" beside Send.
  await p.getByTestId('pane-select').check();
  await pane(page, b.sessionId).getByTestId('pane-select').check();
  await sendPrompt(page, a.sessionId, 'change the greeting');
  await expect(p).toHaveAttribute('data-status', 'ready');
  const edit = p.locator('[data-testid="tool-call"][data-tool-call-id="edit-1"]');

  // "Open in diff editor" wrapped onto three lines: it is one line tall now.
  const open = edit.getByTestId('open-diff');
  expect((await box(open)).height).toBeLessThan(2 * parseFloat(await cssOf(open, 'font-size')));
  expect((await box(open)).x + (await box(open)).width).toBeLessThanOrEqual((await box(edit)).x + (await box(edit)).width);

  // The path was cut at its end with no ellipsis: now the folders give way (with an ellipsis)
  // and the file name stays whole inside the card; the full path is the tooltip.
  const location = edit.getByTestId('tool-location');
  await expect(location).toHaveAttribute('title', new RegExp(`^${join(cwd, 'hello.txt').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  const dir = location.locator('.tx-location-dir');
  const name = location.locator('.tx-location-name');
  await expect(name).toHaveText('hello.txt');
  expect(await overflows(dir)).toBe(true);
  expect(await cssOf(dir, 'text-overflow')).toBe('ellipsis');
  const nameBox = await box(name);
  const cardBox = await box(edit);
  expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
  expect(await overflows(name)).toBe(false);
  // The edited file is named once: its location is the diff card's path header (no locations
  // line above the diff), and it still leaves room for the button on that line.
  await expect(edit.getByTestId('tool-locations')).toHaveCount(0);
  await expect(edit.getByTestId('diff-inline').getByTestId('tool-location')).toHaveCount(1);
  expect((await box(location)).width).toBeGreaterThan(20);
  expect((await box(location)).y).toBeGreaterThanOrEqual((await box(edit.getByTestId('diff-inline'))).y);

  // The composer's controls sit on one row, Send at its right end, inside the pane.
  const composer = p.getByTestId('composer');
  const send = await box(composer.getByTestId('send-prompt'));
  const sendSelected = await box(composer.getByTestId('send-selected'));
  const link = await box(composer.getByTestId('attach-link'));
  const image = await box(composer.getByTestId('attach-image-label'));
  for (const other of [sendSelected, link, image]) expect(Math.abs(other.y + other.height / 2 - (send.y + send.height / 2))).toBeLessThan(2);
  expect(send.x + send.width).toBeLessThanOrEqual((await box(composer)).x + (await box(composer)).width);
  expect(send.y).toBeGreaterThanOrEqual((await box(composer.getByTestId('composer-input'))).y + (await box(composer.getByTestId('composer-input'))).height);
  // Icon buttons keep their names for screen readers.
  await expect(composer.getByRole('button', { name: 'Link path' })).toBeVisible();
  await expect(composer.getByRole('button', { name: 'Send to 2 panes' })).toBeVisible();

  // Hide pane and Close session no longer look alike: hide is not an ✕ and sits with the view
  // buttons; Close session says what it does, away from them.
  await expect(p.getByTestId('pane-hide')).not.toHaveText('✕');
  await expect(p.getByRole('button', { name: /^Hide pane/ })).toBeVisible();
  await expect(p.getByTestId('pane-close')).toHaveText('Close session');
  await expect(p.locator('.pane-actions').getByTestId('pane-close')).toHaveCount(0);
  for (let i = 0; i < 3; i++) {
    const each = page.getByTestId('session-pane').nth(i);
    const closeBox = await box(each.getByTestId('pane-close'));
    const paneBox = await box(each);
    expect(closeBox.x + closeBox.width).toBeLessThanOrEqual(paneBox.x + paneBox.width + 0.5);
  }
  // The usage figures (context, cost, the turn's tokens) wrap inside a narrow pane instead of
  // running past its edge.
  const meter = p.getByTestId('usage-meter');
  await expect(meter.getByTestId('usage-turn')).toBeVisible();
  const paneBox = await box(p);
  for (const part of ['usage-context', 'usage-cost', 'usage-turn']) {
    const partBox = await box(meter.getByTestId(part));
    expect(partBox.x, part).toBeGreaterThanOrEqual(paneBox.x);
    expect(partBox.x + partBox.width, part).toBeLessThanOrEqual(paneBox.x + paneBox.width + 0.5);
  }
  await screenshot(page, 'narrow-panes-after-a-turn');
});

test('a wide pane shows a diff card’s whole path, no ellipsis', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd: tempProject({ 'hello.txt': 'Hello\n' }), policy: 'all' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  // The path (the call's location, in the diff's head) shares the line with a spacer: it takes the
  // room it needs first.
  const path = p.getByTestId('diff-inline').first().getByTestId('tool-location');
  await expect(path).toHaveCount(1);
  expect(await overflows(path.locator('.tx-location-dir'))).toBe(false);
  expect(await overflows(path)).toBe(false);
});

test('"Jump to latest" does not cover the end of the transcript', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd: deepProject(), policy: 'all' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const scroll = p.getByTestId('transcript-scroll');
  // 150 px up from the end as the reader goes there (the wheel: a script writing scrollTop is not the
  // reader, and a following pane goes back to its end).
  const area = await box(scroll);
  await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
  const jump = p.getByTestId('jump-to-latest');
  // What is tested is where the button sits, not the wheel's timing: on a loaded machine a wheel that
  // lands while the pane is still settling at its end after the turn can be taken back (CI once), so
  // the reader scrolls again until it shows.
  await expect(async () => {
    await page.mouse.wheel(0, -150);
    await expect(jump).toBeVisible({ timeout: 1500 });
  }).toPass({ timeout: 15_000 });
  // It used to float over the last visible lines (a raw toggle, stderr); now it is below them.
  const jumpBox = await box(jump);
  const scrollBox = await box(scroll);
  expect(jumpBox.y).toBeGreaterThanOrEqual(scrollBox.y + scrollBox.height - 0.5);
  await jump.click();
  await expect(jump).toBeHidden();
  await expect(p.getByTestId('transcript')).toHaveAttribute('data-following', 'true');
});

test('a session nobody has prompted says what to do, until the first prompt', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'modes-and-config', cwd: tempProject() });
  const p = pane(page, s.sessionId);
  const hint = p.getByTestId('transcript-hint');
  await expect(hint).toContainText('Enter');
  await expect(hint).toContainText('/');
  await sendPrompt(page, s.sessionId, 'hello');
  await expect(p.getByTestId('entry-user_message')).toHaveCount(1);
  await expect(hint).toHaveCount(0);
});

test('the Monaco diff uses the workbench’s inserted/removed colours in both themes', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd: deepProject(), policy: 'all' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const colour = (name: string) => cssOf(page.getByTestId('diff-dialog-editor').locator('.monaco-diff-editor').first(), name);
  await useTheme(page, 'dark');
  await p.getByTestId('open-diff').first().click();
  await expect(page.getByTestId('diff-dialog-editor')).toHaveAttribute('data-state', 'live');
  // diff-colors.ts's #3fb95080 / #f8514980 (Monaco writes them as rgba); vs-dark's own were faint on #1e1e1e.
  await expect.poll(() => colour('--vscode-diffEditor-insertedTextBackground')).toBe('rgba(63, 185, 80, 0.5)');
  expect(await colour('--vscode-diffEditor-removedTextBackground')).toBe('rgba(248, 81, 73, 0.5)');
  await screenshot(page, 'diff-dialog-dark');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('diff-dialog')).toBeHidden();
  await useTheme(page, 'light');
  await p.getByTestId('open-diff').first().click();
  await expect.poll(() => colour('--vscode-diffEditor-insertedTextBackground')).toBe('rgba(46, 160, 67, 0.4)');
});
