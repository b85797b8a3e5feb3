import { execFileSync } from 'node:child_process';
import { useTestTempRoot } from './test-temp-root.mjs';

/**
 * Unit tests spawn the built CLI and the built fixture agent as real subprocesses, so build the
 * node-side bundles (not the renderer) once before the run. Set WORKBENCH_SKIP_BUILD=1 when
 * `npm run build` has just run. Every temporary folder of the run goes under one folder that the
 * teardown removes (scripts/test-temp-root.mjs).
 */
export default function setup(): () => void {
  if (process.env.WORKBENCH_SKIP_BUILD !== '1') {
    execFileSync(process.execPath, ['scripts/build.mjs', '--no-renderer'], { stdio: 'inherit' });
  }
  return useTestTempRoot('unit').teardown;
}
