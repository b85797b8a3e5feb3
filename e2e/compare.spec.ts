/**
 * Compare runs in the UI (issue #7): three fixture agents (real subprocesses) get one prompt in a
 * temp git repository, each in its own worktree, side by side with a shared timeline; one asks for
 * permission (answered in its pane). The comparison view's figures are checked against what each
 * agent's scenario did; then export, promote (applied; refused on a conflict with the path listed;
 * files picked from two agents), discard, and leftovers of an earlier run offered at start-up.
 */
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, startWebHost, type RunningWebHost } from './support/web-host';
import { FIXTURE_AGENT, pane, screenshot, sendPrompt, startFixtureSession } from './support/workbench';

let host: RunningWebHost;
const temps: string[] = [];
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto(host.url);
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'open');
});

const GIT_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

/** A git repository with one commit: shared.txt (3 lines) and README.md. */
function tempRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-cmp-e2e-')));
  temps.push(dir);
  writeFileSync(join(dir, 'shared.txt'), 'line 1\nline 2\nline 3\n');
  writeFileSync(join(dir, 'README.md'), '# Project\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

/** Scenario files for the fixture agent; returns the command line for the dialog. */
function agentCommand(name: string, scenario: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-scn-'));
  temps.push(dir);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return `"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${file}" --max-lifetime-ms 120000`;
}

/** alpha: a read, then an edit it asks permission for; writes a.txt and changes line 2 of shared.txt. */
const ALPHA = {
  defaultPrompt: {
    steps: [
      { toolCall: { toolCallId: 'r1', title: 'Read shared.txt', kind: 'read' } },
      { delay: 50 },
      { toolCallUpdate: { toolCallId: 'r1', status: 'completed' } },
      { toolCall: { toolCallId: 'e1', title: 'Edit a.txt and shared.txt', kind: 'edit' } },
      {
        permission: { toolCall: { toolCallId: 'e1' } },
        onSelected: {
          'allow-once': [
            { writeFile: { path: 'a.txt', content: 'from alpha\n' } },
            { writeFile: { path: 'shared.txt', content: 'line 1\nline 2 by alpha\nline 3\n' } },
            { toolCallUpdate: { toolCallId: 'e1', status: 'completed' } },
          ],
        },
      },
      { text: 'alpha is done' },
    ],
  },
};
/** beta: one edit, no permission; writes b.txt and changes line 2 of shared.txt differently; reports usage. Answers a follow-up. */
const BETA = {
  prompts: [{ match: { index: 2 }, steps: [{ text: 'beta follows up' }] }],
  defaultPrompt: {
    steps: [
      { delay: 150 },
      { sessionUpdate: 'usage_update', used: 1234, size: 200000, cost: { amount: 0.02, currency: 'USD' } },
      { toolCall: { toolCallId: 'w1', title: 'Write b.txt and shared.txt', kind: 'edit' } },
      { writeFile: { path: 'b.txt', content: 'from beta\n' } },
      { writeFile: { path: 'shared.txt', content: 'line 1\nline 2 by beta\nline 3\n' } },
      { toolCallUpdate: { toolCallId: 'w1', status: 'completed' } },
      { text: 'beta is done' },
    ],
  },
};
/** gamma: runs a command in a terminal, writes a 3-line file in a new folder, stops at max_tokens. */
const GAMMA = {
  defaultPrompt: {
    steps: [
      { terminal: { command: process.execPath, args: ['-e', 'console.log("checked")'] }, toolCall: { toolCallId: 't1', title: 'Run a check' } },
      { toolCall: { toolCallId: 'w2', title: 'Write docs/gamma.md', kind: 'edit' } },
      { writeFile: { path: 'docs/gamma.md', content: '# Gamma\n\nwritten by gamma\n' } },
      { toolCallUpdate: { toolCallId: 'w2', status: 'completed' } },
      { text: 'gamma ran out of tokens' },
      { end: 'max_tokens' },
    ],
  },
};

const figure = (page: Page, metric: string, index: number) => page.locator(`[data-testid="figure"][data-metric="${metric}"][data-agent-index="${index}"]`);
const fileCell = (page: Page, path: string, index: number) => page.locator(`[data-testid="file-row"][data-path="${path}"] [data-testid="file-cell"][data-agent-index="${index}"]`);

test('a 3-agent compare run: side by side with a shared timeline, the comparison’s figures match what the agents did, promote, conflict, pick, discard', async ({ page }) => {
  test.setTimeout(120_000);
  const repo = tempRepo();

  // New compare run from the sidebar.
  await page.getByTestId('new-compare-run').click();
  const dialog = page.getByTestId('new-run-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('new-run-add-agent').click();
  const rows = dialog.getByTestId('new-run-agent');
  await expect(rows).toHaveCount(3);
  const agents = [
    ['alpha', ALPHA],
    ['beta', BETA],
    ['gamma', GAMMA],
  ] as const;
  for (const [i, [label, scenario]] of agents.entries()) {
    const row = rows.nth(i);
    await row.getByTestId('new-run-agent-select').selectOption('__command__');
    await row.getByTestId('new-run-agent-command').fill(agentCommand(label, scenario));
    await row.getByTestId('new-run-agent-label').fill(label);
  }
  await dialog.getByTestId('new-run-cwd').fill(repo);
  await dialog.getByTestId('new-run-prompt').fill('Make your change to the project');
  await dialog.getByTestId('new-run-policy').selectOption('ask');
  await dialog.getByTestId('new-run-verify').fill('test -f a.txt');
  await screenshot(page, 'compare-new-run-dialog');
  await dialog.getByTestId('new-run-start').click();
  await expect(dialog).toBeHidden();

  // The run's sessions are the panes, side by side, with the run strip and its timeline above.
  const strip = page.getByTestId('run-strip');
  await expect(strip).toBeVisible();
  const runId = (await strip.getAttribute('data-run-id'))!;
  await expect(page.getByTestId('session-pane')).toHaveCount(3);
  const lanes = strip.getByTestId('timeline-lane');
  await expect(lanes).toHaveCount(3);
  // Lanes and panes in the same order, one per agent (labelled in the lanes).
  const laneSessions = await lanes.evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')));
  const paneSessions = await page.getByTestId('session-pane').evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')));
  expect(paneSessions).toEqual(laneSessions);
  await expect(lanes.locator('.timeline-label')).toHaveText(['alpha', 'beta', 'gamma']);

  // alpha waits for permission: answered in its pane; the timeline shows the wait.
  const alphaLane = strip.locator('[data-testid="timeline-lane"][data-agent-index="0"]');
  const alphaSession = (await alphaLane.getAttribute('data-session-id'))!;
  const alphaPane = pane(page, alphaSession);
  await expect(alphaPane).toHaveAttribute('data-status', 'waiting');
  await expect(alphaLane.locator('[data-testid="timeline-wait"][data-open="true"]')).toHaveCount(1);
  await screenshot(page, 'compare-panes-waiting');
  await alphaPane.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();

  // Every agent finishes; the run becomes ready (verification included).
  await expect(strip).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  for (const i of [0, 1, 2]) await expect(strip.locator(`[data-testid="timeline-lane"][data-agent-index="${i}"]`)).toHaveAttribute('data-state', 'done');
  await expect(alphaLane.locator('[data-testid="timeline-wait"]')).toHaveAttribute('data-open', 'false');
  await expect(alphaLane.getByTestId('timeline-tool')).toHaveCount(2);
  await expect(strip.locator('[data-testid="timeline-lane"][data-agent-index="2"] [data-testid="timeline-end"]')).toHaveAttribute('data-stop-reason', 'max_tokens');
  await expect(strip.locator('[data-testid="timeline-lane"][data-agent-index="1"] [data-testid="timeline-end"]')).toHaveAttribute('data-stop-reason', 'end_turn');
  await expect(strip.locator('[data-testid="timeline-lane"][data-agent-index="0"] [data-testid="timeline-first-update"]')).not.toHaveAttribute('data-ms', '');
  // Nothing reached the user's folder yet.
  expect(git(repo, 'status', '--porcelain')).toBe('');

  // A follow-up to some agents only (beta): its pane gets the prompt, the others do not.
  await strip.getByTestId('run-follow-up-toggle').click();
  await strip.getByTestId('run-follow-up-input').fill('One more thing');
  await strip.locator('[data-testid="run-follow-up-agent"][data-agent-index="0"]').uncheck();
  await strip.locator('[data-testid="run-follow-up-agent"][data-agent-index="2"]').uncheck();
  await expect(strip.getByTestId('run-follow-up-send')).toHaveText('Send to 1');
  await strip.getByTestId('run-follow-up-send').click();
  const betaLane = strip.locator('[data-testid="timeline-lane"][data-agent-index="1"]');
  const betaPane = pane(page, (await betaLane.getAttribute('data-session-id'))!);
  await expect(betaPane.getByTestId('transcript')).toContainText('beta follows up');
  await expect(betaLane.getByTestId('timeline-turn')).toHaveCount(2);
  await expect(strip).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(alphaLane.getByTestId('timeline-turn')).toHaveCount(1);
  await expect(pane(page, alphaSession).getByTestId('transcript')).not.toContainText('One more thing');
  await screenshot(page, 'compare-panes-done');

  // The comparison view.
  await strip.getByTestId('run-open-comparison').click();
  const view = page.getByTestId('comparison-view');
  await expect(view).toHaveAttribute('data-loaded', 'true');
  await expect(view).toHaveAttribute('data-run-id', runId);
  // It is modal: the window's shortcuts wait (Ctrl+F would open a covered pane's find bar).
  await page.keyboard.press('Control+f');
  await expect(page.getByTestId('find-bar')).toHaveCount(0);
  await expect(view.getByTestId('figures-agent')).toHaveText(['alpha', 'beta', 'gamma']);
  // What each agent said last, side by side.
  await expect(view.getByTestId('last-answer')).toHaveText([/alpha is done/, /beta follows up/, /gamma ran out of tokens/]);
  // Stop reasons, tool calls (by kind), permission requests.
  for (const [i, stop] of ['end_turn', 'end_turn', 'max_tokens'].entries()) await expect(figure(page, 'stopReason', i)).toHaveAttribute('data-value', stop);
  await expect(figure(page, 'toolCalls', 0)).toHaveAttribute('data-value', '2');
  await expect(figure(page, 'toolCalls', 0).getByTestId('figure-tool-kinds')).toContainText('edit 1, read 1');
  await expect(figure(page, 'toolCalls', 1)).toHaveAttribute('data-value', '1');
  await expect(figure(page, 'toolCalls', 2)).toHaveAttribute('data-value', '2');
  await expect(figure(page, 'toolCalls', 2).getByTestId('figure-tool-kinds')).toContainText('edit 1, execute 1');
  for (const [i, n] of ['1', '0', '0'].entries()) await expect(figure(page, 'permissionRequests', i)).toHaveAttribute('data-value', n);
  for (const [i, n] of ['1', '2', '1'].entries()) await expect(figure(page, 'turns', i)).toHaveAttribute('data-value', n);
  await expect(figure(page, 'usage', 1)).toHaveText('1,234 tokens · 0.02 USD');
  await expect(figure(page, 'usage', 0)).toHaveText('not reported');
  expect(Number(await figure(page, 'permissionWaitMs', 0).getAttribute('data-value'))).toBeGreaterThan(0);
  await expect(figure(page, 'permissionWaitMs', 1)).toHaveAttribute('data-value', '0');
  // Working time leaves out alpha's wait for the user: the agents' own pace, compared fairly.
  const alphaMs = async (metric: string) => Number(await figure(page, metric, 0).getAttribute('data-value'));
  expect(await alphaMs('workingMs')).toBe((await alphaMs('durationMs')) - (await alphaMs('permissionWaitMs')));
  await expect(figure(page, 'workingMs', 1)).toHaveAttribute('data-value', String(await figure(page, 'durationMs', 1).getAttribute('data-value')));
  for (const i of [0, 1, 2]) {
    expect(Number(await figure(page, 'firstUpdateMs', i).getAttribute('data-value'))).toBeGreaterThanOrEqual(0);
    expect(Number(await figure(page, 'durationMs', i).getAttribute('data-value'))).toBeGreaterThan(0);
  }
  // Files changed with +/- per agent.
  for (const [i, n] of ['2', '2', '1'].entries()) await expect(figure(page, 'filesChanged', i)).toHaveAttribute('data-value', n);
  for (const [i, lines] of ['+2 −1', '+2 −1', '+3 −0'].entries()) await expect(figure(page, 'lines', i)).toHaveAttribute('data-value', lines);
  const expected: Array<[string, number, string, string, string]> = [
    ['a.txt', 0, 'A', '1', '0'],
    ['shared.txt', 0, 'M', '1', '1'],
    ['b.txt', 1, 'A', '1', '0'],
    ['shared.txt', 1, 'M', '1', '1'],
    ['docs/gamma.md', 2, 'A', '3', '0'],
  ];
  for (const [path, i, status, added, removed] of expected) {
    const cell = fileCell(page, path, i);
    await expect(cell).toHaveAttribute('data-status', status);
    await expect(cell).toHaveAttribute('data-added', added);
    await expect(cell).toHaveAttribute('data-removed', removed);
  }
  await expect(fileCell(page, 'a.txt', 1)).toHaveAttribute('data-status', '');
  await expect(view.getByTestId('file-row')).toHaveCount(4);
  // The file two agents changed differently.
  await expect(view.locator('[data-testid="file-row"][data-divergent="true"]')).toHaveCount(1);
  await expect(view.locator('[data-testid="file-row"][data-divergent="true"]')).toHaveAttribute('data-path', 'shared.txt');
  await expect(view.getByTestId('divergent-summary')).toContainText('shared.txt');
  // Its diffs side by side: alpha's and beta's in Monaco, gamma did not change it.
  const diffs = view.getByTestId('comparison-diffs');
  await expect(diffs).toHaveAttribute('data-path', 'shared.txt');
  await expect(diffs.locator('[data-testid="diff-column"][data-agent-index="0"]')).toContainText('line 2 by alpha');
  await expect(diffs.locator('[data-testid="diff-column"][data-agent-index="1"]')).toContainText('line 2 by beta');
  await expect(diffs.locator('[data-testid="diff-column"][data-agent-index="2"]')).toContainText('Did not change this file');
  await expect(diffs.locator('[data-testid="comparison-diff-view"]').first()).toHaveAttribute('data-state', 'live');
  // Verification: `test -f a.txt` passes only where alpha wrote it.
  for (const [i, code] of ['0', '1', '1'].entries()) await expect(view.locator(`[data-testid="verify-result"][data-agent-index="${i}"]`)).toHaveAttribute('data-exit-code', code);
  // Workspaces listed.
  const workspaces = await view.getByTestId('workspace-path').allTextContents();
  expect(workspaces).toHaveLength(3);
  for (const w of workspaces) expect(existsSync(w.replace(/ \(removed\)$/, ''))).toBe(true);
  await screenshot(page, 'compare-comparison');
  await diffs.scrollIntoViewIfNeeded();
  await screenshot(page, 'compare-comparison-diffs');

  // Export as Markdown and JSON.
  const [md] = await Promise.all([page.waitForEvent('download'), view.getByTestId('export-md').click()]);
  expect(md.suggestedFilename()).toBe(`compare-run-${runId}.md`);
  const mdText = readFileSync((await md.path())!, 'utf8');
  expect(mdText).toContain('## Files changed differently by several agents');
  expect(mdText).toContain('| 2 | gamma | max_tokens |');
  const [json] = await Promise.all([page.waitForEvent('download'), view.getByTestId('export-json').click()]);
  const exported = JSON.parse(readFileSync((await json.path())!, 'utf8')) as { runId: string; agents: Array<{ label: string; permissionRequests: number; patch?: string }> };
  expect(exported.runId).toBe(runId);
  expect(exported.agents.map((a) => [a.label, a.permissionRequests])).toEqual([
    ['alpha', 1],
    ['beta', 0],
    ['gamma', 0],
  ]);
  expect(exported.agents[1]!.patch).toContain('+line 2 by beta');

  // Promote beta: exactly its files reach the repository.
  await view.locator('[data-testid="promote-agent"][data-agent-index="1"]').click();
  await view.getByTestId('confirm-apply').click();
  const result = view.getByTestId('promote-result');
  await expect(result).toHaveAttribute('data-applied', 'true');
  await expect(result.getByTestId('promote-path')).toHaveText(['b.txt', 'shared.txt']);
  expect(git(repo, 'status', '--porcelain').split('\n').map((l) => l.trim()).sort()).toEqual(['?? b.txt', 'M shared.txt']);
  expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('line 1\nline 2 by beta\nline 3\n');
  expect(readFileSync(join(repo, 'b.txt'), 'utf8')).toBe('from beta\n');

  // Promote alpha now: shared.txt conflicts; refused with the path listed, nothing written.
  await view.locator('[data-testid="promote-agent"][data-agent-index="0"]').click();
  await view.getByTestId('confirm-apply').click();
  await expect(result).toHaveAttribute('data-applied', 'false');
  await expect(result.getByTestId('promote-conflict')).toHaveCount(1);
  await expect(result.getByTestId('promote-conflict')).toHaveAttribute('data-path', 'shared.txt');
  expect(existsSync(join(repo, 'a.txt'))).toBe(false);
  expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('line 1\nline 2 by beta\nline 3\n');
  await screenshot(page, 'compare-promote-conflict');

  // Pick files from two agents: alpha's a.txt and gamma's docs/gamma.md.
  await fileCell(page, 'a.txt', 0).getByTestId('file-pick').check();
  await fileCell(page, 'docs/gamma.md', 2).getByTestId('file-pick').check();
  await expect(view.getByTestId('promote-picked')).toHaveText('Promote 2 picked files');
  await view.getByTestId('promote-picked').click();
  await view.getByTestId('confirm-apply').click();
  await expect(result).toHaveAttribute('data-applied', 'true');
  await expect(result.getByTestId('promote-path')).toHaveText(['a.txt', 'docs/gamma.md']);
  expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('from alpha\n');
  expect(readFileSync(join(repo, 'docs', 'gamma.md'), 'utf8')).toBe('# Gamma\n\nwritten by gamma\n');
  expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('line 1\nline 2 by beta\nline 3\n');

  // Discard: the workspaces go (and the agents' sessions); the comparison stays in the runs list.
  await view.getByTestId('comparison-discard').click();
  await view.getByTestId('confirm-apply').click();
  await expect(view).toHaveAttribute('data-status', 'discarded');
  await expect(view.getByTestId('comparison-discarded')).toBeVisible();
  for (const w of workspaces) expect(existsSync(w)).toBe(false);
  expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  await expect(view.locator('[data-testid="workspace-path"][data-exists="false"]')).toHaveCount(3);
  await expect(page.getByTestId('session-pane')).toHaveCount(0);
  await screenshot(page, 'compare-discarded');
  await view.getByTestId('comparison-close').click();
  await expect(view).toBeHidden();
  const item = page.locator(`[data-testid="run-item"][data-run-id="${runId}"]`);
  await expect(item).toHaveAttribute('data-status', 'discarded');
  // Reopened from the runs list, with its figures.
  await item.click();
  await expect(view).toHaveAttribute('data-loaded', 'true');
  await expect(figure(page, 'stopReason', 2)).toHaveAttribute('data-value', 'max_tokens');
  await view.getByTestId('comparison-close').click();
});

test('leftovers of an earlier run are offered for cleanup at start-up; the palette opens a new run', async ({ page }) => {
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill('compare run');
  await page.locator('[data-testid="palette-item"][data-action="compare.new"]').click();
  await expect(page.getByTestId('new-run-dialog')).toBeVisible();
  await expect(page.getByTestId('new-run-agent')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('new-run-dialog')).toBeHidden();

  const repo = tempRepo();
  const writer = (name: string) =>
    agentCommand(name, { defaultPrompt: { steps: [{ writeFile: { path: `${name}.txt`, content: `${name}\n` } }, { text: 'ok' }] } }).replace(/"/g, "'");
  // A run made by the CLI (another process): its workspaces stay on disk, it was neither promoted nor discarded.
  const out = execFileSync(process.execPath, [CLI, 'run', '--isolate', '--json', '--data-dir', host.dataDir, '--cwd', repo, '--approve', 'all', '--prompt', 'go', '--agent-cmd', writer('one'), '--agent-cmd', writer('two')], {
    env: { ...process.env, ACP_WORKBENCH_CONFIG_DIR: join(host.dataDir, 'config') },
    encoding: 'utf8',
  });
  const runId = (out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; runId?: string }).find((e) => e.type === 'run')?.runId)!;
  expect(runId).toBeTruthy();
  const workspaces = join(host.dataDir, 'workspaces', runId);
  expect(existsSync(workspaces)).toBe(true);

  await page.reload();
  const banner = page.getByTestId('leftovers-banner');
  await expect(banner).toBeVisible();
  await expect(banner.locator(`[data-testid="leftover-item"][data-run-id="${runId}"]`)).toBeVisible();
  await screenshot(page, 'compare-leftovers');
  // Keep: the banner goes, the workspaces stay.
  await banner.getByTestId('leftovers-keep').click();
  await expect(banner).toBeHidden();
  expect(existsSync(workspaces)).toBe(true);
  // Offered again on the next start; Discard all removes them.
  await page.reload();
  await expect(banner).toBeVisible();
  await banner.getByTestId('leftovers-discard-all').click();
  await expect(banner).toBeHidden();
  expect(existsSync(workspaces)).toBe(false);
  await expect(page.locator(`[data-testid="run-item"][data-run-id="${runId}"]`)).toHaveAttribute('data-status', 'discarded');
});

test('a leftover run is reopened: its agents resumed in their workspaces as panes, a follow-up lands in the comparison', async ({ page }) => {
  const repo = tempRepo();
  const writer = (name: string) =>
    agentCommand(name, {
      prompts: [{ match: { text: 'more' }, steps: [{ writeFile: { path: `${name}-more.txt`, content: 'more\n' } }, { text: 'more written' }] }],
      defaultPrompt: { steps: [{ writeFile: { path: `${name}.txt`, content: `${name}\n` } }, { text: 'ok' }] },
    }).replace(/"/g, "'");
  const out = execFileSync(process.execPath, [CLI, 'run', '--isolate', '--json', '--data-dir', host.dataDir, '--cwd', repo, '--approve', 'all', '--prompt', 'go', '--agent-cmd', writer('uno'), '--agent-cmd', writer('dos')], {
    env: { ...process.env, ACP_WORKBENCH_CONFIG_DIR: join(host.dataDir, 'config') },
    encoding: 'utf8',
  });
  const runId = (out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; runId?: string }).find((e) => e.type === 'run')?.runId)!;

  await page.reload();
  const banner = page.getByTestId('leftovers-banner');
  const item = banner.locator(`[data-testid="leftover-item"][data-run-id="${runId}"]`);
  await item.getByTestId('leftover-reopen').click();
  await expect(item).toBeHidden();
  const panes = page.getByTestId('session-pane');
  await expect(panes).toHaveCount(2);
  await expect(panes.nth(0)).toHaveAttribute('data-status', 'ready');
  await expect(panes.nth(1)).toHaveAttribute('data-status', 'ready');

  // A prompt typed in the first pane is that agent's follow-up: its new file is in the comparison.
  const firstId = (await panes.nth(0).getAttribute('data-session-id'))!;
  await sendPrompt(page, firstId, 'one more file');
  await expect(pane(page, firstId)).toHaveAttribute('data-status', 'ready');
  await page.locator(`[data-testid="run-item"][data-run-id="${runId}"]`).click();
  const view = page.getByTestId('comparison-view');
  await expect(view).toHaveAttribute('data-loaded', 'true');
  await expect(view).toContainText(/(uno|dos)-more\.txt/);
  const text = (await view.textContent()) ?? '';
  expect(['uno-more.txt', 'dos-more.txt'].filter((f) => text.includes(f))).toHaveLength(1); // only the agent prompted
});

