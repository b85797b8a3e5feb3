// Bundles the TypeScript benchmark workers (which drive the real core in-process) into dist/bench/,
// once per `npm run bench`, with the same settings as scripts/build.mjs.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir } from './worker-common.mjs';

const root = join(benchDir, '..');
let built;

/** Path of the bundled worker `bench/lib/<name>.ts`. */
export async function workerPath(name) {
  built ??= (async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    await build({
      entryPoints: ['bench/lib/core-worker.ts'],
      outdir: 'dist/bench',
      outExtension: { '.js': '.cjs' },
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: 'linked',
      define: { __WORKBENCH_VERSION__: JSON.stringify(pkg.version) },
      logLevel: 'error', // worker-common.mjs reads import.meta only when it is ESM (see there)
      absWorkingDir: root,
    });
  })();
  await built;
  return join(root, 'dist', 'bench', `${name}.cjs`);
}
