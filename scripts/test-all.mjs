// `npm test`: build, import boundaries, type-check, unit tests (vitest), e2e (Playwright).
// Every step runs even when an earlier one failed (except that tests need a build), so one run
// reports every problem; the last line is the CI summary "N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const steps = [
  { name: 'build', args: ['run', 'build'], required: true },
  { name: 'boundaries', args: ['run', 'check:boundaries'] },
  { name: 'type-check', args: ['run', 'typecheck'] },
  { name: 'unit tests', args: ['run', 'test:unit'], env: { WORKBENCH_SKIP_BUILD: '1' } },
  { name: 'e2e tests', args: ['run', 'test:e2e'] },
];

rmSync('test-results', { recursive: true, force: true });
const failed = [];
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const r = spawnSync(npm, step.args, { stdio: 'inherit', env: { ...process.env, ...step.env } });
  if (r.status !== 0) {
    failed.push(step.name);
    if (step.required) break;
  }
}
if (failed.length) console.log(`\nFailed steps: ${failed.join(', ')}`);
const summary = spawnSync(process.execPath, ['scripts/summarize-tests.mjs', String(failed.length ? 1 : 0)], { stdio: 'inherit' });
process.exit(failed.length || summary.status ? 1 : 0);