test('a new compare run starts in the focused session’s project folder when no run was started before', async ({ page }) => {
  const project = mkdtempSync(join(tmpdir(), 'acpwb-compare-cwd-'));
  temps.push(project);
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: project });
  await pane(page, s.sessionId).click();
  await page.getByTestId('new-compare-run').click();
  const dialog = page.getByTestId('new-run-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('new-run-cwd')).toHaveValue(project);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a comparison shows a deleted file as its old text with every line removed, a created one as its new text with every line added', async ({ page }) => {
  test.setTimeout(60_000);
  const repo = tempRepo();
  const deleter = { defaultPrompt: { steps: [{ terminal: { command: 'sh', args: ['-c', 'rm README.md'] }, toolCall: { toolCallId: 't1', title: 'Remove README.md' } }, { text: 'removed it' }] } };
  const creator = { defaultPrompt: { steps: [{ writeFile: { path: 'notes.md', content: '# Notes\nfirst\n' } }, { text: 'wrote it' }] } };
  await page.getByTestId('new-compare-run').click();
  const dialog = page.getByTestId('new-run-dialog');
  const rows = dialog.getByTestId('new-run-agent');
  for (const [i, [label, scenario]] of ([['deleter', deleter], ['creator', creator]] as const).entries()) {
    const row = rows.nth(i);
    await row.getByTestId('new-run-agent-select').selectOption('__command__');
    await row.getByTestId('new-run-agent-command').fill(agentCommand(label, scenario));
    await row.getByTestId('new-run-agent-label').fill(label);
  }
  await dialog.getByTestId('new-run-cwd').fill(repo);
  await dialog.getByTestId('new-run-prompt').fill('Tidy up');
  await dialog.getByTestId('new-run-start').click();
  const strip = page.getByTestId('run-strip');
  await expect(strip).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await strip.getByTestId('run-open-comparison').click();
  const view = page.getByTestId('comparison-view');
  await expect(fileCell(page, 'README.md', 0)).toHaveAttribute('data-status', 'D');
  await expect(fileCell(page, 'notes.md', 1)).toHaveAttribute('data-status', 'A');
  const diffs = view.getByTestId('comparison-diffs');
  const column = (i: number) => diffs.locator(`[data-testid="diff-column"][data-agent-index="${i}"]`);

  await view.locator('[data-testid="file-row"][data-path="README.md"]').getByTestId('file-show-diff').click();
  await expect(diffs).toHaveAttribute('data-path', 'README.md');
  await diffs.scrollIntoViewIfNeeded();
  const removed = column(0).getByTestId('comparison-diff-view');
  await expect(removed).toHaveAttribute('data-state', 'live');
  await expect(removed).toHaveAttribute('data-whole-file', 'removed');
  await expect(removed.locator('.line-delete')).toHaveCount(1);
  await expect(removed.locator('.line-insert, .char-insert, .monaco-diff-editor')).toHaveCount(0);
  await expect(removed).toContainText('# Project');
  await expect(column(1)).toContainText('Did not change this file');

  await view.locator('[data-testid="file-row"][data-path="notes.md"]').getByTestId('file-show-diff').click();
  await expect(diffs).toHaveAttribute('data-path', 'notes.md');
  const added = column(1).getByTestId('comparison-diff-view');
  await expect(added).toHaveAttribute('data-state', 'live');
  await expect(added).toHaveAttribute('data-whole-file', 'added');
  await expect(added.locator('.line-insert')).toHaveCount(2);
  await expect(added.locator('.line-delete, .char-delete, .monaco-diff-editor')).toHaveCount(0);
  await screenshot(page, 'compare-created-file');
});

