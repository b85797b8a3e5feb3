import { expect, test, type Page } from '@playwright/test';
import { useSharedWebHost } from './support/shared-host';
import { pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

useSharedWebHost();

/** A prompt's script of `n` alternating thoughts and messages ("thinking i", "answer i"), then end_turn. */
function floodSteps(n: number, before: object[] = []): object[] {
  const steps = [...before];
  for (let i = 0; i < n; i++) steps.push({ thought: `thinking ${i}` }, { text: `answer ${i}` });
  steps.push({ end: 'end_turn' });
  return steps;
}

/** A session streamed `n` thought + message pairs (floodSteps) to the end of its turn: the session and its pane. */
async function flooded(page: Page, n: number, timeout: number) {
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: floodSteps(n) } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'flood');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready', { timeout });
  return { s, p };
}

/**
 * Counts the elements put in the page from now on that `matches` (a JS expression of the added node
 * `n` and the session id `id`). `reset` starts the count again.
 */
async function countAdded(page: Page, sessionId: string, what: string, matches: string): Promise<{ read(): Promise<number>; reset(): Promise<void> }> {
  const name = JSON.stringify(`__${what}_${sessionId}`);
  await page.evaluate(`{
    window[${name}] = 0;
    const id = ${JSON.stringify(sessionId)};
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (${matches}) window[${name}]++;
    }).observe(document.body, { childList: true, subtree: true });
  }`);
  return {
    read: async () => Number(await page.evaluate(`window[${name}]`)),
    reset: async () => void (await page.evaluate(`window[${name}] = 0`)),
  };
}

/**
 * Counts the rows drawn light (a fast scroll's placeholders) mounted from now on in one session's
 * transcript pane — not in other panes of the window (earlier tests' sessions). Returns the reader.
 */
async function countLightMounts(page: Page, sessionId: string): Promise<() => Promise<number>> {
  const light = await countAdded(page, sessionId, 'light', `n.classList?.contains('tx-row-light') && n.closest('[data-testid="transcript"]')?.dataset.sessionId === id`);
  return light.read;
}

/** Counts the times one session's "Jump to latest" button is put in the page (a flash for a frame counts too). */
const countJumpShows = (page: Page, sessionId: string) =>
  countAdded(page, sessionId, 'jump', `n.dataset?.testid === 'jump-to-latest' && n.closest('[data-testid="session-pane"]')?.dataset.sessionId === id`);

test('HTML and script in agent text stay inert text', async ({ page }) => {
  const hostile = [
    '<script>window.__pwned = 1</script>',
    '<img src=x onerror="window.__pwned = 2">',
    '[click me](javascript:window.__pwned=3)',
    '<svg onload="window.__pwned=4"></svg>',
    '<iframe src="https://example.com"></iframe>',
    '<style>body { display: none }</style>',
    '[data](data:text/html,<script>window.__pwned=5</script>)',
  ].join('\n\n');
  const scenario = { defaultPrompt: { steps: [{ text: hostile, chunks: 5 }, { end: 'end_turn' }] } };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'say something nasty');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const message = p.getByTestId('entry-agent_message').last();
  await expect(message).toContainText('<script>window.__pwned = 1</script>');
  await expect(message.locator('script, img, svg, iframe, style, [onerror], [onload]')).toHaveCount(0);
  await expect(message.locator('a[href^="javascript:"], a[href^="data:"]')).toHaveCount(0);
  await expect(page.locator('body')).toBeVisible();
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('a reopened window shows a long transcript end first, then loads every older entry in order', async ({ page, context }) => {
  test.setTimeout(120_000);
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: floodSteps(1500) } }, cwd: tempProject() });
  // Light rows mounted in this session's pane while it follows the flood.
  const lightMounts = await countLightMounts(page, s.sessionId);
  await sendPrompt(page, s.sessionId, 'flood');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready', { timeout: 90_000 });
  const total = Number(await pane(page, s.sessionId).getByTestId('transcript').getAttribute('data-count'));
  expect(total).toBeGreaterThanOrEqual(3000);
  // A pane following a fast stream shows its new entries in full, not as one clipped line.
  expect(await lightMounts()).toBe(0);
  // A second window of the same core: it loads the transcript from scratch.
  const other = await context.newPage();
  await other.goto(page.url());
  await other.locator(`[data-testid="session-item"][data-session-id="${s.sessionId}"]`).click();
  const p = pane(other, s.sessionId);
  const transcript = p.getByTestId('transcript');
  await expect(p.getByTestId('entry-agent_message').last()).toContainText('answer 1499');
  await expect(transcript).toHaveAttribute('data-complete', 'true', { timeout: 30_000 });
  await expect(transcript).toHaveAttribute('data-count', String(total));
  // To the top as a reader goes there (a key, not a script writing scrollTop): it also ends a
  // scroll-to-end that is still settling, which a written offset would not (the virtualizer wrote
  // it back in CI under load).
  await p.getByTestId('transcript-scroll').focus();
  await other.keyboard.press('Home');
  await expect(p.getByTestId('entry-thought').first()).toContainText('thinking 0');
  await expect(p.getByTestId('entry-agent_message').first()).toContainText('answer 0');
  await other.close();
});

