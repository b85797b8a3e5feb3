import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { isProcessRunning } from '../main/core/acp/process-registry';
import { useSharedWebHost } from './support/shared-host';
import { pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';
import { filesTransfer, pasteFiles } from './support/transfer';

useSharedWebHost();

test('two agents stream side by side from one prompt sent to both panes', async ({ page }) => {
  const cwd = tempProject();
  const a = await startFixtureSession(page, { scenario: 'slow-stream', cwd });
  const b = await startFixtureSession(page, { scenario: 'slow-stream', cwd });
  await expect(page.getByTestId('pane-area')).toHaveAttribute('data-count', '2');
  await pane(page, a.sessionId).getByTestId('pane-select').check();
  await pane(page, b.sessionId).getByTestId('pane-select').check();
  await pane(page, a.sessionId).getByTestId('composer-input').fill('stream please');
  await pane(page, a.sessionId).getByTestId('send-selected').click();
  // Both are working at the same time, not one after the other.
  await expect(pane(page, a.sessionId)).toHaveAttribute('data-status', 'prompting');
  await expect(pane(page, b.sessionId)).toHaveAttribute('data-status', 'prompting');
  await screenshot(page, 'two-agents-streaming');
  for (const s of [a, b]) {
    await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
    await expect(pane(page, s.sessionId).getByTestId('transcript')).toContainText('It keeps going for a while on purpose.');
    expect(s.received().some((m) => m.method === 'session/prompt')).toBe(true);
  }
});

test('config options round-trip, dependent options follow, and modes hide behind the mode option', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'modes-and-config', cwd: tempProject() });
  const p = pane(page, s.sessionId);
  await expect(p.locator('[data-testid="config-select"][data-config-id="model"]')).toHaveValue('smart');
  // The agent has a `mode` config option, so the legacy modes selector is not shown; nor models.
  await expect(p.getByTestId('mode-select')).toHaveCount(0);
  await expect(p.getByTestId('model-select')).toHaveCount(0);
  await p.locator('[data-testid="config-select"][data-config-id="model"]').selectOption('quick');
  await expect.poll(() => s.received().find((m) => m.method === 'session/set_config_option')?.params).toMatchObject({ configId: 'model', value: 'quick' });
  // The agent answered with the whole new option set: reasoning now offers only "low".
  const reasoning = p.locator('[data-testid="config-select"][data-config-id="reasoning"]');
  await expect(reasoning).toHaveValue('low');
  await expect(reasoning.locator('option')).toHaveCount(1);
  // The toggle shows the agent's value: it turns on once the agent has answered with the new set.
  const web = p.locator('[data-testid="config-toggle"][data-config-id="web"]');
  await web.click();
  await expect.poll(() => s.received().filter((m) => m.method === 'session/set_config_option').at(-1)?.params).toMatchObject({ configId: 'web', type: 'boolean', value: true });
  await expect(web).toBeChecked();
});

test('a mode the agent switches to on its own shows in its mode option', async ({ page }) => {
  // modes-and-config answers any prompt with current_mode_update → code, and no config_option_update.
  const s = await startFixtureSession(page, { scenario: 'modes-and-config', cwd: tempProject() });
  const p = pane(page, s.sessionId);
  const mode = p.locator('[data-testid="config-select"][data-config-id="mode"]');
  await expect(mode).toHaveValue('ask');
  await sendPrompt(page, s.sessionId, 'start coding');
  await expect(p.getByTestId('transcript')).toContainText('Switched myself to code mode.');
  await expect(mode).toHaveValue('code');
});

test('a mode selector appears when modes are the only source, and set_mode round-trips', async ({ page }) => {
  const scenario = {
    session: {
      modes: { currentModeId: 'ask', availableModes: [ { id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' } ] },
    },
  };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  await p.getByTestId('mode-select').selectOption('code');
  await expect.poll(() => s.received().find((m) => m.method === 'session/set_mode')?.params).toMatchObject({ modeId: 'code' });
  // The empty set_mode answer is the confirmation: the selector keeps the new mode.
  await expect(p.getByTestId('mode-select')).toHaveValue('code');
});

test('slash completes the agent’s commands with descriptions and hints', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'modes-and-config', cwd: tempProject() });
  const input = pane(page, s.sessionId).getByTestId('composer-input');
  await input.fill('/');
  const menu = pane(page, s.sessionId).getByTestId('slash-menu');
  await expect(menu.getByTestId('slash-item')).toHaveCount(2);
  await expect(menu).toContainText('Search the web');
  await expect(menu).toContainText('query');
  await input.fill('/w');
  await expect(menu.getByTestId('slash-item')).toHaveCount(1);
  await input.press('Tab');
  await expect(input).toHaveValue('/web ');
  await input.pressSequentially('agent protocol');
  await input.press('Enter');
  await expect(pane(page, s.sessionId).getByTestId('transcript')).toContainText('Searching the web for: /web agent protocol');
});

