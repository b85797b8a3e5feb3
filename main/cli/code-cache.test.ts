import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheName, defaultCacheDir } from './code-cache';
import { FIXTURE_AGENT } from '../core/acp/test-support/fixture-world';
import { BUILT_CLI } from './test-support/run-cli';

const version = (cacheDir: string, env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BUILT_CLI, '--version'], { env: { ...process.env, ACP_WORKBENCH_CACHE_DIR: cacheDir, ACP_WORKBENCH_CODE_CACHE: '', ...env }, encoding: 'utf8' });
const caches = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.v8cache'));

describe('the CLI through V8’s code cache', () => {
  const root = mkdtempSync(join(tmpdir(), 'acpwb-code-cache-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the cache on the first start and starts from it afterwards without rewriting it', () => {
    const dir = join(root, 'fresh');
    const first = version(dir);
    expect(first.status).toBe(0);
    expect(first.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(caches(dir)).toHaveLength(1);
    const file = join(dir, caches(dir)[0]!);
    expect(statSync(file).size).toBeGreaterThan(10_000);
    const before = statSync(file).mtimeMs;
    const second = version(dir);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe('');
    expect(statSync(file).mtimeMs).toBe(before); // accepted by V8: nothing to write
  });

  it('keeps the cache `run` saved: the heap flag `run` sets does not stamp it (V8 would reject it at every start)', () => {
    const dir = join(root, 'run');
    const work = join(root, 'run-work');
    const agent = `"${process.execPath}" "${FIXTURE_AGENT}" --scenario full-turn --max-lifetime-ms 60000`;
    const run = () =>
      spawnSync(process.execPath, [BUILT_CLI, 'run', '--agent-cmd', agent, '--prompt', 'greet', '--json', '--approve', 'none', '--cwd', root, '--data-dir', join(work, 'data')], {
        env: { ...process.env, ACP_WORKBENCH_CACHE_DIR: dir, ACP_WORKBENCH_CODE_CACHE: '', ACP_WORKBENCH_CONFIG_DIR: join(work, 'config') },
        encoding: 'utf8',
      });
    expect(run().stdout).toContain('"type":"summary"');
    expect(caches(dir)).toHaveLength(1);
    const file = join(dir, caches(dir)[0]!);
    const before = statSync(file).mtimeMs;
    expect(run().stdout).toContain('"type":"summary"');
    expect(statSync(file).mtimeMs).toBe(before); // accepted by V8: nothing to write
  });

  it('a corrupt cache file is rejected by V8, the CLI runs as usual and replaces it', () => {
    const dir = join(root, 'corrupt');
    version(dir);
    const file = join(dir, caches(dir)[0]!);
    writeFileSync(file, Buffer.alloc(4096, 0x5a));
    const run = version(dir);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(statSync(file).size).not.toBe(4096);
  });

  it('works without a usable cache folder, and not at all with ACP_WORKBENCH_CODE_CACHE=0', () => {
    const blocked = join(root, 'blocked');
    writeFileSync(blocked, 'a file where the folder should be');
    const run = version(join(blocked, 'cache'));
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const off = join(root, 'off');
    expect(version(off, { ACP_WORKBENCH_CODE_CACHE: '0' }).status).toBe(0);
    expect(() => readdirSync(off)).toThrow();
  });

  it('names one cache per bundle build, Node version and architecture, in the per-user cache folder', () => {
    expect(cacheName('/x/dist/cli/workbench-cli.cjs', 123, 456.7)).toBe(`workbench-cli-${process.version}-${process.arch}-123-456.v8cache`);
    expect(defaultCacheDir({ ACP_WORKBENCH_CACHE_DIR: '/c' })).toBe('/c');
    if (process.platform === 'linux') expect(defaultCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/acp-workbench');
  });
});