test('a transcript of 20,000 entries keeps fewer than 3,000 DOM nodes in its pane', async ({ page }) => {
  test.setTimeout(180_000);
  // Alternating thoughts and messages: each chunk starts a new entry.
  const { s, p } = await flooded(page, 10_000, 150_000);
  const transcript = p.getByTestId('transcript');
  await expect.poll(async () => Number(await transcript.getAttribute('data-count')), { timeout: 30_000 }).toBeGreaterThanOrEqual(20_000);
  const nodes = await transcript.evaluate((el) => el.querySelectorAll('*').length);
  expect(nodes).toBeLessThan(3000);
  await expect(p.getByTestId('entry-agent_message').last()).toContainText('answer 9999');
  // A fast scroll of the reader's (the wheel) draws the rows it brings in light, and they turn full
  // once the pane is still (a following pane's own scroll never does: the test above).
  const light = await countLightMounts(page, s.sessionId);
  const box = (await p.getByTestId('transcript-scroll').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -4000);
  await expect.poll(light).toBeGreaterThan(0);
  await expect(transcript.locator('.tx-row-light')).toHaveCount(0);
  // Scrolled to the top, the first entries are there and the DOM stays small.
  await p.getByTestId('transcript-scroll').evaluate((el) => (el.scrollTop = 0));
  await expect(p.getByTestId('jump-to-latest')).toBeVisible();
  expect(await transcript.evaluate((el) => el.querySelectorAll('*').length)).toBeLessThan(3000);
  await p.getByTestId('jump-to-latest').click();
  await expect(p.getByTestId('entry-agent_message').last()).toContainText('answer 9999');
});

