/**
 * Secrets never leave (issue #12, item 7): a marker value planted in the secret store and another
 * in a secret-looking environment variable (MY_API_TOKEN) reach the agent — it writes what it got
 * to a file — but appear in no trace, no other file of the data folder, no output of
 * `acp-workbench run` and no history export; through the CLI and through the SessionManager.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_AGENT } from '../core/acp/test-support/fixture-world';
import { orphansAfter } from '../core/acp/test-support/process-listing';
import { HistoryStore } from '../core/history/history-store';
import { EXPORT_FORMATS } from '../core/history/export-import';
import { SessionManager } from '../core/sessions/session-manager';
import { runBuiltCli } from './test-support/run-cli';
import { SecretStore } from '../core/agents/secrets';
import { addCustomAgent } from '../core/agents/settings';

const ENV_REPORTER = resolve(__dirname, '..', '..', 'e2e', 'fixtures', 'hostile', 'env-reporter.cjs');
const STORED = `stored-${randomBytes(8).toString('hex')}`;
const ENV_TOKEN = `envtok-${randomBytes(8).toString('hex')}`;
/** A secret-store value under a name that does not look secret: the store, not the name, makes it one. */
const STORED_PLAIN_NAME = `plain-${randomBytes(8).toString('hex')}`;

const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-secrets-')));
const configDir = join(base, 'config');
const cwd = join(base, 'project');
const report = join(base, 'agent-env.jsonl');
let agentId = '';

