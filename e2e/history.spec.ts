import { expect, test } from '@playwright/test';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost } from './support/web-host';
import { FIXTURE_AGENT, pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

let host: RunningWebHost;
test.beforeEach(async ({ page }) => {
  host = await startWebHost();
  await page.goto(host.url);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
});
test.afterEach(async () => {
  await host?.stop();
});

/** A session with three prompts, recorded through the UI. */
async function recordThreeTurns(page: import('@playwright/test').Page, scenario: string) {
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  for (const text of ['first question about zebras', 'second question', 'third question']) {
    await sendPrompt(page, s.sessionId, text);
    await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  }
  return s;
}

test('search finds a session with highlighted snippets, previews it read-only, and resume continues it live', async ({ page }) => {
  const s = await recordThreeTurns(page, 'history-resume');
  await page.getByTestId('open-history').click();
  const screen = page.getByTestId('history-screen');
  await screen.getByTestId('history-search').fill('zebras');
  const row = screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('history-snippet').locator('mark')).toHaveText(/zebras/i);
  await row.click();
  // Ctrl+F over History means its search box, not the find bar of the pane it covers.
  await page.keyboard.press('Control+f');
  await expect(screen.getByTestId('history-search')).toBeFocused();
  await expect(page.getByTestId('find-bar')).toHaveCount(0);
  const preview = screen.getByTestId('history-preview');
  await expect(preview).toHaveAttribute('data-session-id', s.sessionId);
  await expect(preview.getByTestId('history-transcript')).toContainText('first question about zebras');
  await expect(preview.getByTestId('history-transcript')).toContainText('third question');
  await screenshot(page, 'history-search-preview');
  // A search for a word nobody used narrows the list to nothing.
  await screen.getByTestId('history-search').fill('quetzalcoatl');
  await expect(screen.getByTestId('history-empty')).toBeVisible();
  await screen.getByTestId('history-search').fill('zebras');
  await row.click();

  await preview.getByTestId('history-prompt').fill('a fourth question');
  await preview.getByTestId('history-resume').click();
  await expect(screen).toBeHidden();
  const live = page.getByTestId('session-pane').last();
  await expect(live).not.toHaveAttribute('data-session-id', s.sessionId);
  await expect(live).toHaveAttribute('data-status', 'ready');
  await expect(live.getByTestId('transcript')).toContainText('You said: a fourth question');
  // The earlier conversation is there once, not twice.
  await expect(live.getByTestId('entry-user_message').filter({ hasText: 'first question about zebras' })).toHaveCount(1);
  await screenshot(page, 'history-resumed');
});