test('follows the stream; scrolling up stops following and holds still; "Jump to latest" follows again', async ({ page }) => {
  test.setTimeout(90_000);
  const words = 'streamed words that wrap over more than one line in a pane, '.repeat(3);
  const steps: object[] = [];
  // Longer than the test needs (over a minute); the test cancels the turn when it is done.
  for (let i = 0; i < 600; i++) steps.push({ thought: `thinking ${i}` }, { text: `answer ${i}: ${words}`, chunks: 4, chunkDelayMs: 15 }, { delay: 60 });
  steps.push({ end: 'end_turn' });
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'stream');
  const p = pane(page, s.sessionId);
  const transcript = p.getByTestId('transcript');
  const scroll = p.getByTestId('transcript-scroll');
  const jump = p.getByTestId('jump-to-latest');
  const count = async () => Number(await transcript.getAttribute('data-count'));
  const fromEnd = () => scroll.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
  const grows = async (by: number) => {
    const before = await count();
    await expect.poll(count).toBeGreaterThanOrEqual(before + by);
  };

  // Following while it streams: at the end, the newest entry in view, no button — not even for a
  // frame (it flashed in and out while the pane scrolled to each new end).
  const jumpShows = await countJumpShows(page, s.sessionId);
  await expect.poll(count).toBeGreaterThan(30);
  for (let i = 0; i < 3; i++) {
    await grows(4);
    await expect(transcript).toHaveAttribute('data-following', 'true');
    await expect.poll(fromEnd).toBeLessThanOrEqual(32);
    await expect(p.getByTestId('entry-agent_message').last()).toBeInViewport();
  }
  await expect(jump).toHaveCount(0);
  expect(await jumpShows.read()).toBe(0);

  // The reader scrolls up: following stops, the button shows, and the view holds still while
  // entries keep coming.
  await scroll.hover();
  await page.mouse.wheel(0, -600);
  await expect(jump).toBeVisible();
  await expect(transcript).toHaveAttribute('data-following', 'false');
  // The wheel scrolls smoothly: on a loaded machine its animation is still moving the view when the
  // button shows. Hold is measured from where the wheel left it.
  let last = -1;
  await expect
    .poll(async () => {
      const top = await scroll.evaluate((el) => el.scrollTop);
      const still = top === last;
      last = top;
      return still;
    }, { intervals: [150] })
    .toBe(true);
  const held = last;
  await grows(6);
  expect(Math.abs((await scroll.evaluate((el) => el.scrollTop)) - held)).toBeLessThanOrEqual(1);
  expect(await fromEnd()).toBeGreaterThan(32);
  await expect(transcript).toHaveAttribute('data-following', 'false');

  // "Jump to latest" goes to the end and follows the stream again.
  await jump.click();
  await expect(jump).toBeHidden();
  await jumpShows.reset();
  await expect(transcript).toHaveAttribute('data-following', 'true');
  for (let i = 0; i < 2; i++) {
    await grows(4);
    await expect.poll(fromEnd).toBeLessThanOrEqual(32);
    await expect(p.getByTestId('entry-agent_message').last()).toBeInViewport();
  }
  await expect(transcript).toHaveAttribute('data-following', 'true');
  expect(await jumpShows.read()).toBe(0);
  await p.getByTestId('cancel-turn').click();
  await expect(p).toHaveAttribute('data-status', 'cancelled');
});

test('plan, tool calls, terminal output and usage of a full turn', async ({ page }) => {
  const cwd = tempProject({ 'hello.txt': 'Hello\n' });
  const s = await startFixtureSession(page, { scenario: 'full-turn', cwd, policy: 'all' });
  await sendPrompt(page, s.sessionId, 'change the greeting');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.getByTestId('plan-item').filter({ hasText: 'Run the tests' }).last()).toHaveAttribute('data-status', 'completed');
  await expect(p.locator('[data-testid="tool-call"][data-tool-call-id="edit-1"]')).toHaveAttribute('data-status', 'completed');
  await expect(p.getByTestId('terminal-output').last()).toContainText('tests passed');
  await expect(p.getByTestId('usage-meter')).toHaveAttribute('data-reported', 'true');
  await expect(p.getByTestId('usage-cost')).toContainText('USD');
  await expect(p.getByTestId('usage-turn')).toContainText('5.3k');
  await screenshot(page, 'plan-and-usage');
});

