import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from './history-store';
import { historyPaths } from './history-paths';
import { acquireLock } from './lock';
import { deadAgents, sessionTrace, tempDataDir, testId, writeTrace } from './testing/traces';

const dir = mkdtempSync(join(tmpdir(), 'acpwb-history-child-'));
const child = join(dir, 'history-child.cjs');

beforeAll(async () => {
  await build({ entryPoints: [join(__dirname, 'testing', 'history-child.ts')], outfile: child, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('several processes using history at once', () => {
  it('two processes recording sessions and catching the index up leave a complete index', async () => {
    const { dataDir } = tempDataDir();
    const results = await Promise.all([run(['write', dataDir, 'alpha', '12']), run(['write', dataDir, 'beta', '12'])]);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0, stdout: 'done\n' });

    // What is on disk, as written by the two of them (no catching up here).
    const saved = await HistoryStore.open(dataDir, { refresh: false, alive: deadAgents });
    const titles = saved.list().map((e) => e.title).sort();
    expect(titles).toHaveLength(24);
    for (const p of ['alpha', 'beta']) for (let i = 0; i < 12; i++) expect(titles).toContain(`${p} prompt ${i}`);
    for (const p of ['alpha', 'beta']) expect((await saved.search(`marker${p}7`, { refresh: false })).total).toBe(1);
    const entries = saved.list();
    await saved.close();

    // And the same as reading every trace again.
    const rebuilt = await HistoryStore.open(dataDir, { alive: deadAgents });
    expect(rebuilt.lastRefresh.tracesRead).toBe(0);
    await rebuilt.rebuild();
    expect(rebuilt.list()).toEqual(entries);
    await rebuilt.close();
  });

  it('two processes changing metadata at once lose nothing', async () => {
    const { dataDir, traces } = tempDataDir();
    const id = testId(Date.now(), 'tags');
    writeTrace(traces, 'c', sessionTrace('c', Date.now(), [{ sessionId: id }]));
    const results = await Promise.all([run(['tag', dataDir, id, 'x', '20']), run(['tag', dataDir, id, 'y', '20'])]);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const store = await HistoryStore.open(dataDir, { alive: deadAgents });
    expect(store.get(id)!.tags.sort()).toEqual([...Array.from({ length: 20 }, (_, i) => `x-${i}`), ...Array.from({ length: 20 }, (_, i) => `y-${i}`)].sort());
    await store.close();
  });

  it('takes over a lock left by a process that died', async () => {
    const { dataDir, traces } = tempDataDir();
    writeTrace(traces, 'c', sessionTrace('c', Date.now(), [{ sessionId: testId(Date.now(), 'dead') }]));
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    const paths = historyPaths(dataDir);
    mkdirSync(paths.dir, { recursive: true });
    writeFileSync(paths.lock, JSON.stringify({ pid: dead, host: hostname(), token: 'old', at: new Date().toISOString() }));
    const store = await HistoryStore.open(dataDir, { alive: deadAgents, lock: { waitMs: 5_000 } });
    expect(store.lastRefresh.notPersisted).toBeUndefined();
    expect(store.size).toBe(1);
    await store.close();
  });

  it('answers from a private catch-up when the index stays locked, and saves it once the lock is free', async () => {
    const { dataDir, traces } = tempDataDir();
    const first = testId(Date.now(), 'one');
    writeTrace(traces, 'c1', sessionTrace('c1', Date.now(), [{ sessionId: first, answer: 'first capybara' }]));
    await (await HistoryStore.open(dataDir, { alive: deadAgents })).close();
    const second = testId(Date.now(), 'two');
    writeTrace(traces, 'c2', sessionTrace('c2', Date.now(), [{ sessionId: second, answer: 'second capybara' }]));
    const held = await acquireLock(historyPaths(dataDir).lock);
    const store = await HistoryStore.open(dataDir, { alive: deadAgents, lock: { waitMs: 100 } });
    expect(store.lastRefresh.notPersisted).toMatch(/locked by process/);
    expect(store.size).toBe(2);
    expect((await store.search('capybara', { refresh: false })).total).toBe(2);
    await held.release();
    expect((await store.refresh()).notPersisted).toBeUndefined();
    await store.close();
    const saved = await HistoryStore.open(dataDir, { refresh: false, alive: deadAgents });
    expect(saved.size).toBe(2);
    expect((await saved.search('second', { refresh: false })).total).toBe(1);
    await saved.close();
  });
});