test('fork before the second message holds exactly the prefix, and the lineage shows the parent', async ({ page }) => {
  const s = await recordThreeTurns(page, 'history-plain');
  await page.keyboard.press('Control+h');
  const screen = page.getByTestId('history-screen');
  await screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`).click();
  const preview = screen.getByTestId('history-preview');
  await preview.getByTestId('history-fork-at').selectOption('2');
  await preview.getByTestId('history-prompt').fill('a different second question');
  await preview.getByTestId('history-fork').click();
  await expect(screen).toBeHidden();
  const fork = page.getByTestId('session-pane').last();
  await expect(fork).toHaveAttribute('data-status', 'ready');
  // The primed prompt carries the earlier transcript and then the new text; the fixture echoes both.
  await expect(fork.getByTestId('entry-agent_message').last()).toContainText('a different second question');
  // The agent was primed with the prefix only: the first question, not the second or third.
  await expect(fork.getByTestId('transcript')).toContainText('first question about zebras');
  await expect(fork.getByTestId('entry-user_message').filter({ hasText: /^second question$/ })).toHaveCount(0);
  const forkId = (await fork.getAttribute('data-session-id'))!;

  await page.keyboard.press('Control+h');
  await screen.getByTestId('history-search').fill('');
  await screen.locator(`[data-testid="history-row"][data-session-id="${forkId}"]`).click();
  const lineage = preview.getByTestId('history-lineage');
  await expect(lineage.locator(`[data-testid="lineage-node"][data-session-id="${s.sessionId}"]`)).toBeVisible();
  await expect(lineage.locator(`[data-testid="lineage-node"][data-session-id="${forkId}"]`)).toHaveAttribute('data-relation', 'fork');
  await screenshot(page, 'history-lineage');

  // The two relatives side by side from the fork point: the parent's second question, the fork's own.
  await lineage.locator(`[data-testid="lineage-side-by-side"][data-session-id="${forkId}"]`).click();
  const relatives = page.getByTestId('relatives-view');
  await expect(relatives.getByTestId('relatives-column')).toHaveCount(2);
  const [parentColumn, forkColumn] = [relatives.getByTestId('relatives-column').nth(0), relatives.getByTestId('relatives-column').nth(1)];
  await expect(parentColumn).toHaveAttribute('data-session-id', s.sessionId);
  await expect(parentColumn.getByTestId('relatives-entries')).toContainText('second question');
  await expect(parentColumn.getByTestId('relatives-entries')).not.toContainText('first question about zebras');
  await expect(forkColumn.getByTestId('relatives-entries')).toContainText('a different second question');
  await screenshot(page, 'history-relatives');
});

test('replay as agent answers the same prompt as the recorded agent did', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'hello there');
  const original = pane(page, s.sessionId);
  await expect(original).toHaveAttribute('data-status', 'ready');
  const recorded = (await original.getByTestId('entry-agent_message').last().textContent()) ?? '';
  expect(recorded.length).toBeGreaterThan(0);
  await page.getByTestId('pane-close').click();

  await page.keyboard.press('Control+h');
  const screen = page.getByTestId('history-screen');
  await screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`).click();
  await screen.getByTestId('history-replay').click();
  await expect(screen).toBeHidden();
  const replay = page.getByTestId('session-pane').last();
  await expect(replay).toHaveAttribute('data-status', 'ready');
  await sendPrompt(page, (await replay.getAttribute('data-session-id'))!, 'hello there');
  await expect(replay).toHaveAttribute('data-status', 'ready');
  await expect(replay.getByTestId('entry-agent_message').last()).toHaveText(recorded);
});

test('an agent’s own sessions for a folder are listed with their origin, paged with its cursor, and open live', async ({ page }) => {
  const cwd = tempProject();
  // A custom agent whose session/list offers three sessions started outside the workbench, two per page.
  await page.getByTestId('open-agents').click();
  const agents = page.getByTestId('agents-dialog');
  await agents.getByTestId('agent-add').click();
  await agents.getByTestId('agent-form-name').fill('Lister');
  await agents.getByTestId('agent-form-command').fill(`"${process.execPath}" "${FIXTURE_AGENT}" --scenario history-resume`);
  await agents.getByTestId('agent-form-save').click();
  await expect(agents.locator('[data-testid="agent-row"][data-agent-id="lister"]')).toBeVisible();
  await agents.getByRole('button', { name: 'Close' }).click();

  await page.keyboard.press('Control+h');
  const screen = page.getByTestId('history-screen');
  await screen.getByTestId('history-agent-side').click();
  const panel = screen.getByTestId('agent-sessions');
  await panel.getByTestId('agent-sessions-agent').selectOption('lister');
  await panel.getByTestId('agent-sessions-cwd').fill(cwd);
  await panel.getByTestId('agent-sessions-list').click();
  await expect(panel.getByTestId('agent-session')).toHaveCount(2);
  await expect(panel.locator('[data-testid="agent-session"][data-origin="agent"]').first()).toContainText('Started in a terminal');
  await panel.getByTestId('agent-sessions-more').click();
  await expect(panel.getByTestId('agent-session')).toHaveCount(3);
  await expect(panel.getByTestId('agent-sessions-more')).toHaveCount(0);
  await panel.locator('[data-testid="agent-session"][data-agent-session-id="outside-1"]').getByTestId('agent-session-open').click();
  await expect(screen).toBeHidden();
  await expect(page.getByTestId('session-pane').last()).toHaveAttribute('data-status', 'ready');
  await screenshot(page, 'history-agent-sessions');
});