test('a long diff shows collapsed (also while its tool call runs), expands to every line and collapses, from the keyboard', async ({ page }) => {
  const oldLines = Array.from({ length: 60 }, (_, i) => `const value${i} = ${i};`);
  const newLines = oldLines.map((_, i) => `const value${i} = ${i} * 2;`);
  // A line far wider than the pane: it wraps, the diff never scrolls sideways.
  newLines[59] = `export const wide = '${'w'.repeat(400)}';`;
  const text = (lines: string[]) => `${lines.join('\n')}\n`;
  const cwd = tempProject({ 'big.ts': text(oldLines) });
  const scenario = {
    defaultPrompt: {
      steps: [
        { toolCall: { toolCallId: 'big-1', title: 'Rewrite big.ts', kind: 'edit', status: 'in_progress', diff: { path: '{{cwd}}/big.ts', oldText: text(oldLines), newText: text(newLines) } } },
        // The turn waits on this answer: the diff can be looked at while the call is in progress.
        { permission: { toolCall: { toolCallId: 'big-1' } }, onSelected: { '*': [{ toolCallUpdate: { toolCallId: 'big-1', status: 'completed' } }] } },
        { text: 'rewritten' },
        { end: 'end_turn' },
      ],
    },
  };
  const s = await startFixtureSession(page, { scenario, cwd, policy: 'ask' });
  await sendPrompt(page, s.sessionId, 'rewrite it');
  const p = pane(page, s.sessionId);
  const card = p.locator('[data-testid="tool-call"][data-tool-call-id="big-1"]');
  const diff = card.getByTestId('diff-inline');
  const lines = diff.locator('.tx-diff-line:not(.tx-diff-hunk)');
  // The collapsed preview is drawn as runs of rows of one kind (each says how many rows it has).
  const previewRows = () => diff.locator('.tx-diff-run:not(.tx-diff-run-hunk)').evaluateAll((runs) => runs.reduce((n, r) => n + Number(r.getAttribute('data-rows')), 0));
  const previewCode = () => diff.locator('.tx-diff-run-del .tx-diff-run-code').allTextContents();
  const toggle = diff.getByTestId('diff-toggle-all');

  // In progress: collapsed to its first lines.
  await expect(card).toHaveAttribute('data-status', 'in_progress');
  await expect(p.getByTestId('permission-card')).toBeVisible();
  await expect(diff.getByTestId('diff-lines')).toHaveAttribute('data-total', '120');
  await expect(diff.getByTestId('diff-lines')).toHaveAttribute('data-shown', '11');
  await expect.poll(previewRows).toBe(11);
  // Its first lines, in order, one per row.
  expect((await previewCode()).join('\n').split('\n')).toEqual(oldLines.slice(0, 11));
  await expect(lines).toHaveCount(0);
  await expect(toggle).toHaveText('Show all 120 lines');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  await p.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(card).toHaveAttribute('data-status', 'completed');
  await expect(p).toHaveAttribute('data-status', 'ready');
  // Completed: still collapsed (nothing expands by itself).
  await expect.poll(previewRows).toBe(11);
  await screenshot(page, 'diff-preview-collapsed');

  // No scroll container in the diff: nothing scrolls inside the card, sideways or down.
  const scrollers = () =>
    diff.evaluate((root) => {
      const style = (el: typeof root) => el.ownerDocument.defaultView!.getComputedStyle(el);
      return [root, ...root.querySelectorAll('*')].filter((el) => /auto|scroll/.test(style(el).overflowX + style(el).overflowY)).length;
    });
  expect(await scrollers()).toBe(0);

  // Keyboard: Tab from "Open in diff editor" reaches the toggle; Enter expands.
  await diff.getByTestId('open-diff').focus();
  await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveText('Show less');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(diff.getByTestId('diff-lines')).toHaveAttribute('data-shown', '120');
  // Every line, in order, on each side; the wide line whole and wrapped inside the pane.
  expect(await diff.locator('.tx-diff-del .tx-diff-text').allTextContents()).toEqual(oldLines);
  expect(await diff.locator('.tx-diff-add .tx-diff-text').allTextContents()).toEqual(newLines);
  const wide = diff.locator('.tx-diff-add .tx-diff-text').last();
  const box = await wide.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, height: el.getBoundingClientRect().height, lineHeight: parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).lineHeight) }));
  expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
  expect(box.height).toBeGreaterThan(box.lineHeight * 1.5);
  expect(await scrollers()).toBe(0);
  await screenshot(page, 'diff-expanded');

  // Space collapses it again; the toggle keeps the focus.
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(toggle).toHaveText('Show all 120 lines');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(previewRows).toBe(11);
  await expect(diff.locator('.tx-diff-run-code').nth(1)).toContainText('const value0 = 0;');
});

