/**
 * The protocol inspector and the QA tools of a session (issue #9), in the real UI against the
 * fixture agent: a permission request with its answer and latency, filters and search, the live
 * conformance findings linked to their messages, a manual answer typed by the tester reaching the
 * agent, the raw request composer, capabilities switched off before initialize, and a list of
 * 100,000 messages that stays usable.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost } from './support/web-host';
import { FIXTURE_AGENT, pane, screenshot, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

let host: RunningWebHost;
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
});
test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(host.url);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
});

async function openInspector(page: Page, sessionId: string): Promise<Locator> {
  const p = pane(page, sessionId);
  await p.getByTestId('toggle-inspector').click();
  const inspector = p.getByTestId('inspector');
  await expect(inspector).toBeVisible();
  return inspector;
}

const rows = (inspector: Locator) => inspector.getByTestId('inspector-row');

/** Every row shown has this attribute value (once the filtered window is in). */
async function expectEveryRow(inspector: Locator, attribute: string, value: string): Promise<void> {
  await expect
    .poll(async () => {
      const values = await rows(inspector).evaluateAll((els, a) => els.map((e) => e.getAttribute(a)), attribute);
      return values.length > 0 && values.every((v) => v === value);
    })
    .toBe(true);
}

const permissionScenario = {
  startup: [{ stderr: 'fixture: starting up' }],
  defaultPrompt: {
    steps: [
      { noise: 'debug: this line should have gone to stderr' },
      { text: 'Let me edit the file.', chunks: 3 },
      { toolCall: { toolCallId: 'e1', title: 'Edit notes.txt', kind: 'edit' } },
      { permission: { toolCall: { toolCallId: 'e1' } }, onSelected: { 'allow-once': [{ text: ' Allowed, done.' }], '*': [{ text: ' Not allowed.' }] } },
      { toolCallUpdate: { toolCallId: 'e1', status: 'completed' } },
    ],
  },
};

