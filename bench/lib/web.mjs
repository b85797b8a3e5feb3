// Driving the web host in Chromium for the browser benchmarks: start `acp-workbench web`, open it,
// start sessions through the New session dialog (custom command, as a user would), prompt them.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { benchDir } from './worker-common.mjs';

export const CLI = join(benchDir, '..', 'dist', 'cli', 'acp-workbench.cjs');

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.PLAYWRIGHT_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Spawns a process that prints one JSON line with `url` when it listens; resolves { url, child, stop }. */
export async function startListening(command, args, env = process.env) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const first = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening: ${stderr}`)));
  });
  const { url } = JSON.parse(first);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return { url, child, stop };
}

/** The built web host with a throw-away data folder (BENCH_RENDERER=DIR: serve that built renderer). */
export async function startWebHost() {
  const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-bench-web-'));
  const env = { ...process.env, ACP_WORKBENCH_CONFIG_DIR: join(dataDir, 'config') };
  const renderer = process.env.BENCH_RENDERER ? ['--renderer', process.env.BENCH_RENDERER] : [];
  const host = await startListening(process.execPath, [CLI, 'web', '--json', '--data-dir', dataDir, ...renderer], env);
  return {
    ...host,
    dataDir,
    async stop() {
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens the UI and waits until it is interactive (connected, New session enabled). */
export async function openWorkbench(page, url) {
  await page.goto(url);
  await page.locator('[data-testid="status-connection"][data-state="open"]').waitFor();
  await page.getByTestId('new-session').waitFor();
}

/** Starts an agent through the New session dialog; resolves its session id. */
export async function startSession(page, commandLine, cwd) {
  const before = await page.getByTestId('session-pane').count();
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('new-session-dialog');
  await dialog.waitFor();
  await dialog.getByTestId('new-session-agent').selectOption('__command__');
  await dialog.getByTestId('new-session-command').fill(commandLine);
  await dialog.getByTestId('new-session-cwd').fill(cwd);
  await dialog.getByTestId('new-session-policy').selectOption('all');
  await dialog.getByTestId('new-session-start').click();
  await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
  const pane = page.getByTestId('session-pane').nth(before);
  await pane.waitFor();
  return pane.getAttribute('data-session-id');
}

export const paneOf = (page, sessionId) => page.locator(`[data-testid="session-pane"][data-session-id="${sessionId}"]`);

export async function prompt(page, sessionId, text = 'go') {
  const pane = paneOf(page, sessionId);
  await pane.getByTestId('composer-input').fill(text);
  await pane.getByTestId('send-prompt').click();
}

export async function waitReady(page, sessionId, timeout = 120_000) {
  await paneOf(page, sessionId).locator('[data-testid="pane-status"][data-status="ready"]').waitFor({ timeout });
}

/** A command line for the New session dialog that runs the flood agent with these options. */
export function floodCommand(options) {
  return `"${process.execPath}" "${join(benchDir, 'flood-agent.mjs')}" ${options}`;
}

/** In `page`: opens the session from the sidebar, until its transcript shows its turn end, the last entry. */
/**
 * A window with `panes` flood agents that streamed briefly (1 s at 250 updates/s, `extra` flood
 * options added) and are done: what the look and row-cost tools measure. Returns the session ids.
 */
export async function streamedPanes(page, url, extra = '', panes = 4) {
  await openWorkbench(page, url);
  const ids = [];
  for (let i = 0; i < panes; i++) ids.push(await startSession(page, floodCommand(`--rate 250 --seconds 1 --stamp ${extra}`.trim()), tmpdir()));
  for (const id of ids) await prompt(page, id);
  for (const id of ids) await waitReady(page, id);
  return ids;
}

export async function transcriptShown(page, id) {
  const pane = paneOf(page, id);
  if ((await pane.count()) === 0) await page.locator(`[data-testid="session-item"][data-session-id="${id}"]`).click();
  await pane.locator('[data-testid="transcript"]:not([data-count="0"])').waitFor({ timeout: 60_000 });
  await pane.getByTestId('turn-end').last().waitFor({ timeout: 60_000 });
}

/** Until every entry of the transcript is loaded (the end shows first, older entries follow); its entry count. */
export async function transcriptComplete(page, id) {
  const transcript = paneOf(page, id).getByTestId('transcript');
  await paneOf(page, id).locator('[data-testid="transcript"][data-complete="true"]').waitFor({ timeout: 120_000 });
  return Number(await transcript.getAttribute('data-count'));
}