test('Show less at the end of a long expanded diff leaves the card in view', async ({ page }) => {
  const oldLines = Array.from({ length: 300 }, (_, i) => `const value${i} = ${i};`);
  const newLines = oldLines.map((_, i) => `const value${i} = ${i} * 2;`);
  const text = (lines: string[]) => `${lines.join('\n')}\n`;
  // Entries after the diff, so the transcript goes on below it.
  const steps = floodSteps(40, [{ toolCall: { toolCallId: 'big-2', title: 'Rewrite big.ts', kind: 'edit', status: 'completed', diff: { path: '{{cwd}}/big.ts', oldText: text(oldLines), newText: text(newLines) } } }]);
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'go');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  // To the top as a reader goes there (a key: a script writing scrollTop is not the reader, and a
  // following pane goes back to its end).
  await p.getByTestId('transcript-scroll').focus();
  await page.keyboard.press('Home');
  const toggle = p.getByTestId('diff-toggle-all');
  await toggle.click();
  await expect(p.getByTestId('diff-lines')).toHaveAttribute('data-shown', '600');
  // Read down to the end of the diff (about 10,000 px), then collapse it there.
  await toggle.scrollIntoViewIfNeeded();
  await expect(toggle).toBeInViewport();
  await toggle.click();
  await expect(p.getByTestId('diff-lines')).toHaveAttribute('data-shown', '11');
  await expect(toggle).toHaveText('Show all 600 lines');
  await expect(toggle).toBeInViewport();
  await expect(toggle).toBeFocused();
});

test('tool cards that mount while their pane follows a fast stream show their head, and their body once the stream pauses or the reader scrolls up', async ({ page }) => {
  test.setTimeout(90_000);
  const lines = (n: number, k: number) => `${Array.from({ length: n }, (_, i) => `const v${i} = ${i * k};`).join('\n')}\n`;
  /** `n` groups of a thought, a message and a completed edit with a diff, `delay` ms apart. */
  const groups = (prefix: string, n: number, delay: number) => {
    const steps: object[] = [];
    for (let i = 0; i < n; i++) {
      steps.push({ thought: `thinking ${prefix}${i}` }, { text: `answer ${prefix}${i}` });
      steps.push({ toolCall: { toolCallId: `${prefix}-${i}`, title: `Edit ${prefix}${i}.ts`, kind: 'edit', status: 'completed', diff: { path: `{{cwd}}/${prefix}${i}.ts`, oldText: lines(20, 1), newText: lines(20, 2) } } });
      if (delay) steps.push({ delay });
    }
    return steps;
  };
  const scenario = {
    prompts: [
      // A few ms apart, so the burst spans several messages to the window however fast the host.
      { match: { text: '^burst$' }, steps: [...groups('b', 60, 5), { end: 'end_turn' }] },
      // Longer than the test needs; it cancels the turn when done.
      { match: { text: '^stream$' }, steps: [...groups('s', 1000, 40), { end: 'end_turn' }] },
    ],
  };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  const transcript = p.getByTestId('transcript');
  const deferred = transcript.locator('[data-testid="tool-call"][data-body="deferred"]');
  const headOnly = await countAdded(page, s.sessionId, 'deferred', `n.querySelector?.('[data-body="deferred"]') && n.closest('[data-testid="transcript"]')?.dataset.sessionId === id`);

  // A burst: cards mount as their head while it streams; once it ended every card in view is whole.
  await sendPrompt(page, s.sessionId, 'burst');
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.getByTestId('entry-agent_message').last()).toContainText('answer b59');
  expect(await headOnly.read()).toBeGreaterThan(0);
  await expect(deferred).toHaveCount(0);
  const last = transcript.locator('[data-testid="tool-call"][data-tool-call-id="b-59"]');
  await expect(last).toBeInViewport();
  await expect(last.getByTestId('diff-lines')).toBeVisible();
  await expect(last.getByTestId('diff-lines')).toContainText('const v1 = 1;');

  // A stream that goes on: the reader scrolls up, and the cards they scroll to are whole while it
  // still streams.
  await headOnly.reset();
  await sendPrompt(page, s.sessionId, 'stream');
  await expect.poll(headOnly.read).toBeGreaterThan(3);
  await expect(transcript).toHaveAttribute('data-following', 'true');
  await p.getByTestId('transcript-scroll').hover();
  await page.mouse.wheel(0, -400);
  await expect(transcript).toHaveAttribute('data-following', 'false');
  await expect(p).toHaveAttribute('data-status', 'prompting');
  await expect(deferred).toHaveCount(0);
  await expect(transcript.locator('[data-testid="tool-call"]').first().getByTestId('diff-lines')).toBeVisible();
  await p.getByTestId('cancel-turn').click();
  await expect(p).toHaveAttribute('data-status', 'cancelled');
});

