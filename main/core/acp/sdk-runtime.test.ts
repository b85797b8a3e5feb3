import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { build, type Plugin } from 'esbuild';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadSdk, loadSdkLater, requestError, sdk } from './sdk-runtime';

describe('sdk-runtime', () => {
  it('refuses the SDK before it is loaded; loadSdkLater loads it after its delay', async () => {
    loadSdkLater(20);
    expect(() => sdk()).toThrow(/not loaded yet/);
    await vi.waitFor(() => sdk(), { timeout: 10_000 });
  });

  it('gives the SDK’s own RequestError', async () => {
    await loadSdk();
    const error = requestError(-32002, 'missing', { path: 'a' });
    expect(error).toBeInstanceOf(RequestError);
    expect(error.toResult()).toEqual({ error: { code: -32002, message: 'missing', data: { path: 'a' } } });
    expect(sdk().RequestError).toBe(RequestError);
  });
});

/** Each module of the SDK counts its evaluation (a statement first in its body). */
const countSdkEvaluation: Plugin = {
  name: 'count-sdk-evaluation',
  setup(b) {
    b.onLoad({ filter: /[\\/]@agentclientprotocol[\\/]sdk[\\/]dist[\\/].*\.js$/ }, (args) => ({
      contents: `globalThis.__acpSdkEvaluated = (globalThis.__acpSdkEvaluated ?? 0) + 1;\n${readFileSync(args.path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

describe('the core’s start (start-up, issue #11)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-sdk-runtime-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads and answers a window’s first requests without evaluating the ACP SDK; a connection’s loadSdk() evaluates it', async () => {
    // As scripts/build.mjs bundles the CLI: CommonJS, where a module is evaluated at its first static import.
    const child = join(dir, 'core-start-child.cjs');
    await build({
      entryPoints: [join(__dirname, 'test-support', 'core-start-child.ts')],
      outfile: child,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['@lydell/node-pty'],
      define: { __WORKBENCH_VERSION__: '"0.0.0-test"' },
      plugins: [countSdkEvaluation],
      logLevel: 'warning',
    });
    const out = JSON.parse(execFileSync(process.execPath, [child, dir], { encoding: 'utf8' })) as { loaded: number; answered: number; connected: number; failed: string[] };
    expect(out.failed).toEqual([]);
    expect(out).toMatchObject({ loaded: 0, answered: 0 });
    expect(out.connected).toBeGreaterThan(0);
  });
});