test('the preview shows messages as the transcript does: markdown rendered, HTML as text, counts in words', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'history-plain', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'a **bold** question about `parsers` <img src=x onerror=alert(1)>');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await page.getByTestId('open-history').click();
  const screen = page.getByTestId('history-screen');
  await screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`).click();
  const preview = screen.getByTestId('history-preview');
  const user = preview.locator('[data-testid="history-entry"][data-kind="user_message"]').first();
  await expect(user.locator('strong', { hasText: 'bold' })).toBeVisible();
  await expect(user.locator('code', { hasText: 'parsers' })).toBeVisible();
  await expect(user).not.toContainText('**bold**');
  // Raw HTML in a message stays text: no element is made of it.
  await expect(user).toContainText('<img src=x onerror=alert(1)>');
  await expect(user.locator('img')).toHaveCount(0);
  await expect(preview).toContainText('1 turn ·');
  await expect(preview).not.toContainText('1 turns');
});

test('a session still running here offers its live pane; once closed, only resume', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'history-plain', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'one question');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await pane(page, s.sessionId).getByTestId('pane-hide').click();
  await expect(pane(page, s.sessionId)).toHaveCount(0);
  await page.getByTestId('open-history').click();
  const screen = page.getByTestId('history-screen');
  await screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`).click();
  const preview = screen.getByTestId('history-preview');
  await expect(preview).toHaveAttribute('data-session-id', s.sessionId);
  await preview.getByTestId('history-show-live').click();
  await expect(screen).toBeHidden();
  await expect(pane(page, s.sessionId)).toBeVisible();
  // Closed: nothing live to show, resume is the way back.
  await pane(page, s.sessionId).getByTestId('pane-close').click();
  await page.getByTestId('open-history').click();
  await screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`).click();
  await expect(preview.getByTestId('history-resume')).toBeVisible();
  await expect(preview.getByTestId('history-show-live')).toHaveCount(0);
});

test('the welcome screen lists the last sessions: a running one shown, a closed one resumed, one opened in History, a failed resume said', async ({ page }) => {
  // A session whose agent will be gone when it is resumed: its scenario file is deleted.
  const gone = join(mkdtempSync(join(tmpdir(), 'acpwb-gone-')), 'scenario.json');
  writeFileSync(gone, JSON.stringify({ defaultPrompt: { steps: [{ text: 'You said: {{prompt}}' }] } }));
  const a = await startFixtureSession(page, { scenario: gone, cwd: tempProject() });
  await sendPrompt(page, a.sessionId, 'about badgers');
  await expect(pane(page, a.sessionId)).toHaveAttribute('data-status', 'ready');
  await pane(page, a.sessionId).getByTestId('pane-close').click();
  const b = await startFixtureSession(page, { scenario: 'history-resume', cwd: tempProject() });
  await sendPrompt(page, b.sessionId, 'about otters');
  await expect(pane(page, b.sessionId)).toHaveAttribute('data-status', 'ready');

  // Hidden, still running: the welcome screen shows its pane again instead of starting a copy.
  await pane(page, b.sessionId).getByTestId('pane-hide').click();
  const recent = page.getByTestId('recent-sessions');
  const rowB = recent.locator(`[data-testid="recent-session"][data-session-id="${b.sessionId}"]`);
  const rowA = recent.locator(`[data-testid="recent-session"][data-session-id="${a.sessionId}"]`);
  await expect(rowB).toContainText('about otters');
  await expect(rowB).toContainText('1 turn');
  await expect(rowB).toContainText(/in acpwb-proj-\w+/); // the folder by its name; the whole path in its title
  await expect(recent.getByTestId('recent-session').first()).toHaveAttribute('data-session-id', b.sessionId);
  await expect(rowB.getByTestId('recent-session-resume')).toHaveCount(0);
  await rowB.getByTestId('recent-session-show').click();
  await expect(pane(page, b.sessionId)).toBeVisible();

  // Closed: resumed live, with what was said before.
  await pane(page, b.sessionId).getByTestId('pane-close').click();
  await expect(rowB.getByTestId('recent-session-resume')).toBeVisible();
  await screenshot(page, 'welcome-recent-sessions');
  await rowB.getByTestId('recent-session-resume').click();
  const live = page.getByTestId('session-pane');
  await expect(live).toHaveCount(1);
  await expect(live).not.toHaveAttribute('data-session-id', b.sessionId);
  await expect(live.getByTestId('entry-user_message').filter({ hasText: 'about otters' })).toHaveCount(1);
  await sendPrompt(page, (await live.getAttribute('data-session-id'))!, 'and beavers');
  await expect(live.getByTestId('transcript')).toContainText('You said: and beavers');
  await live.getByTestId('pane-close').click();

  // Opened in History: its preview.
  await rowA.getByTestId('recent-session-open').click();
  await expect(page.getByTestId('history-preview')).toHaveAttribute('data-session-id', a.sessionId);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('history-screen')).toBeHidden();

  // Its agent cannot start any more: the row says why, and nothing else changes.
  rmSync(gone);
  await rowA.getByTestId('recent-session-resume').click();
  await expect(rowA.getByTestId('recent-session-error')).toContainText('Could not resume it');
  await expect(page.getByTestId('session-pane')).toHaveCount(0);
  await expect(rowA.getByTestId('recent-session-resume')).toBeEnabled();
});

test('the palette exports the focused session as Markdown and as its trace, says so in the status bar, and says why an export failed', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: 'history-plain', cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'a question about <b>owls</b>');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  const palette = async (text: string) => {
    await page.keyboard.press('Control+Shift+P');
    await page.getByTestId('palette-input').fill(text);
    return page.getByTestId('palette-item').first();
  };
  const note = page.getByTestId('status-note');

  let item = await palette('transcript as markdown');
  await expect(item).toHaveAttribute('data-action', 'session.export.md');
  const [md] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(md.suggestedFilename()).toMatch(/^session-.*\.md$/);
  const mdText = readFileSync((await md.path())!, 'utf8');
  expect(mdText).toContain('owls');
  expect(mdText).toContain('You said:');
  await expect(note).toHaveAttribute('data-kind', 'info');
  await expect(note).toContainText(`Exported the transcript as Markdown: ${md.suggestedFilename()}`);

  item = await palette('trace (.jsonl');
  await expect(item).toHaveAttribute('data-action', 'session.export.jsonl');
  const [trace] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const lines = readFileSync((await trace.path())!, 'utf8').trim().split('\n');
  expect(lines.length).toBeGreaterThan(3);
  for (const line of lines) JSON.parse(line); // every line a record
  expect(lines.some((l) => l.includes('session/prompt'))).toBe(true);

  // "Open in History" goes to its preview.
  await palette('focused session in history');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('history-preview')).toHaveAttribute('data-session-id', s.sessionId);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('history-screen')).toBeHidden();

  // The recorded trace is gone (this host's only one: traces are named by connection): the note
  // says why, and stays until dismissed.
  const tracesDir = join(host.dataDir, 'traces');
  const traces = readdirSync(tracesDir).filter((f) => f.endsWith('.jsonl'));
  expect(traces).toHaveLength(1);
  rmSync(join(tracesDir, traces[0]!));
  await palette('transcript as markdown');
  await page.keyboard.press('Enter');
  await expect(note).toHaveAttribute('data-kind', 'error');
  await expect(note).toContainText(`Could not export the transcript as Markdown: its trace file ${join(tracesDir, traces[0]!)} is gone`);
  await note.getByTestId('status-note-dismiss').click();
  await expect(note).toHaveCount(0);

});

test('a history read from scratch shows the index being built, then what was read', async ({ page }) => {
  // Traces recorded before the first look (another machine's, a restored backup): no index yet.
  // A host of its own, started on them (the window of beforeEach may have opened the index).
  await host.stop();
  const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-e2e-history-'));
  const fixtures = join(__dirname, 'fixtures', 'traces');
  mkdirSync(join(dataDir, 'traces'), { recursive: true });
  for (const name of readdirSync(fixtures)) copyFileSync(join(fixtures, name), join(dataDir, 'traces', name));
  host = await startWebHost({}, { dataDir });
  await page.goto(host.url);
  await page.getByTestId('open-history').click();
  const screen = page.getByTestId('history-screen');
  const indexing = screen.getByTestId('history-indexing');
  await expect(indexing).toHaveAttribute('data-done', 'true');
  const traces = readdirSync(fixtures).length;
  await expect(indexing).toHaveAttribute('data-traces-done', String(traces));
  await expect(indexing).toContainText(`Indexed ${traces} traces of history in`);
  await expect(screen.getByTestId('history-row').first()).toBeVisible();
  await screenshot(page, 'history-indexed');
  // The summary was for this visit.
  await page.keyboard.press('Escape');
  await page.getByTestId('open-history').click();
  await expect(screen.getByTestId('history-row').first()).toBeVisible();
  await expect(indexing).toHaveCount(0);
});

test('“Compare across agents” from a recorded session: the new-run dialog with its folder, its whole last prompt and its agent first', async ({ page }) => {
  const cwd = tempProject();
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd });
  const long = `Refactor the parser so that ${'every rule is a small function of its own, '.repeat(10)}and keep the tests green.`;
  expect(long.length).toBeGreaterThan(300); // past what the preview's list of prompts keeps
  await sendPrompt(page, s.sessionId, 'first, a question');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await sendPrompt(page, s.sessionId, long);
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await page.getByTestId('pane-close').click();

  await page.keyboard.press('Control+h');
  const screen = page.getByTestId('history-screen');
  await screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`).click();
  await screen.getByTestId('history-compare').click();
  await expect(screen).toBeHidden();
  const dialog = page.getByTestId('new-run-dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Compare across agents');
  await expect(dialog.getByTestId('new-run-cwd')).toHaveValue(cwd);
  await expect(dialog.getByTestId('new-run-prompt')).toHaveValue(long);
  const first = dialog.getByTestId('new-run-agent').first();
  await expect(first.getByTestId('new-run-agent-select')).toHaveValue('__command__');
  await expect(first.getByTestId('new-run-agent-command')).toHaveValue(/fixture-agent\.cjs --scenario basic-text/);
  await expect(dialog.getByTestId('new-run-notes')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a recorded session’s changes: each file it wrote with its diff, read from the trace, opened in the diff editor', async ({ page }) => {
  const cwd = tempProject({ 'hello.txt': 'Hello\n' });
  const edited = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'all' });
  await sendPrompt(page, edited.sessionId, 'change the greeting');
  await expect(pane(page, edited.sessionId)).toHaveAttribute('data-status', 'ready');
  const created = await startFixtureSession(page, { scenario: 'new-file', cwd, policy: 'all' });
  await sendPrompt(page, created.sessionId, 'make a to-do list');
  await expect(pane(page, created.sessionId)).toHaveAttribute('data-status', 'ready');
  const talk = await startFixtureSession(page, { scenario: 'history-plain', cwd });
  await sendPrompt(page, talk.sessionId, 'just talk');
  await expect(pane(page, talk.sessionId)).toHaveAttribute('data-status', 'ready');
  // Closed: its agent is gone, and the changes still show (from the trace).
  await pane(page, edited.sessionId).getByTestId('pane-close').click();

  await page.getByTestId('open-history').click();
  const screen = page.getByTestId('history-screen');
  const preview = screen.getByTestId('history-preview');
  await screen.locator(`[data-testid="history-row"][data-session-id="${edited.sessionId}"]`).click();
  await expect(preview).toHaveAttribute('data-session-id', edited.sessionId);
  const changes = preview.getByTestId('history-changes');
  await expect(changes).toHaveAttribute('data-count', '1');
  const row = changes.getByTestId('history-change-row');
  await expect(row).toHaveAttribute('data-path', join(cwd, 'hello.txt'));
  await expect(row.locator('.change-path')).toHaveText('hello.txt');
  await expect(row.getByTestId('history-change-stats')).toHaveText('+1 −1');
  // One file: its diff is open in the preview; the editor shows both sides.
  const inline = row.getByTestId('history-change-diff-view');
  await expect(inline).toBeVisible();
  await expect(inline).toContainText('Hello, world!');
  await screenshot(page, 'history-changes');
  await row.getByTestId('history-change-open').click();
  const dialog = page.getByTestId('diff-dialog');
  await expect(dialog.getByTestId('diff-dialog-editor')).toBeVisible();
  await expect(dialog).toContainText('hello.txt');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(screen).toBeVisible();
  // The whole session as a patch, which git applies to the folder as it was.
  const [download] = await Promise.all([page.waitForEvent('download'), changes.getByTestId('history-changes-patch').click()]);
  expect(download.suggestedFilename()).toMatch(/^session-.*\.patch$/);
  expect(readFileSync((await download.path())!, 'utf8')).toBe('--- a/hello.txt\n+++ b/hello.txt\n@@ -1,1 +1,1 @@\n-Hello\n+Hello, world!\n');
  // The row folds and unfolds from the keyboard.
  await row.getByRole('button', { name: 'hello.txt' }).focus();
  await page.keyboard.press('Enter');
  await expect(row.getByTestId('history-change-diff')).toHaveCount(0);

  // A file the agent created is marked new; a session that wrote nothing has no section.
  await screen.locator(`[data-testid="history-row"][data-session-id="${created.sessionId}"]`).click();
  await expect(preview).toHaveAttribute('data-session-id', created.sessionId);
  await expect(changes.getByTestId('history-change-row')).toHaveAttribute('data-path', join(cwd, 'todo.md'));
  await expect(changes.locator('.change-badge-new')).toHaveText('new');
  await expect(changes.getByTestId('history-change-stats')).toHaveText('+3 −0');
  await screen.locator(`[data-testid="history-row"][data-session-id="${talk.sessionId}"]`).click();
  await expect(preview).toHaveAttribute('data-session-id', talk.sessionId);
  await expect(preview.getByTestId('history-transcript')).toBeVisible();
  await expect(preview.getByTestId('history-changes')).toHaveCount(0);
});