test('a tool call the agent never finished stops saying “Running” when its turn ends, and a late final status wins', async ({ page }) => {
  // Codex and Gemini leave some calls in progress at end_turn (real-agents.md); the second
  // prompt's turn finishes the call late, as claude-agent-acp does after a cancel.
  const scenario = {
    prompts: [
      { match: { text: '^search$' }, steps: [{ toolCall: { toolCallId: 'grep-1', title: 'Search the code', kind: 'search', status: 'in_progress' } }, { text: 'Searched.' }, { end: 'end_turn' }] },
      { match: { text: '^finish$' }, steps: [{ toolCallUpdate: { toolCallId: 'grep-1', status: 'completed' } }, { text: 'Done now.' }, { end: 'end_turn' }] },
    ],
  };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  const status = p.locator('[data-testid="tool-call"][data-tool-call-id="grep-1"] [data-testid="tool-call-status"]');
  await sendPrompt(page, s.sessionId, 'search');
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(status).toHaveAttribute('data-unsettled', 'true');
  await expect(status).toHaveText('No final status');
  await expect(status).toHaveAttribute('data-status', 'in_progress');
  await expect(status).toHaveAttribute('title', /never reported this tool call as finished; its last status was “Running”/);
  await expect(status.locator('.tx-spin')).toHaveCount(0);
  await sendPrompt(page, s.sessionId, 'finish');
  await expect(p.getByTestId('transcript')).toContainText('Done now.');
  await expect(status).toHaveText('Done');
  await expect(status).not.toHaveAttribute('data-unsettled', 'true');
});

test('a fling from the end draws the newest entries it passes light too, and they turn full once still', async ({ page }) => {
  test.setTimeout(90_000);
  const { s, p } = await flooded(page, 300, 60_000);
  const transcript = p.getByTestId('transcript');
  await expect(p.getByTestId('entry-agent_message').last()).toContainText('answer 299');
  await expect(transcript).toHaveAttribute('data-following', 'true');
  const light = await countLightMounts(page, s.sessionId);
  // One fast wheel from the end stays within the last 200 entries (≈ 28 px a row): rows there were
  // always drawn full before, which made a fling's first frames its slowest (issue #11).
  const box = (await p.getByTestId('transcript-scroll').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -2500);
  await expect.poll(light).toBeGreaterThan(0);
  await expect(transcript.locator('.tx-row-light')).toHaveCount(0);
  await expect(transcript).toHaveAttribute('data-following', 'false');
});

