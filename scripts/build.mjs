// Builds every runtime of the app into dist/:
//   dist/main/electron-main.cjs   Electron main process (esbuild, CommonJS, 'electron' and native modules external)
//   dist/preload/preload.cjs      sandboxed preload (esbuild, CommonJS)
//   dist/cli/acp-workbench.cjs    the CLI's executable: runs workbench-cli.cjs through V8's code cache
//   dist/cli/workbench-cli.cjs    the CLI, which also hosts the web host (esbuild, CommonJS)
//   dist/workers/history-fold.cjs worker thread of the history index (parallel rebuilds)
//   dist/fixtures/fixture-agent.cjs  the scripted ACP agent used by tests (and the demo agent)
//   dist/renderer/                the React UI (Vite)
// `--no-renderer` skips Vite (for quick core-only rebuilds, e.g. before unit tests).
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { readFileSync, chmodSync, cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const define = { __WORKBENCH_VERSION__: JSON.stringify(pkg.version) };
const withRenderer = !process.argv.includes('--no-renderer');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  define,
  logLevel: 'warning',
  absWorkingDir: root,
};

// Native modules stay out of the bundles: loaded at run time from node_modules (in the packaged app,
// from app.asar.unpacked — package.json build.asarUnpack). docs/decisions.md: "node-pty".
const nativeExternals = ['@lydell/node-pty'];

const started = Date.now();
// Outputs are overwritten in place, not deleted first: tests running in parallel keep a CLI to spawn.

await Promise.all([
  esbuild({ ...common, entryPoints: ['main/electron/main.ts'], outfile: 'dist/main/electron-main.cjs', external: ['electron', ...nativeExternals] }),
  esbuild({ ...common, entryPoints: ['preload/preload.ts'], outfile: 'dist/preload/preload.cjs', external: ['electron'], sourcemap: false }),
  esbuild({ ...common, entryPoints: ['main/cli/main.ts'], outfile: 'dist/cli/workbench-cli.cjs', external: nativeExternals }),
  esbuild({ ...common, entryPoints: ['main/cli/launcher.ts'], outfile: 'dist/cli/acp-workbench.cjs', banner: { js: '#!/usr/bin/env node' } }),
  // Worker threads of the history index (rebuilds fold traces in parallel), beside dist/cli and dist/main.
  esbuild({ ...common, entryPoints: ['main/core/history/fold-worker.ts'], outfile: 'dist/workers/history-fold.cjs' }),
  esbuild({ ...common, entryPoints: ['e2e/fixtures/agent/main.ts'], outfile: 'dist/fixtures/fixture-agent.cjs' }),
  ...(withRenderer ? [viteBuild({ configFile: join(root, 'vite.config.mts'), logLevel: 'warn' })] : []),
]);
chmodSync(join(root, 'dist', 'cli', 'acp-workbench.cjs'), 0o755);
// The fixture agent's scenarios travel with it (the demo agent plays dist/fixtures/scenarios/demo.json).
cpSync(join(root, 'e2e', 'fixtures', 'scenarios'), join(root, 'dist', 'fixtures', 'scenarios'), { recursive: true });
console.log(`built in ${Date.now() - started} ms`);
