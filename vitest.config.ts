import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __WORKBENCH_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['{main,common,renderer,preload,scripts,e2e/fixtures,e2e/real-agents/model-server,bench}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for real subprocesses and the file system: vitest's 1 s default fails on a
    // loaded CI host. A poll that passes returns at once; the longer bound only delays a failure.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    pool: 'forks',
    globalSetup: ['scripts/vitest-global-setup.ts'],
  },
});