test('cancel ends the turn as cancelled and the agent receives session/cancel', async ({ page }) => {
  // A turn of ~20 s (slow-stream's one second could end before the click on a loaded machine).
  const long = { text: 'This answer streams for a long while, so that there is time to stop it. '.repeat(4), chunks: 80, chunkDelayMs: 250 };
  const scenario = { defaultPrompt: { steps: [long, { end: 'end_turn' }], cancel: { steps: [{ text: '\n(stopped)' }] } } };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'go slowly');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'prompting');
  await p.getByTestId('cancel-turn').click();
  await expect(p).toHaveAttribute('data-status', 'cancelled');
  expect(s.received().some((m) => m.method === 'session/cancel')).toBe(true);
  await expect(p.getByTestId('send-prompt')).toBeEnabled();
});

test('a crash is shown with its reason and stderr, and restart opens a working session in its place', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'crash-mid-turn', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'do it');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'crashed');
  await expect(p.getByTestId('crash-reason')).toContainText('exit code 3');
  await expect(p.getByTestId('crash-stderr')).toContainText('panic');
  await screenshot(page, 'crashed-agent');
  // What was typed meanwhile goes with the restart.
  await p.getByTestId('composer-input').fill('try again, carefully');
  await p.getByTestId('restart-session').click();
  const fresh = page.getByTestId('session-pane').first();
  await expect(fresh).not.toHaveAttribute('data-session-id', s.sessionId);
  await expect(fresh).toHaveAttribute('data-status', 'ready');
  await expect(fresh.getByTestId('composer-input')).toHaveValue('try again, carefully');
  await expect(page.getByTestId('session-pane')).toHaveCount(1);
});

test('images cannot be attached for an agent without image support, and the reason is given', async ({ page }) => {
  const scenario = { initialize: { agentCapabilities: { promptCapabilities: { image: false, embeddedContext: true } } } };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  await expect(p.getByTestId('attach-image')).toBeDisabled();
  await expect(p.getByTestId('attach-image-label')).toHaveAttribute('title', /does not accept images/);
  await expect(p.getByTestId('attach-file')).toBeEnabled();
});

test('files dropped on the composer and a pasted screenshot go with the prompt; what the agent cannot take is said', async ({ page }) => {
  const scenario = {
    initialize: { agentCapabilities: { promptCapabilities: { image: true, embeddedContext: true } } },
    defaultPrompt: { steps: [{ text: 'Got it.' }] },
  };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  const composer = p.getByTestId('composer');
  // A text file, a PNG and a binary file dropped at once.
  const dropped = await page.evaluateHandle(filesTransfer, [
    { name: 'notes.md', type: 'text/markdown', text: '# Notes\nremember the owls\n' },
    { name: 'shot.png', type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47] },
    { name: 'bundle.zip', type: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04, 0x00] },
  ]);
  await composer.dispatchEvent('dragover', { dataTransfer: dropped });
  await expect(composer).toHaveClass(/composer-dropping/);
  await composer.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(composer).not.toHaveClass(/composer-dropping/);
  const attachments = p.getByTestId('attachment');
  await expect(attachments).toHaveCount(2);
  await expect(attachments.nth(0)).toContainText('notes.md');
  await expect(attachments.nth(1)).toHaveAttribute('data-type', 'image');
  await expect(p.getByTestId('composer-error')).toHaveText('bundle.zip looks like a binary file, not text: link it by its path instead.');
  // A screenshot pasted into the prompt box: attached; pasted text stays text.
  await p.getByTestId('composer-input').evaluate(pasteFiles, [{ name: 'image.png', type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d] }]);
  await expect(attachments).toHaveCount(3);
  await sendPrompt(page, s.sessionId, 'look at these');
  await expect(p).toHaveAttribute('data-status', 'ready');
  const prompt = s.received().find((m) => m.method === 'session/prompt')!.params as { prompt: Array<Record<string, unknown>> };
  expect(prompt.prompt.map((b) => b.type)).toEqual(['text', 'resource', 'image', 'image']);
  expect((prompt.prompt[1]!.resource as { text: string }).text).toContain('remember the owls');
  expect(prompt.prompt[2]).toMatchObject({ data: 'iVBORw==', mimeType: 'image/png' });
  await expect(attachments).toHaveCount(0);
});

