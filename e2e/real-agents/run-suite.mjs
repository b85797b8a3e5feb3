// `npm run test:agents`: bundles the acp-workbench CLI (same entry and esbuild options as
// scripts/build.mjs, into a private folder so a concurrent `npm run build` cannot pull it away
// mid-run) and the suite (e2e/real-agents/suite.ts), then runs the suite with the given flags:
//   node e2e/real-agents/run-suite.mjs [--agents codex,gemini] [--cases full,reject] [--out DIR]
// `--cli PATH` runs an already-built CLI instead (e.g. dist/cli/acp-workbench.cjs).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  define: { __WORKBENCH_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  absWorkingDir: root,
};

const args = process.argv.slice(2);
const buildDir = mkdtempSync(join(tmpdir(), 'acp-real-suite-build-'));
let status = 1;
try {
  const started = Date.now();
  const builds = [build({ ...common, entryPoints: ['e2e/real-agents/suite.ts'], outfile: join(buildDir, 'suite.cjs') })];
  if (!args.includes('--cli')) {
    builds.push(build({ ...common, entryPoints: ['main/cli/main.ts'], outfile: join(buildDir, 'acp-workbench.cjs'), sourcemap: 'linked' }));
    args.push('--cli', join(buildDir, 'acp-workbench.cjs'));
  }
  await Promise.all(builds);
  console.log(`real-agent suite: bundled in ${Date.now() - started} ms`);
  const r = spawnSync(process.execPath, ['--enable-source-maps', join(buildDir, 'suite.cjs'), ...args], { cwd: root, stdio: 'inherit' });
  status = r.status ?? 1;
} finally {
  rmSync(buildDir, { recursive: true, force: true });
}
process.exit(status);