beforeAll(async () => {
  mkdirSync(cwd);
  const agent = await addCustomAgent(configDir, {
    name: 'Leaky',
    command: process.execPath,
    args: [ENV_REPORTER, report, 'LEAKY_SECRET,LEAKY_REGION,MY_API_TOKEN', FIXTURE_AGENT, '--scenario', 'basic-text', '--max-lifetime-ms', '60000'],
  });
  agentId = agent.id;
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Every file under `dir` (recursively) whose bytes contain the marker, except the secret store itself. */
function filesContaining(dir: string, marker: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name !== 'secrets.json' && readFileSync(p).includes(marker)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}

async function exportsContaining(dataDir: string, markers: string[]): Promise<string[]> {
  const history = await HistoryStore.open(dataDir);
  const entries = history.list();
  expect(entries.length).toBeGreaterThan(0);
  const hits: string[] = [];
  for (const e of entries) {
    for (const format of EXPORT_FORMATS) {
      const { text } = await history.export(e.id, format);
      for (const m of markers) if (text.includes(m)) hits.push(`${e.id}.${format}: ${m}`);
    }
  }
  return hits;
}

function receivedByAgent(): Array<Record<string, string | null>> {
  return readFileSync(report, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { env: Record<string, string | null> }).env);
}

describe('secrets reach the agent and nothing else', () => {
  it('through acp-workbench run', async () => {
    const dataDir = join(base, 'data-cli');
    const store = await SecretStore.open(dataDir);
    await store.set(agentId, 'LEAKY_SECRET', STORED);
    await store.set(agentId, 'LEAKY_REGION', STORED_PLAIN_NAME);
    const r = await runBuiltCli(['run', '--agent', agentId, '--cwd', cwd, '--data-dir', dataDir, '--config-dir', configDir, '--prompt', 'hello', '--json'], {
      env: { MY_API_TOKEN: ENV_TOKEN, ACP_WORKBENCH_LOGIN_SHELL: '0' },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(receivedByAgent().at(-1)).toEqual({ LEAKY_SECRET: STORED, LEAKY_REGION: STORED_PLAIN_NAME, MY_API_TOKEN: ENV_TOKEN });
    for (const m of [STORED, STORED_PLAIN_NAME, ENV_TOKEN]) {
      expect(r.stdout).not.toContain(m);
      expect(r.stderr).not.toContain(m);
      expect(filesContaining(dataDir, m)).toEqual([]);
    }
    expect(readdirSync(join(dataDir, 'traces')).length).toBeGreaterThan(0);
    expect(await exportsContaining(dataDir, [STORED, STORED_PLAIN_NAME, ENV_TOKEN])).toEqual([]);
    expect(await orphansAfter(report)).toEqual([]);
  });

  it('through acp-workbench sessions resume, with a secret stored after the session ran', async () => {
    const dataDir = join(base, 'data-resume');
    const store = await SecretStore.open(dataDir);
    await store.set(agentId, 'LEAKY_SECRET', STORED);
    const env = { MY_API_TOKEN: ENV_TOKEN, ACP_WORKBENCH_LOGIN_SHELL: '0' };
    const first = await runBuiltCli(['run', '--agent', agentId, '--cwd', cwd, '--data-dir', dataDir, '--config-dir', configDir, '--prompt', 'hello', '--json'], { env, timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    const parent = (first.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; id?: string }).find((e) => e.type === 'session'))!.id!;
    // Stored since: the continued session gets it (recorded-launch.ts) and its header must not show it.
    await store.set(agentId, 'LEAKY_REGION', STORED_PLAIN_NAME);
    const resumed = await runBuiltCli(['sessions', 'resume', parent, '--data-dir', dataDir, '--config-dir', configDir, '--prompt', 'again', '--approve', 'none', '--json'], { env, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(receivedByAgent().at(-1)).toEqual({ LEAKY_SECRET: STORED, LEAKY_REGION: STORED_PLAIN_NAME, MY_API_TOKEN: ENV_TOKEN });
    const summary = resumed.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; trace?: string }).find((e) => e.type === 'summary')!;
    const header = JSON.parse(readFileSync(summary.trace!, 'utf8').split('\n')[0]!) as { launch: { env: Array<{ name: string; value?: string; redacted?: boolean }> } };
    expect(header.launch.env.filter((v) => ['LEAKY_SECRET', 'LEAKY_REGION', 'MY_API_TOKEN'].includes(v.name))).toEqual([
      { name: 'LEAKY_REGION', redacted: true },
      { name: 'LEAKY_SECRET', redacted: true },
      { name: 'MY_API_TOKEN', redacted: true },
    ]);
    for (const m of [STORED, STORED_PLAIN_NAME, ENV_TOKEN]) {
      expect(resumed.stdout).not.toContain(m);
      expect(filesContaining(dataDir, m)).toEqual([]);
    }
    expect(await orphansAfter(report)).toEqual([]);
  });

  it('through the SessionManager (app and web host)', async () => {
    const dataDir = join(base, 'data-app');
    const store = await SecretStore.open(dataDir);
    await store.set(agentId, 'LEAKY_SECRET', STORED);
    await store.set(agentId, 'LEAKY_REGION', STORED_PLAIN_NAME);
    const events: string[] = [];
    const manager = new SessionManager({
      paths: { dataDir, configDir },
      host: 'secrets-test',
      emit: (name, payload) => events.push(`${name} ${JSON.stringify(payload)}`),
      env: { ...process.env, MY_API_TOKEN: ENV_TOKEN, ACP_WORKBENCH_LOGIN_SHELL: '0' },
    });
    try {
      const s = await manager.start({ agent: { agentId }, cwd, policy: 'none' });
      expect((await manager.prompt(s.sessionId, [{ type: 'text', text: 'hello' }])).stopReason).toBe('end_turn');
      expect(JSON.stringify(manager.snapshot(s.sessionId))).not.toContain(STORED);
    } finally {
      await manager.dispose();
    }
    expect(receivedByAgent().at(-1)).toEqual({ LEAKY_SECRET: STORED, LEAKY_REGION: STORED_PLAIN_NAME, MY_API_TOKEN: ENV_TOKEN });
    for (const m of [STORED, STORED_PLAIN_NAME, ENV_TOKEN]) {
      expect(events.filter((e) => e.includes(m))).toEqual([]);
      expect(filesContaining(dataDir, m)).toEqual([]);
    }
    expect(await exportsContaining(dataDir, [STORED, STORED_PLAIN_NAME, ENV_TOKEN])).toEqual([]);
    expect(await orphansAfter(report)).toEqual([]);
  });
});