test('a prompt typed but not sent survives hiding the pane and reloading the window, and goes once sent', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: [{ text: 'You said: {{prompt}}' }] } }, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  const input = p.getByTestId('composer-input');
  await input.fill('a long prompt\nstill being written');
  const dropped = await page.evaluateHandle(filesTransfer, [{ name: 'notes.md', type: 'text/markdown', text: 'owls' }]);
  await p.getByTestId('composer').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(p.getByTestId('attachment')).toHaveCount(1);
  // Hidden and shown again: the composer was unmounted meanwhile.
  await p.getByTestId('pane-hide').click();
  await expect(p).toHaveCount(0);
  await page.locator(`[data-testid="session-item"][data-session-id="${s.sessionId}"]`).click();
  await expect(input).toHaveValue('a long prompt\nstill being written');
  await expect(p.getByTestId('attachment')).toHaveCount(1);
  // Reloaded: the text is back (attachments are kept in memory only).
  await page.reload();
  await expect(input).toHaveValue('a long prompt\nstill being written');
  await expect(p.getByTestId('attachment')).toHaveCount(0);
  await p.getByTestId('send-prompt').click();
  await expect(p.getByTestId('transcript')).toContainText('You said: a long prompt');
  await expect(input).toHaveValue('');
  await page.reload();
  await expect(p.getByTestId('transcript')).toContainText('You said: a long prompt');
  await expect(input).toHaveValue('');
});

test('an image dropped on the composer of an agent without image support is refused with the reason', async ({ page }) => {
  const scenario = { initialize: { agentCapabilities: { promptCapabilities: { image: false, embeddedContext: true } } } };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  const dropped = await page.evaluateHandle(filesTransfer, [{ name: 'shot.png', type: 'image/png', bytes: [1, 2] }]);
  await p.getByTestId('composer').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(p.getByTestId('composer-error')).toHaveText('shot.png: this agent does not accept images (promptCapabilities.image).');
  await expect(p.getByTestId('attachment')).toHaveCount(0);
});

test('an agent that cannot start shows why, and the dialog offers a retry', async ({ page }) => {
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-command').fill('no-such-agent-binary --acp');
  await dialog.getByTestId('new-session-cwd').fill(tempProject());
  await dialog.getByTestId('new-session-start').click();
  await expect(dialog.getByTestId('new-session-error')).toContainText('not found');
  await expect(dialog.getByTestId('new-session-start')).toHaveText('Retry');
  // Esc still closes it, wherever the focus went when the start failed.
  await page.locator('body').focus();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('an agent that never answers can be stopped while it starts: Cancel closes the dialog and leaves no session', async ({ page }) => {
  const pidFile = join(tempProject(), 'agent.pid');
  // Says nothing, ever: without Cancel the dialog would wait out the 60 s start-up timeout.
  const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.stdin.resume(); setInterval(() => {}, 1e6)`;
  // The spec's web host is shared: earlier tests' sessions are listed too.
  const sessions = page.getByTestId('session-item');
  const before = await sessions.count();
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-command').fill(`"${process.execPath}" -e "${script.replace(/"/g, '\\"')}"`);
  await dialog.getByTestId('new-session-cwd').fill(tempProject());
  await dialog.getByTestId('new-session-start').click();
  await expect(dialog.getByTestId('new-session-progress')).toBeVisible();
  // The session is listed as starting meanwhile; after a few seconds the dialog says how long it has waited.
  await expect(sessions).toHaveCount(before + 1);
  await expect(page.locator('[data-testid="session-item"][data-status="starting"]')).toHaveCount(1);
  await expect(dialog.getByTestId('new-session-waited')).toContainText('without an answer yet');
  await expect.poll(() => existsSync(pidFile)).toBe(true);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  await dialog.getByTestId('new-session-cancel').click();
  await expect(dialog).toBeHidden();
  await expect(sessions).toHaveCount(before);
  await expect(page.locator('[data-testid="session-item"][data-status="starting"]')).toHaveCount(0);
  await expect.poll(() => isProcessRunning(pid), { timeout: 15_000 }).toBe(false);
  // Nothing left over: the next start opens the dialog as new, with no error from the stopped one.
  await page.keyboard.press('Control+n');
  await expect(dialog.getByTestId('new-session-error')).toHaveCount(0);
  await expect(dialog.getByTestId('new-session-start')).toHaveText('Start');
});

