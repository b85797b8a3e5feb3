import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost } from './support/web-host';
import { pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

let host: RunningWebHost;
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
});

/** True once some trace of the host holds `text` (the core recorded it, whether or not a window saw it). */
function recorded(text: string): boolean {
  const traces = join(host.dataDir, 'traces');
  if (!existsSync(traces)) return false;
  return readdirSync(traces).some((name) => readFileSync(join(traces, name), 'utf8').includes(text));
}

/**
 * Opens the workbench with every WebSocket of the page going through a route, so the test can drop
 * the connection (`drop()`) and refuse reconnects while `reachable` is false (the web host and its
 * agents keep running, as after a network blip).
 */
async function openDroppable(page: Page) {
  const net = { reachable: true, sockets: [] as WebSocketRoute[], drop: () => net.sockets.at(-1)!.close({ code: 1012, reason: 'dropped (test)' }) };
  await page.routeWebSocket(/\/api/, (ws) => {
    net.sockets.push(ws);
    if (!net.reachable) void ws.close({ code: 1013, reason: 'unreachable (test)' });
    else ws.connectToServer();
  });
  await page.goto(host.url);
  const status = page.getByTestId('status-connection');
  await expect(status).toHaveAttribute('data-state', 'open');
  return { net, status };
}

test('a dropped connection: the status says so, the window reconnects, what happened meanwhile shows and the waiting permission can be answered', async ({ page }) => {
  test.setTimeout(90_000);
  const { net, status } = await openDroppable(page);

  const scenario = {
    defaultPrompt: {
      steps: [
        { text: 'Before the drop.' },
        { delay: 1500 },
        { text: ' Written while the window was away.' },
        { toolCall: { toolCallId: 'r1', title: 'Touch notes.txt', kind: 'edit' } },
        { permission: { toolCall: { toolCallId: 'r1' } }, onSelected: { 'allow-once': [{ text: ' Allowed after the reconnect.' }], '*': [{ text: ' Not allowed.' }] } },
        { toolCallUpdate: { toolCallId: 'r1', status: 'completed' } },
        { end: 'end_turn' },
      ],
    },
  };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject(), policy: 'ask' });
  const p = pane(page, s.sessionId);
  await p.getByTestId('toggle-inspector').click();
  const inspector = p.getByTestId('inspector');
  await expect(inspector.getByTestId('inspector-list')).toHaveAttribute('data-loaded', 'true');
  const asked = inspector.locator('[data-testid="inspector-row"][data-method="session/request_permission"]');
  await sendPrompt(page, s.sessionId, 'go');
  await expect(p.getByTestId('entry-agent_message').last()).toContainText('Before the drop.');

  // Drop the connection and keep the host unreachable until the agent has asked for permission.
  net.reachable = false;
  const opened = net.sockets.length;
  await net.drop();
  await expect(status).not.toHaveAttribute('data-state', 'open');
  await expect(status).toContainText(/Disconnected|Connecting/);
  await screenshot(page, 'reconnect-disconnected');
  await expect.poll(() => recorded('session/request_permission'), { timeout: 20_000 }).toBe(true);
  expect(net.sockets.length).toBeGreaterThan(opened); // the window kept trying

  net.reachable = true;
  await expect(status).toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  // The prompt's request was in flight when the connection dropped; the turn was not: no error for it.
  await expect(p.getByTestId('composer-error')).toHaveCount(0);
  // What the agent sent while the window was away shows, and its question waits to be answered.
  await expect(p.getByTestId('transcript')).toContainText('Written while the window was away.');
  await expect(p).toHaveAttribute('data-status', 'waiting');
  // The inspector lists the request that came while the window was away.
  await expect(asked).toHaveCount(1);
  const card = p.locator('[data-testid="permission-card"][data-status="pending"]');
  await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.getByTestId('transcript')).toContainText('Allowed after the reconnect.');
  await screenshot(page, 'reconnect-answered');
  // The session appears once, not once per connection.
  await expect(page.locator(`[data-testid="session-pane"][data-session-id="${s.sessionId}"]`)).toHaveCount(1);
  expect(s.received().some((m) => (m.result as { outcome?: { optionId?: string } } | undefined)?.outcome?.optionId === 'allow-once')).toBe(true);
});

test('a reader scrolled to the top of a long transcript keeps their place across a reconnect', async ({ page }) => {
  test.setTimeout(120_000);
  const { net, status } = await openDroppable(page);
  const steps: object[] = [];
  for (let i = 0; i < 400; i++) steps.push({ thought: `thinking ${i}` }, { text: `answer ${i}` });
  // Time to scroll up and drop the connection; then the agent writes while the window is away.
  steps.push({ delay: 6000 }, { toolCall: { toolCallId: 'late', title: 'Written while the window was away', kind: 'other' } }, { end: 'end_turn' });
  const s = await startFixtureSession(page, { scenario: { defaultPrompt: { steps } }, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'flood');
  const p = pane(page, s.sessionId);
  const transcript = p.getByTestId('transcript');
  await expect(p.getByTestId('entry-agent_message').last()).toContainText('answer 399', { timeout: 60_000 });
  const before = Number(await transcript.getAttribute('data-count'));
  expect(before).toBeGreaterThan(800); // far more than a reload's first window
  await p.getByTestId('transcript-scroll').focus();
  await page.keyboard.press('Home');
  await expect(p.getByTestId('entry-thought').first()).toContainText('thinking 0');

  net.reachable = false;
  await net.drop();
  await expect(status).not.toHaveAttribute('data-state', 'open');
  await expect.poll(() => recorded('Written while the window was away'), { timeout: 30_000 }).toBe(true);
  net.reachable = true;
  await expect(status).toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  // The reload is in (the entry written while away is counted) and the reader is still at the top.
  await expect.poll(async () => Number(await transcript.getAttribute('data-count')), { timeout: 30_000 }).toBeGreaterThan(before);
  await expect(transcript).toHaveAttribute('data-complete', 'true');
  await expect(p.getByTestId('entry-thought').first()).toContainText('thinking 0');
  expect(await p.getByTestId('transcript-scroll').evaluate((el) => el.scrollTop)).toBeLessThan(100);
  await expect(p.getByTestId('jump-to-latest')).toBeVisible();
});