test('the inspector shows a permission request, its answer and latency; filters and search narrow the list; findings link to messages', async ({ page }) => {
  const s = await startFixtureSession(page, { scenario: permissionScenario, cwd: tempProject(), policy: 'ask' });
  const p = pane(page, s.sessionId);
  const inspector = await openInspector(page, s.sessionId);
  await expect(inspector.getByTestId('inspector-list')).toHaveAttribute('data-loaded', 'true');
  // initialize and session/new, both ways, are there before any prompt.
  await expect(inspector.locator('[data-testid="inspector-row"][data-method="initialize"]')).toHaveCount(2);

  await sendPrompt(page, s.sessionId, 'edit the notes');
  await expect(p).toHaveAttribute('data-status', 'waiting');
  const asked = inspector.locator('[data-testid="inspector-row"][data-method="session/request_permission"]');
  await expect(asked).toHaveCount(1);
  await expect(asked.first()).toHaveAttribute('data-dir', 'in');
  await expect(asked.first()).toHaveAttribute('data-kind', 'request');
  await p.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(p).toHaveAttribute('data-status', 'ready');

  // The answer follows, out, with the latency of the request.
  await expect(asked).toHaveCount(2);
  const answer = asked.nth(1);
  await expect(answer).toHaveAttribute('data-kind', 'response');
  await expect(answer).toHaveAttribute('data-dir', 'out');
  await expect(answer.getByTestId('inspector-latency')).toHaveText(/^\d+(\.\d+)? (ms|s)$/);
  await answer.click();
  const detail = inspector.getByTestId('inspector-detail');
  await expect(detail).toHaveAttribute('data-kind', 'response');
  await expect(detail.getByTestId('inspector-detail-json')).toContainText('"allow-once"');
  await expect(detail.getByTestId('inspector-detail-latency')).toContainText(/answered in \d/);
  // Collapsible: the result node folds to a summary.
  const result = detail.locator('[data-testid="json-node"][data-path="$.result"]');
  await expect(result).toHaveAttribute('data-open', 'true');
  await result.getByTestId('json-toggle').first().click();
  await expect(result).toHaveAttribute('data-open', 'false');
  await detail.getByTestId('inspector-pin').click();
  await expect(answer).toHaveAttribute('data-pinned', 'true');
  await detail.getByTestId('inspector-peer').click();
  await expect(asked.first()).toHaveAttribute('data-selected', 'true');
  await screenshot(page, 'inspector-messages');

  const count = inspector.getByTestId('inspector-count');
  const all = Number(await count.getAttribute('data-all'));
  expect(all).toBeGreaterThan(10);
  // Kind: only stderr lines.
  await inspector.getByTestId('inspector-filter-kind-stderr').click();
  await expect(inspector.locator('[data-testid="inspector-row"][data-kind="stderr"]').filter({ hasText: 'fixture: starting up' })).toHaveCount(1);
  await expect.poll(async () => Number(await count.getAttribute('data-total'))).toBeLessThan(all);
  await expectEveryRow(inspector, 'data-kind', 'stderr');
  await inspector.getByTestId('inspector-clear-filters').click();
  await expect(count).toHaveAttribute('data-total', String(all));
  // Direction: only what we sent.
  await inspector.getByTestId('inspector-filter-dir-out').click();
  await expectEveryRow(inspector, 'data-dir', 'out');
  await inspector.getByTestId('inspector-clear-filters').click();
  // Method and update kind.
  await inspector.getByTestId('inspector-filter-method').selectOption('session/update');
  await inspector.getByTestId('inspector-filter-update').selectOption('agent_message_chunk');
  await expect(count).toHaveAttribute('data-total', '4'); // 3 chunks + the allowed branch
  await expectEveryRow(inspector, 'data-update-kind', 'agent_message_chunk');
  await inspector.getByTestId('inspector-clear-filters').click();
  // Text search.
  await inspector.getByTestId('inspector-search').fill('allowed, done');
  await expect(count).toHaveAttribute('data-total', '1');
  await expect(rows(inspector).first()).toHaveAttribute('data-update-kind', 'agent_message_chunk');
  await screenshot(page, 'inspector-filtered');
  await inspector.getByTestId('inspector-search').fill('');
  await expect(count).toHaveAttribute('data-total', String(await count.getAttribute('data-all')));

  // Export the pinned message as JSONL.
  const [download] = await Promise.all([page.waitForEvent('download'), inspector.getByTestId('inspector-export-pinned').click()]);
  const file = join(mkdtempSync(join(tmpdir(), 'acpwb-dl-')), 'pinned.jsonl');
  await download.saveAs(file);
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; dir: string; msg: { result?: unknown } });
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ kind: 'wire', dir: 'out', msg: { result: { outcome: { outcome: 'selected', optionId: 'allow-once' } } } });

  // Live conformance: the stdout noise is a finding; its link selects the noise line.
  await inspector.getByTestId('inspector-tab-conformance').click();
  const finding = inspector.locator('[data-testid="qa-finding"][data-rule="stdout-noise"]');
  await expect(finding).toBeVisible();
  // Why the rule matters, from the rule itself (no doc file needed to read a finding).
  await expect(finding.getByTestId('qa-finding-why')).toHaveText(/\w+ \w+ \w+/);
  await expect(inspector.getByTestId('inspector-findings-count')).toBeVisible();
  await screenshot(page, 'inspector-conformance');
  // The report as Markdown, for a bug report: the agent, the finding, and the line that shows it.
  const [report] = await Promise.all([page.waitForEvent('download'), inspector.getByTestId('qa-export-report').click()]);
  expect(report.suggestedFilename()).toMatch(/^conformance-[\w.-]+-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.md$/);
  const reportFile = join(mkdtempSync(join(tmpdir(), 'acpwb-dl-')), 'report.md');
  await report.saveAs(reportFile);
  const markdown = readFileSync(reportFile, 'utf8');
  expect(markdown).toMatch(/^# Conformance report: /);
  expect(markdown).toContain('`stdout-noise`');
  expect(markdown).toContain('debug: this line should have gone to stderr');
  expect(markdown).toContain('Why it matters: ');
  await expect(inspector.getByTestId('qa-export-status')).toContainText('Saved conformance-');
  await finding.getByTestId('qa-finding-evidence').first().click();
  await expect(inspector).toHaveAttribute('data-tab', 'messages');
  const noise = inspector.locator('[data-testid="inspector-row"][data-kind="noise"]');
  await expect(noise).toHaveAttribute('data-selected', 'true');
  await expect(inspector.getByTestId('inspector-detail-text')).toContainText('debug: this line should have gone to stderr');
});