test('Ctrl+F finds words anywhere in a long transcript, shows each match in turn, and closes with Esc', async ({ page }) => {
  // 200 thought + message pairs; "xylophone" in answer 10 (far above, not mounted) and answer 190.
  const steps = floodSteps(200).map((s) => ('text' in s && /^answer (10|190)$/.test(String(s.text)) ? { text: `${String(s.text)} plays the Xylophone` } : s));
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'flood');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const transcript = p.getByTestId('transcript');
  await expect(transcript).toHaveAttribute('data-following', 'true');
  await p.getByTestId('composer-input').click();
  await page.keyboard.press('Control+f');
  const bar = p.getByTestId('find-bar');
  await expect(p.getByTestId('find-input')).toBeFocused();
  await page.keyboard.type('XYLOPHONE');
  // Both matches counted by the core; the newest is current and outlined.
  await expect(bar).toHaveAttribute('data-total', '2');
  await expect(p.getByTestId('find-status')).toHaveText('2 of 2');
  const current = p.locator('.tx-row[data-find="current"]');
  await expect(current).toContainText('answer 190 plays the Xylophone');
  // The words themselves are highlighted in the rows on screen.
  await expect.poll(() => page.evaluate(() => (globalThis as unknown as { CSS: { highlights: Map<string, { size: number }> } }).CSS.highlights.get('transcript-find-current')?.size ?? 0)).toBeGreaterThan(0);
  // The previous match is far up: the pane goes there and stays (it no longer follows).
  await page.keyboard.press('Shift+Enter');
  await expect(p.getByTestId('find-status')).toHaveText('1 of 2');
  await expect(current).toContainText('answer 10 plays the Xylophone');
  await expect(current).toBeInViewport();
  await expect(transcript).toHaveAttribute('data-following', 'false');
  await screenshot(page, 'transcript-find');
  // Enter wraps round to the newest again; F3 / Shift+F3 step too, as in other desktop apps.
  await page.keyboard.press('Enter');
  await expect(current).toContainText('answer 190 plays the Xylophone');
  await page.keyboard.press('Shift+F3');
  await expect(p.getByTestId('find-status')).toHaveText('1 of 2');
  await page.keyboard.press('F3');
  await expect(p.getByTestId('find-status')).toHaveText('2 of 2');
  await expect(current).toContainText('answer 190 plays the Xylophone');
  await p.getByTestId('find-input').fill('no such words anywhere');
  await expect(p.getByTestId('find-status')).toHaveText('No matches');
  await expect(current).toHaveCount(0);
  await p.getByTestId('find-input').fill('xylophone');
  await expect(p.getByTestId('find-status')).toHaveText('2 of 2');
  await page.keyboard.press('Escape');
  await expect(bar).toHaveCount(0);
  await expect(p.getByTestId('transcript-scroll')).toBeFocused();
  // Opened again, the bar keeps its words; Enter searches afresh and shows the newest match.
  await page.keyboard.press('Control+f');
  await expect(p.getByTestId('find-input')).toHaveValue('xylophone');
  await page.keyboard.press('Enter');
  await expect(p.getByTestId('find-status')).toHaveText('2 of 2');
  await expect(current).toContainText('answer 190 plays the Xylophone');
});

/** What the page's clipboard holds. */
const clipboardText = (page: Page) => page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());

test('a finished answer and a prompt copy as the Markdown they were written in', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const answer = '## Plan\n\nUse **bold** and `code`:\n\n```ts\nconst x = 1;\n```';
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: [{ text: answer }, { end: 'end_turn' }] } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'explain *this*');
  const p = pane(page, s.sessionId);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const message = p.getByTestId('entry-agent_message');
  await message.hover();
  const copy = message.getByTestId('message-copy');
  await expect(copy).toBeVisible();
  await screenshot(page, 'message-copy');
  await copy.click();
  await expect(copy).toHaveAttribute('data-state', 'copied');
  expect(await clipboardText(page)).toBe(answer);
  const prompt = p.getByTestId('entry-user_message');
  await prompt.hover();
  await prompt.getByTestId('message-copy').click();
  await expect.poll(() => clipboardText(page)).toBe('explain *this*');
});

test('Alt+Up and Alt+Down go from prompt to prompt in a long transcript', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps: floodSteps(40) } }, cwd: tempProject() });
  const p = pane(page, s.sessionId);
  for (const text of ['first prompt', 'second prompt', 'third prompt']) {
    await sendPrompt(page, s.sessionId, text);
    await expect(p).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  }
  const prompt = (text: string) => p.locator('[data-testid="entry-user_message"]', { hasText: text });
  await expect(prompt('third prompt')).not.toBeInViewport();
  await p.getByTestId('transcript-scroll').focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(prompt('third prompt')).toBeInViewport();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(prompt('second prompt')).toBeInViewport();
  await expect(prompt('third prompt')).not.toBeInViewport();
  await expect(p.getByTestId('transcript')).toHaveAttribute('data-following', 'false');
  await page.keyboard.press('Alt+ArrowDown');
  await expect(prompt('third prompt')).toBeInViewport();
});