test('a long recorded session’s preview reads on past its first entries: more, the end, and back', async ({ page }) => {
  const steps: object[] = [];
  for (let i = 0; i < 350; i++) steps.push({ thought: `pondering ${i}` }, { text: `answer ${i}` });
  steps.push({ end: 'end_turn' });
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'talk at length');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await page.getByTestId('open-history').click();
  const screen = page.getByTestId('history-screen');
  await screen.locator(`[data-testid="history-row"][data-session-id="${s.sessionId}"]`).click();
  const transcript = screen.getByTestId('history-transcript');
  // A user message, 700 entries of the agent's, the turn's end.
  await expect(transcript).toHaveAttribute('data-count', '702');
  await expect(transcript.locator('h4')).toHaveText('Transcript (entries 1–300 of 702)');
  await expect(transcript).toContainText('answer 148');
  await expect(transcript).not.toContainText('answer 149');

  await transcript.getByTestId('history-more').click();
  await expect(transcript.locator('h4')).toHaveText('Transcript (entries 1–600 of 702)');
  await expect(transcript).toContainText('answer 298');
  await expect(transcript.getByTestId('history-more')).toHaveText('Show 102 more');

  await transcript.getByTestId('history-end').click();
  await expect(transcript.locator('h4')).toHaveText('Transcript (entries 403–702 of 702)');
  await expect(transcript).toContainText('answer 349');
  await expect(transcript).toContainText('turn ended: end_turn');
  await expect(transcript).not.toContainText('talk at length');
  await expect(transcript.getByTestId('history-more')).toHaveCount(0);

  await transcript.getByTestId('history-earlier').click();
  await expect(transcript.locator('h4')).toHaveText('Transcript (entries 103–702 of 702)');
  await transcript.getByTestId('history-earlier').click();
  await expect(transcript.locator('h4')).toHaveText('Transcript');
  await expect(transcript).toContainText('talk at length');
  await expect(transcript.getByTestId('history-earlier')).toHaveCount(0);
});