test('a manual answer typed by the tester reaches the agent; a fault rule answers an error', async ({ page }) => {
  const scenario = {
    defaultPrompt: {
      steps: [
        { readFile: { path: 'notes.txt' }, report: true, onError: [{ text: 'read failed' }] },
        { writeFile: { path: 'out.txt', content: 'x' }, report: true, onError: [{ text: ' write refused.' }] },
        { permission: { toolCall: { toolCallId: 'p1', title: 'Delete notes.txt' } }, saveAs: 'choice' },
        { text: ' choice={{saved.choice}}' },
      ],
    },
  };
  const cwd = tempProject({ 'notes.txt': 'what is on disk\n' });
  const s = await startFixtureSession(page, { scenario, cwd, policy: 'all' });
  const p = pane(page, s.sessionId);
  const inspector = await openInspector(page, s.sessionId);
  await inspector.getByTestId('inspector-tab-faults').click();
  const faults = inspector.getByTestId('qa-faults');
  await expect(faults.getByTestId('qa-manual-empty')).toBeVisible();

  // Rule 1: fs reads by hand. Rule 2: fs writes fail with an injected error. Rule 3: permissions by hand.
  await faults.getByTestId('qa-rule-add').click();
  await faults.getByTestId('qa-rule-add').click();
  await faults.getByTestId('qa-rule-add').click();
  const rules = faults.getByTestId('qa-rule');
  await rules.nth(0).getByTestId('qa-rule-method').fill('fs/read_text_file');
  await rules.nth(0).getByTestId('qa-rule-action').selectOption('manual');
  await rules.nth(1).getByTestId('qa-rule-method').fill('fs/write_text_file');
  await rules.nth(1).getByTestId('qa-rule-action').selectOption('error');
  await rules.nth(1).getByTestId('qa-rule-code').fill('-32042');
  await rules.nth(1).getByTestId('qa-rule-message').fill('disk on fire');
  await rules.nth(2).getByTestId('qa-rule-method').fill('session/request_permission');
  await rules.nth(2).getByTestId('qa-rule-pattern').fill('Delete');
  await faults.getByTestId('qa-rules-apply').click();
  await expect(faults.getByTestId('qa-rules-status')).toContainText('3 rule(s) active');
  await expect(rules.nth(0)).toHaveAttribute('data-id', 'r1');

  await sendPrompt(page, s.sessionId, 'read the notes');
  const held = faults.locator('[data-testid="qa-manual-request"][data-method="fs/read_text_file"]');
  await expect(held).toBeVisible();
  await expect(inspector.getByTestId('inspector-manual-count')).toHaveText('1');
  await expect(held.getByTestId('qa-manual-params')).toContainText('notes.txt');
  await held.getByTestId('qa-manual-json').fill('{ "content": "typed by the tester" }');
  await screenshot(page, 'inspector-manual');
  await held.getByTestId('qa-manual-send-result').click();
  await expect(held).toHaveCount(0);
  // The permission waits in the same queue (the policy "allow all" comes after the QA rules).
  const permission = faults.locator('[data-testid="qa-manual-request"][data-method="session/request_permission"]');
  await expect(permission.getByTestId('qa-manual-params')).toContainText('Delete notes.txt');
  await expect(permission.getByTestId('qa-manual-json')).toHaveValue(/"optionId": "allow-once"/);
  await permission.getByTestId('qa-manual-json').fill('{ "outcome": { "outcome": "selected", "optionId": "reject-always" } }');
  await permission.getByTestId('qa-manual-send-result').click();
  await expect(p).toHaveAttribute('data-status', 'ready');
  await expect(p.getByTestId('transcript')).toContainText('choice=reject-always');

  // The agent got the typed content, not the file on disk; the write got the injected error.
  const answers = s.received().filter((m) => m.method === undefined && ('result' in m || 'error' in m));
  expect(answers.map((m) => m.result ?? m.error)).toEqual(
    expect.arrayContaining([{ content: 'typed by the tester' }, expect.objectContaining({ code: -32042, message: 'disk on fire' })]),
  );
  await expect(p.getByTestId('transcript')).toContainText('typed by the tester');
  await expect(p.getByTestId('transcript')).toContainText('write refused.');
  expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
  await inspector.getByTestId('inspector-tab-messages').click();
  const failed = inspector.locator('[data-testid="inspector-row"][data-method="fs/write_text_file"][data-kind="response"]');
  await expect(failed).toHaveClass(/has-error/);
  // A narrow pane puts the detail under the list.
  await page.setViewportSize({ width: 900, height: 900 });
  await failed.click();
  await expect(inspector.getByTestId('inspector-detail-json')).toContainText('disk on fire');
  await screenshot(page, 'inspector-narrow');
  // Narrower still (three panes at 1024 px): every tab stays on one line and inside the panel.
  await page.setViewportSize({ width: 560, height: 900 });
  const panel = (await inspector.boundingBox())!;
  const messagesTab = (await inspector.getByTestId('inspector-tab-messages').boundingBox())!;
  for (const tab of ['messages', 'faults', 'composer', 'conformance']) {
    const box = (await inspector.getByTestId(`inspector-tab-${tab}`).boundingBox())!;
    expect(box.x + box.width, `${tab} tab cut off`).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
    expect(box.height, `${tab} tab label wrapped`).toBeLessThanOrEqual(messagesTab.height + 1);
  }
  await screenshot(page, 'inspector-very-narrow');
});