test('the demo agent gets its scratch folder when no folder is chosen', async ({ page }) => {
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-cwd').fill('');
  await dialog.getByTestId('new-session-agent').selectOption('demo');
  await expect(dialog.getByTestId('new-session-cwd')).not.toHaveValue('');
  await expect(dialog.getByTestId('new-session-cwd')).toHaveValue(/^\//);
  await page.keyboard.press('Escape');
});

test('the command palette greys out what cannot run now and says why; Enter on it does nothing', async ({ page }) => {
  const cwd = tempProject();
  const a = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  await pane(page, a.sessionId).click();
  const panes = await page.getByTestId('session-pane').count();
  await page.keyboard.press('Control+Shift+P');
  const items = page.getByTestId('palette-item');
  // The idle pane has no turn to cancel and no request to approve.
  await page.getByTestId('palette-input').fill('cancel the turn');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('aria-disabled', 'true');
  await expect(items.first().getByTestId('palette-why')).toHaveText(/not working/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('command-palette')).toBeVisible();
  await page.getByTestId('palette-input').fill('approve');
  await expect(items.first().getByTestId('palette-why')).toHaveText(/No permission request waits/);
  // Panes that exist can be focused and come first; the others say how many there are.
  await page.getByTestId('palette-input').fill('focus pane');
  await expect(page.locator(`[data-testid="palette-item"][data-action="pane.focus.${panes}"]`)).not.toHaveAttribute('aria-disabled', 'true');
  await expect(page.locator(`[data-testid="palette-item"][data-action="pane.focus.${panes + 1}"]`)).toHaveAttribute('aria-disabled', 'true');
  await expect(items.first()).not.toHaveAttribute('aria-disabled', 'true');
  await expect(items.last()).toHaveAttribute('aria-disabled', 'true');
  await screenshot(page, 'palette-unavailable');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('command-palette')).toBeHidden();
});

test('Ctrl+/ lists every keyboard shortcut, the actions’ own and each place’s, filters them, and gives the keyboard back', async ({ page }) => {
  const a = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  const input = pane(page, a.sessionId).getByTestId('composer-input');
  await input.focus();
  await page.keyboard.press('Control+/');
  const dialog = page.getByTestId('shortcuts-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('shortcuts-filter')).toBeFocused();
  // The window's shortcuts come from the actions: the sidebar's, the palette's, prompt to prompt.
  const window = dialog.getByRole('region', { name: 'Anywhere in the window' });
  await expect(window).toContainText('Show all commands');
  await expect(window.getByTestId('shortcut-keys').filter({ hasText: 'Alt+↑' })).toHaveCount(1);
  // The panes' Ctrl+1…Ctrl+9 are one row.
  await expect(window.getByTestId('shortcut-what').filter({ hasText: /^Focus pane 1–\d$/ })).toHaveCount(1);
  await expect(window.getByTestId('shortcut-what').filter({ hasText: /^Focus pane 2$/ })).toHaveCount(0);
  await expect(dialog.getByRole('region', { name: 'In the prompt box' })).toContainText('New line');
  await screenshot(page, 'keyboard-shortcuts');
  // A key as typed finds its shortcut; a word finds them in every group.
  await page.getByTestId('shortcuts-filter').fill('ctrl+b');
  await expect(dialog.getByTestId('shortcut-what')).toHaveText([/sidebar/]);
  await page.getByTestId('shortcuts-filter').fill('zzz nothing');
  await expect(page.getByTestId('shortcuts-none')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(input).toBeFocused();
  // Also from the palette, and ✕ closes it; and from the status bar.
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill('keyboard shortcuts');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('shortcuts-filter')).toHaveValue('');
  await page.getByTestId('shortcuts-close').click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('shortcuts-open').click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the palette opens the focused pane’s inspector at a tab, shows and hides it, and hides the pane', async ({ page }) => {
  const a = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  await sendPrompt(page, a.sessionId, 'hello');
  await pane(page, a.sessionId).click();
  const inspector = pane(page, a.sessionId).getByTestId('inspector');
  const run = async (words: string, action: string) => {
    await page.keyboard.press('Control+Shift+P');
    await page.getByTestId('palette-input').fill(words);
    await expect(page.getByTestId('palette-item').first()).toHaveAttribute('data-action', action);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('command-palette')).toBeHidden();
  };
  await run('conformance report', 'inspector.conformance');
  await expect(inspector).toHaveAttribute('data-tab', 'conformance');
  await expect(inspector.getByTestId('qa-findings')).toBeVisible();
  // Another tab's action switches the open inspector instead of closing it.
  await run('protocol message', 'inspector.messages');
  await expect(inspector).toHaveAttribute('data-tab', 'messages');
  await expect(inspector.getByTestId('inspector-search')).toBeVisible();
  await run('show or hide protocol inspector', 'inspector.toggle');
  await expect(inspector).toHaveCount(0);
  await run('hide keeps running', 'pane.hide');
  await expect(pane(page, a.sessionId)).toHaveCount(0);
});