test('a run whose agent never answers can be stopped while it is created: its sessions close and its workspaces go', async ({ page }) => {
  test.setTimeout(60_000);
  const repo = tempRepo();
  // Says nothing, ever: without Cancel the dialog would wait out the 60 s start-up timeout.
  const silent = `"${process.execPath}" -e "process.stdin.resume(); setInterval(() => {}, 1e6)"`;
  // The spec's web host is shared: earlier tests' runs and sessions are listed too.
  const runItems = page.getByTestId('run-item');
  const sessions = page.getByTestId('session-item');
  const runsBefore = await runItems.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')));
  const sessionsBefore = await sessions.count();
  await page.getByTestId('new-compare-run').click();
  const dialog = page.getByTestId('new-run-dialog');
  const rows = dialog.getByTestId('new-run-agent');
  const commands = [agentCommand('quick', { defaultPrompt: { steps: [{ text: 'done' }] } }), silent];
  for (const [i, label] of ['quick', 'silent'].entries()) {
    await rows.nth(i).getByTestId('new-run-agent-select').selectOption('__command__');
    await rows.nth(i).getByTestId('new-run-agent-command').fill(commands[i]!);
    await rows.nth(i).getByTestId('new-run-agent-label').fill(label);
  }
  await dialog.getByTestId('new-run-cwd').fill(repo);
  await dialog.getByTestId('new-run-prompt').fill('Anything');
  await dialog.getByTestId('new-run-start').click();
  await expect(dialog.getByTestId('new-run-progress')).toBeVisible();
  // It says where it is: the workspaces made, one agent ready and the other still starting.
  await expect(dialog.getByTestId('new-run-step')).toHaveText('Starting the agents: 1 of 2 ready…');
  await expect(dialog.getByTestId('new-run-step')).toHaveAttribute('data-step', 'start');
  await expect(dialog.getByTestId('new-run-waited')).toContainText('Cancel stops the run');
  await expect(runItems).toHaveCount(runsBefore.length + 1);
  const runId = (await runItems.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')))).find((id) => !runsBefore.includes(id))!;
  const item = page.locator(`[data-testid="run-item"][data-run-id="${runId}"]`);
  const workspaces = join(host.dataDir, 'workspaces', runId);
  expect(existsSync(workspaces)).toBe(true);
  await dialog.getByTestId('new-run-cancel').click();
  await expect(dialog).toBeHidden();
  await expect(item).toHaveAttribute('data-status', 'discarded', { timeout: 20_000 });
  await expect(sessions).toHaveCount(sessionsBefore);
  expect(existsSync(workspaces)).toBe(false);
  await expect(page.locator(`[data-testid="run-strip"][data-run-id="${runId}"]`)).toHaveCount(0);
});

test('“Run again” opens the new-run dialog filled from a finished run; changed and started, it makes a second run', async ({ page }) => {
  test.setTimeout(90_000);
  const repo = tempRepo();
  const writer = (name: string) => ({ defaultPrompt: { steps: [{ writeFile: { path: `${name}.txt`, content: `${name}\n` } }, { text: `${name} wrote` }] } });
  const commands = [agentCommand('first', writer('first')), agentCommand('second', writer('second'))];
  await page.getByTestId('new-compare-run').click();
  const dialog = page.getByTestId('new-run-dialog');
  const rows = dialog.getByTestId('new-run-agent');
  for (const [i, label] of ['first', 'second'].entries()) {
    await rows.nth(i).getByTestId('new-run-agent-select').selectOption('__command__');
    await rows.nth(i).getByTestId('new-run-agent-command').fill(commands[i]!);
    await rows.nth(i).getByTestId('new-run-agent-label').fill(label);
  }
  await rows.nth(1).getByTestId('new-run-agent-config').fill('effort=low');
  await dialog.getByTestId('new-run-cwd').fill(repo);
  await dialog.getByTestId('new-run-prompt').fill('Write your file');
  await dialog.getByTestId('new-run-policy').selectOption('all');
  await dialog.getByTestId('new-run-verify').fill('ls');
  await dialog.getByTestId('new-run-start').click();
  const strip = page.getByTestId('run-strip');
  await expect(strip).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const firstRun = (await strip.getAttribute('data-run-id'))!;
  await strip.getByTestId('run-open-comparison').click();
  await page.getByTestId('comparison-view').getByTestId('comparison-run-again').click();

  // The comparison gives way to the dialog, filled from the run.
  await expect(page.getByTestId('comparison-view')).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toHaveText('Run again');
  await expect(rows).toHaveCount(2);
  for (const [i, label] of ['first', 'second'].entries()) {
    await expect(rows.nth(i).getByTestId('new-run-agent-select')).toHaveValue('__command__');
    await expect(rows.nth(i).getByTestId('new-run-agent-label')).toHaveValue(label);
  }
  // The command line gives the same words back (quoted only where a word needs it).
  await expect(rows.nth(0).getByTestId('new-run-agent-command')).toHaveValue(commands[0]!.replace(/"/g, ''));
  await expect(rows.nth(1).getByTestId('new-run-agent-config')).toHaveValue('effort=low');
  await expect(dialog.getByTestId('new-run-cwd')).toHaveValue(repo);
  await expect(dialog.getByTestId('new-run-prompt')).toHaveValue('Write your file');
  await expect(dialog.getByTestId('new-run-policy')).toHaveValue('all');
  await expect(dialog.getByTestId('new-run-verify')).toHaveValue('ls');
  await expect(dialog.getByTestId('new-run-notes')).toHaveCount(0);
  await screenshot(page, 'compare-run-again');

  await dialog.getByTestId('new-run-prompt').fill('Write your file again');
  await dialog.getByTestId('new-run-start').click();
  await expect(dialog).toBeHidden();
  await expect(strip).not.toHaveAttribute('data-run-id', firstRun);
  await expect(strip).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const second = page.locator(`[data-testid="run-item"][data-run-id="${await strip.getAttribute('data-run-id')}"]`);
  await expect(second).toContainText('first · second');
  await expect(second).toContainText('Write your file again');
  await expect(page.locator(`[data-testid="run-item"][data-run-id="${firstRun}"]`)).toContainText('Write your file');
  // From the palette too: the current run (the second), filled with its changed prompt.
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill('run the current compare run again');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('heading')).toHaveText('Run again');
  await expect(dialog.getByTestId('new-run-prompt')).toHaveValue('Write your file again');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('“Compare across agents” from a session: a new run in its folder with its last prompt and its agent first', async ({ page }) => {
  test.setTimeout(90_000);
  const repo = tempRepo();
  const s = await startFixtureSession(page, { scenario: 'basic-text', cwd: repo });
  await sendPrompt(page, s.sessionId, 'first question');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await sendPrompt(page, s.sessionId, 'Summarise the README');
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-input').fill('compare across agents');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('new-run-dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Compare across agents');
  await expect(dialog.getByTestId('new-run-cwd')).toHaveValue(repo);
  await expect(dialog.getByTestId('new-run-prompt')).toHaveValue('Summarise the README');
  const rows = dialog.getByTestId('new-run-agent');
  // The session's agent (started from a command line) first; the second is for the user to choose.
  await expect(rows.nth(0).getByTestId('new-run-agent-select')).toHaveValue('__command__');
  await expect(rows.nth(0).getByTestId('new-run-agent-command')).toHaveValue(new RegExp(`fixture-agent\\.cjs --scenario basic-text`));
  await rows.nth(1).getByTestId('new-run-agent-select').selectOption('__command__');
  await rows.nth(1).getByTestId('new-run-agent-command').fill(agentCommand('other', { defaultPrompt: { steps: [{ text: 'the other agent answers' }] } }));
  await dialog.getByTestId('new-run-start').click();
  const strip = page.getByTestId('run-strip');
  await expect(strip).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const run = page.locator(`[data-testid="run-item"][data-run-id="${await strip.getAttribute('data-run-id')}"]`);
  await expect(run).toContainText('Summarise the README');
});