test('the raw request composer sends any method through the unchecked path and shows the answer', async ({ page }) => {
  const scenario = { methods: { '_fixture/echo': { result: { echoed: true } } }, initialize: { agentCapabilities: { _meta: { 'fixture.dev': { echo: true } } } } };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject(), policy: 'ask' });
  const inspector = await openInspector(page, s.sessionId);
  await inspector.getByTestId('inspector-tab-composer').click();
  const composer = inspector.getByTestId('raw-composer');
  // A template of the spec, filled with this session's id.
  await composer.getByTestId('raw-template').selectOption('session/list');
  await expect(composer.getByTestId('raw-method')).toHaveValue('session/list');
  await composer.getByTestId('raw-send').click();
  await expect(composer.getByTestId('raw-result')).toHaveAttribute('data-ok', 'false');
  await expect(composer.getByTestId('raw-result')).toHaveAttribute('data-code', '-32601');
  // An extension method with typed params.
  await expect(composer.getByTestId('raw-template').locator('option[value="_fixture.dev/"]')).toHaveCount(1);
  await composer.getByTestId('raw-method').fill('_fixture/echo');
  await composer.getByTestId('raw-params').fill('{ "ping": 1 }');
  await composer.getByTestId('raw-send').click();
  await expect(composer.getByTestId('raw-result')).toHaveAttribute('data-ok', 'true');
  await expect(composer.getByTestId('raw-result-json')).toContainText('"echoed"');
  await screenshot(page, 'inspector-composer');
  expect(s.received().filter((m) => m.method === '_fixture/echo').map((m) => m.params)).toEqual([{ ping: 1 }]);
  await inspector.getByTestId('inspector-tab-messages').click();
  const sent = inspector.locator('[data-testid="inspector-row"][data-method="_fixture/echo"][data-kind="request"]');
  await expect(sent).toContainText('unchecked');
});