test('keyboard: focus pane N, the command palette, and the theme', async ({ page }) => {
  const cwd = tempProject();
  const a = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  const b = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  await page.keyboard.press('Control+1');
  await expect(pane(page, a.sessionId)).toHaveClass(/focused/);
  await page.keyboard.press('Control+2');
  await expect(pane(page, b.sessionId)).toHaveClass(/focused/);
  await expect(pane(page, b.sessionId).getByTestId('composer-input')).toBeFocused();
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill('theme dark');
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(page, 'theme-dark');
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill('theme light');
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await screenshot(page, 'theme-light');
  // While a dialog is open, window shortcuts wait: Ctrl+H does not open History behind it.
  await page.keyboard.press('Control+n');
  await expect(page.getByTestId('new-session-dialog')).toBeVisible();
  await page.keyboard.press('Control+h');
  await page.getByTestId('new-session-dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('new-session-dialog')).toBeHidden();
  await expect(page.getByTestId('history-screen')).toBeHidden();
});

test('a narrow window: every pane header keeps its agent name and all its buttons, none clipped or wrapped', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const project = tempProject();
  for (let i = 0; i < 3; i++) await startFixtureSession(page, { scenario: 'basic-text', cwd: project });
  const panes = page.getByTestId('session-pane');
  await expect(panes).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    const p = panes.nth(i);
    await expect(p).toHaveAttribute('data-status', 'ready');
    const paneBox = (await p.boundingBox())!;
    const stop = (await p.getByTestId('pane-close').boundingBox())!;
    // Before the fix the actions overflowed the pane: "Stop" was cut off at its right edge.
    expect(stop.x + stop.width).toBeLessThanOrEqual(paneBox.x + paneBox.width + 0.5);
    // "{ }" broke onto two lines; it is as tall as its one-line neighbours now.
    const inspector = (await p.getByTestId('toggle-inspector').boundingBox())!;
    const hide = (await p.getByTestId('pane-hide').boundingBox())!;
    expect(inspector.height).toBeLessThanOrEqual(hide.height + 1);
    // The agent's name was squeezed to one letter; at least a few letters stay, the rest is in the tooltip.
    expect((await p.getByTestId('pane-agent').boundingBox())!.width).toBeGreaterThan(50);
    await expect(p.getByTestId('pane-agent')).toHaveAttribute('title', /^Fixture: basic text/);
  }
  await screenshot(page, 'narrow-three-panes');
});

test('the sidebar names two sessions of one agent in one folder by their first prompts', async ({ page }) => {
  const cwd = tempProject();
  const a = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  const b = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  const item = (id: string) => page.locator(`[data-testid="session-item"][data-session-id="${id}"]`);
  // Untitled and unprompted: the folder by its name (a long path was cut before its last part), the
  // whole path in the tooltip.
  await expect(item(a.sessionId).locator('.session-item-title')).toHaveText(basename(cwd));
  await expect(item(a.sessionId)).toHaveAttribute('title', cwd);
  await sendPrompt(page, a.sessionId, 'rename the   config loader');
  await sendPrompt(page, b.sessionId, 'add a test for parsing');
  await expect(item(a.sessionId)).toContainText('rename the config loader');
  await expect(item(b.sessionId)).toContainText('add a test for parsing');
  // The folder is still one hover away.
  await expect(item(a.sessionId)).toHaveAttribute('title', `rename the config loader\n${cwd}`);
  // Not a title: the pane header does not grow a title line for it.
  await expect(pane(page, a.sessionId).getByTestId('pane-session-title')).toHaveCount(0);
});

