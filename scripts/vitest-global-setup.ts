import { execFileSync } from 'node:child_process';

/**
 * Unit tests spawn the built CLI and the built fixture agent as real subprocesses, so build the
 * node-side bundles (not the renderer) once before the run. Set WORKBENCH_SKIP_BUILD=1 when
 * `npm run build` has just run.
 */
export default function setup(): void {
  if (process.env.WORKBENCH_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--no-renderer'], { stdio: 'inherit' });
}