test('a capability switched off before initialize is absent from what the agent received', async ({ page }) => {
  const logDir = mkdtempSync(join(tmpdir(), 'acpwb-caps-'));
  const received = join(logDir, 'received.jsonl');
  const scenarioFile = join(logDir, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify({}));
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-command').fill(`"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${scenarioFile}" --received-log "${received}"`);
  await dialog.getByTestId('new-session-cwd').fill(tempProject());
  await dialog.getByTestId('new-session-cap-terminal').uncheck();
  await dialog.getByTestId('new-session-cap-elicitationForm').uncheck();
  await dialog.getByTestId('new-session-cap-elicitationUrl').uncheck();
  await dialog.getByTestId('new-session-start').click();
  await expect(dialog).toBeHidden();
  const p = page.getByTestId('session-pane').first();
  await expect(p).toHaveAttribute('data-status', 'ready');
  const initialize = readFileSync(received, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { message?: { method?: string; params?: { clientCapabilities?: Record<string, unknown> } } }).message)
    .find((m) => m?.method === 'initialize');
  const caps = initialize!.params!.clientCapabilities!;
  expect(caps).not.toHaveProperty('elicitation');
  expect(caps.terminal).not.toBe(true);
  expect(caps.fs).toEqual({ readTextFile: true, writeTextFile: true });
  // The Faults tab says what was advertised.
  const sessionId = (await p.getAttribute('data-session-id'))!;
  const inspector = await openInspector(page, sessionId);
  await inspector.getByTestId('inspector-tab-faults').click();
  await expect(inspector.getByTestId('qa-capabilities')).toContainText('"terminal"');
  await expect(inspector.getByTestId('qa-capabilities')).not.toContainText('elicitation');
  await screenshot(page, 'inspector-capabilities');
});

test('100,000 messages stay smooth: windows load as the list scrolls, filters answer quickly', async ({ page }) => {
  test.setTimeout(180_000);
  const scenario = { defaultPrompt: { steps: [{ text: 'x'.repeat(100_000), chunks: 100_000 }] } };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject(), policy: 'ask' });
  const p = pane(page, s.sessionId);
  await sendPrompt(page, s.sessionId, 'flood');
  await expect(p).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  const inspector = await openInspector(page, s.sessionId);
  const list = inspector.getByTestId('inspector-list');
  await expect.poll(async () => Number(await list.getAttribute('data-total')), { timeout: 30_000 }).toBeGreaterThan(100_000);
  // Opened at the latest message; only a window of rows is in the DOM.
  await expect(rows(inspector).last()).toBeVisible();
  expect(await rows(inspector).count()).toBeLessThan(200);
  const scroller = inspector.getByTestId('inspector-scroll');
  const started = Date.now();
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect(rows(inspector).first()).toHaveAttribute('data-index', /^[45]\d{4}$/);
  const scrollMs = Date.now() - started;
  await screenshot(page, 'inspector-100k-middle');
  const t0 = Date.now();
  await inspector.getByTestId('inspector-filter-kind-response').click();
  await expect(inspector.getByTestId('inspector-count')).toHaveAttribute('data-total', /^[1-9]$/);
  const filterMs = Date.now() - t0;
  await screenshot(page, 'inspector-100k');
  console.log(`100k messages: middle window in ${scrollMs} ms, filter in ${filterMs} ms`);
  expect(scrollMs).toBeLessThan(3000);
  expect(filterMs).toBeLessThan(3000);
});