test('a turn that takes a while shows how long it has been going, and the figure goes when it ends', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: [{ delay: 6000 }, { text: 'finally done' }] } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'take your time');
  const timer = pane(page, s.sessionId).getByTestId('pane-turn-time');
  await expect(timer).toHaveText(/^[3-9] s$/, { timeout: 6000 });
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready', { timeout: 15_000 });
  await expect(timer).toHaveCount(0);
});

test('the project folder field offers the folders that complete what is typed, and recent sessions’ folders', async ({ page }) => {
  const root = tempProject();
  for (const d of ['alpha-service', 'alpha-web', 'beta']) mkdirSync(join(root, d));
  // A session in `root` makes it a recent folder.
  await startFixtureSession(page, { scenario: 'basic-text', cwd: root });
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  const options = dialog.getByTestId('new-session-cwd-options').locator('option');
  const values = () => options.evaluateAll((els) => els.map((e) => e.getAttribute('value')));
  await dialog.getByTestId('new-session-cwd').fill('');
  await expect.poll(values).toContain(root);
  await dialog.getByTestId('new-session-cwd').fill(join(root, 'alp'));
  await expect.poll(values).toEqual(expect.arrayContaining([join(root, 'alpha-service/'), join(root, 'alpha-web/')]));
  expect(await values()).not.toContain(join(root, 'beta/'));
  // The web host has no native folder picker: no "Choose…" (the desktop app's, tested in main/electron).
  await expect(dialog.getByTestId('new-session-cwd-choose')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('a session the user opens takes the keyboard: started, picked in the sidebar, or restarted after a crash', async ({ page }) => {
  const cwd = tempProject();
  const a = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  // Started from the dialog: typing goes straight to its prompt box.
  await expect(pane(page, a.sessionId).getByTestId('composer-input')).toBeFocused();
  await page.keyboard.type('typed without a click');
  await expect(pane(page, a.sessionId).getByTestId('composer-input')).toHaveValue('typed without a click');
  const b = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  await expect(pane(page, b.sessionId).getByTestId('composer-input')).toBeFocused();
  // Picked in the sidebar: the keyboard moves to that pane's prompt box.
  await page.locator(`[data-testid="session-item"][data-session-id="${a.sessionId}"]`).click();
  await expect(pane(page, a.sessionId).getByTestId('composer-input')).toBeFocused();
  await page.keyboard.type(', and more');
  await expect(pane(page, a.sessionId).getByTestId('composer-input')).toHaveValue('typed without a click, and more');
  await expect(pane(page, b.sessionId).getByTestId('composer-input')).toHaveValue('');
  // A crashed session restarted from its banner: its successor has the keyboard.
  const c = await startFixtureSession(page, { scenario: 'crash-mid-turn', cwd });
  await sendPrompt(page, c.sessionId, 'crash now');
  await expect(pane(page, c.sessionId)).toHaveAttribute('data-status', 'crashed');
  await pane(page, a.sessionId).getByTestId('composer-input').focus();
  await pane(page, c.sessionId).getByTestId('restart-session').click();
  const restarted = page.getByTestId('session-pane').nth(2);
  await expect(restarted).not.toHaveAttribute('data-session-id', c.sessionId);
  await expect(restarted.getByTestId('composer-input')).toBeFocused();
});

test('the sidebar hides and comes back (Ctrl+B, its buttons), the panes take its width, and it stays as left across a reload', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  const area = page.getByTestId('main-area');
  const before = (await area.boundingBox())!;
  await page.getByTestId('sidebar-hide').click();
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  // The keyboard is not lost with the button that had it: the one that brings the sidebar back has it.
  await expect(page.getByTestId('sidebar-show')).toBeFocused();
  const after = (await area.boundingBox())!;
  expect(after.x).toBe(0);
  expect(after.width).toBeGreaterThan(before.width + 200);

  await page.reload();
  await expect(pane(page, s.sessionId)).toBeVisible();
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await expect(page.getByTestId('sidebar-show')).toBeVisible();

  await page.keyboard.press('Control+b');
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(page.getByTestId('sidebar-show')).toHaveCount(0);
  // Hidden from the keyboard while a sidebar item has focus: focus goes to the status bar's button,
  // and Enter there brings the sidebar back with focus on its hide button.
  await page.locator(`[data-testid="session-item"][data-session-id="${s.sessionId}"]`).focus();
  await page.keyboard.press('Control+b');
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await expect(page.getByTestId('sidebar-show')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sidebar-hide')).toBeFocused();
  // The palette names it by what it will do.
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill('sidebar');
  await expect(page.getByTestId('command-palette')).toContainText('Hide the sidebar');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('sidebar-show')).toBeVisible();
});

test('a pane’s open inspector and changes panel are there again after a reload; a hidden pane’s are forgotten', async ({ page }) => {
  const cwd = tempProject();
  const a = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  const b = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  const pa = pane(page, a.sessionId);
  await pa.getByTestId('toggle-inspector').click();
  await pa.getByTestId('toggle-changes').click();
  await expect(pa.getByTestId('inspector')).toBeVisible();
  await expect(pa.getByTestId('changes-panel')).toBeVisible();
  await pane(page, b.sessionId).getByTestId('toggle-inspector').click();
  await expect(pane(page, b.sessionId).getByTestId('inspector')).toBeVisible();
  await pane(page, b.sessionId).getByTestId('pane-hide').click();
  await expect(pane(page, b.sessionId)).toHaveCount(0);

  await page.reload();
  await expect(pa).toBeVisible();
  await expect(pa.getByTestId('inspector')).toBeVisible();
  await expect(pa.getByTestId('changes-panel')).toBeVisible();
  await expect(pa.getByTestId('toggle-inspector')).toHaveAttribute('aria-pressed', 'true');
  // Shown again from the sidebar: its inspector was closed with the pane.
  await page.locator(`[data-testid="session-item"][data-session-id="${b.sessionId}"]`).click();
  await expect(pane(page, b.sessionId)).toBeVisible();
  await expect(pane(page, b.sessionId).getByTestId('inspector')).toHaveCount(0);
  // Closing a panel is remembered as well.
  await pa.getByTestId('toggle-inspector').click();
  await expect(pa.getByTestId('inspector')).toHaveCount(0);
  await page.reload();
  await expect(pa.getByTestId('changes-panel')).toBeVisible();
  await expect(pa.getByTestId('inspector')).toHaveCount(0);
});

test('a live session is renamed from its pane (F2, a double-click): the header, the sidebar and History say so, and a reload keeps it', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'hello there');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const item = page.locator(`[data-testid="session-item"][data-session-id="${s.sessionId}"]`);
  await expect(item).toContainText('hello there');

  await page.keyboard.press('F2');
  const input = p.getByTestId('pane-rename-input');
  await expect(input).toBeFocused();
  await input.fill('Greeting check');
  await page.keyboard.press('Enter');
  await expect(input).toHaveCount(0);
  await expect(p.getByTestId('pane-session-title')).toHaveText('Greeting check');
  await expect(item).toContainText('Greeting check');

  await page.reload();
  await expect(p.getByTestId('pane-session-title')).toHaveText('Greeting check');
  // Esc leaves it as it was.
  await p.getByTestId('pane-session-title').dblclick();
  await expect(input).toHaveValue('Greeting check');
  await input.fill('Not this');
  await page.keyboard.press('Escape');
  await expect(input).toHaveCount(0);
  await expect(p.getByTestId('pane-session-title')).toHaveText('Greeting check');

  await page.getByTestId('open-history').click();
  const row = page.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`);
  await expect(row).toContainText('Greeting check');
  // Renamed in History while it runs here: its pane says so too.
  await row.click();
  await page.getByTestId('history-rename-input').fill('From History');
  await page.getByTestId('history-rename').click();
  await expect(row).toContainText('From History');
  await page.keyboard.press('Escape');
  await expect(p.getByTestId('pane-session-title')).toHaveText('From History');
  await expect(item).toContainText('From History');

  // Emptied: the first prompt names it again.
  await p.getByTestId('pane-session-title').dblclick();
  await input.fill('');
  await page.keyboard.press('Enter');
  await expect(p.getByTestId('pane-session-title')).toHaveCount(0);
  await expect(item).toContainText('hello there');
});
