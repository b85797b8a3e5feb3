import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { RELAUNCHED_ENV, RELAUNCH_SWITCH_ENV, YOUNG_GENERATION_FLAG, relaunchNodeArgs } from './heap-relaunch';
import { BUILT_CLI } from './test-support/run-cli';

describe('relaunchNodeArgs', () => {
  it('relaunches web with the young-generation flag after the options Node was started with', () => {
    expect(relaunchNodeArgs(['web', '--port', '0'], [], {})).toEqual([YOUNG_GENERATION_FLAG]);
    expect(relaunchNodeArgs(['web'], ['--enable-source-maps', '--heap-growing-percent=50'], {})).toEqual(['--enable-source-maps', '--heap-growing-percent=50', YOUNG_GENERATION_FLAG]);
  });

  it('runs every other command, and no command at all, in the same process', () => {
    for (const argv of [[], ['--version'], ['--help'], ['run', '--agent-cmd', 'x'], ['sessions', 'list'], ['replay', 'web']]) {
      expect(relaunchNodeArgs(argv, [], {})).toBeNull();
    }
  });

  it('never relaunches twice, can be switched off, and keeps a young generation chosen by whoever started it', () => {
    expect(relaunchNodeArgs(['web'], [], { [RELAUNCHED_ENV]: '1' })).toBeNull();
    expect(relaunchNodeArgs(['web'], [], { [RELAUNCH_SWITCH_ENV]: '0' })).toBeNull();
    expect(relaunchNodeArgs(['web'], [], { [RELAUNCH_SWITCH_ENV]: '1' })).toEqual([YOUNG_GENERATION_FLAG]);
    for (const flag of ['--max-semi-space-size=4', '--max_semi_space_size=32', '--max-semi-space-size']) {
      expect(relaunchNodeArgs(['web'], [flag], {})).toBeNull();
      expect(relaunchNodeArgs(['web'], [], { NODE_OPTIONS: `--enable-source-maps ${flag}` })).toBeNull();
    }
    expect(relaunchNodeArgs(['web'], ['--max-old-space-size=512'], { NODE_OPTIONS: '--max-old-space-size=512' })).toEqual(['--max-old-space-size=512', YOUNG_GENERATION_FLAG]);
  });

  it('is the flag the benchmarks start their core-worker with (the core measured as the product runs it)', () => {
    const benchArgs = readFileSync(join(__dirname, '..', '..', 'bench', 'lib', 'core-node-args.mjs'), 'utf8');
    expect(benchArgs).toContain(`CORE_NODE_ARGS = ['${YOUNG_GENERATION_FLAG}']`);
  });
});

/** Pids of the direct children of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
  } catch (err) {
    if ((err as { status?: number }).status !== 1) throw err; // 1: no such process
  }
  return out ? out.split(/\s+/).map(Number) : [];
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(process.platform === 'linux')('acp-workbench web through the launcher', () => {
  const startWeb = (env: NodeJS.ProcessEnv = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-relaunch-'));
    const renderer = join(dir, 'ui');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<title>ok</title>');
    const launcher = spawn(process.execPath, [BUILT_CLI, 'web', '--json', '--data-dir', join(dir, 'data'), '--renderer', renderer], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const listening = new Promise<string>((resolve) => createInterface({ input: launcher.stdout }).once('line', resolve));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => launcher.once('exit', (code, signal) => resolve([code, signal])));
    return { dir, launcher, listening, exited };
  };

  it('serves from a child started with the flag, which stops with the launcher on SIGTERM', async () => {
    const web = startWeb();
    try {
      expect(JSON.parse(await web.listening)).toMatchObject({ type: 'listening' });
      const kids = childrenOf(web.launcher.pid!);
      expect(kids).toHaveLength(1);
      const args = readFileSync(`/proc/${kids[0]}/cmdline`, 'utf8').split('\0');
      expect(args).toContain(YOUNG_GENERATION_FLAG);
      expect(args).toContain('web');
      web.launcher.kill('SIGTERM');
      expect(await web.exited).toEqual([0, null]);
      expect(alive(kids[0]!)).toBe(false);
    } finally {
      web.launcher.kill('SIGKILL');
      rmSync(web.dir, { recursive: true, force: true });
    }
  });

  it('the server stops by itself when the launcher is killed outright', async () => {
    const web = startWeb();
    try {
      await web.listening;
      const [kid] = childrenOf(web.launcher.pid!);
      expect(kid).toBeDefined();
      web.launcher.kill('SIGKILL');
      expect(await web.exited).toEqual([null, 'SIGKILL']);
      const deadline = Date.now() + 15_000;
      while (alive(kid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(alive(kid!)).toBe(false);
    } finally {
      rmSync(web.dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('with ACP_WORKBENCH_HEAP_RELAUNCH=0 serves from the launcher’s own process', async () => {
    const web = startWeb({ [RELAUNCH_SWITCH_ENV]: '0' });
    try {
      await web.listening;
      expect(childrenOf(web.launcher.pid!)).toEqual([]);
      web.launcher.kill('SIGTERM');
      expect(await web.exited).toEqual([0, null]);
    } finally {
      web.launcher.kill('SIGKILL');
      rmSync(web.dir, { recursive: true, force: true });
    }
  });
});
