import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve(__dirname, 'summarize-tests.mjs');
let dir = '';

/** Run the summarizer in a folder holding the given runner reports under test-results/. */
function summarize(reports: Record<string, unknown>, exitStatus = 0): string[] {
  dir = mkdtempSync(join(tmpdir(), 'acpwb-summary-'));
  for (const [file, report] of Object.entries(reports)) {
    mkdirSync(join(dir, 'test-results', file, '..'), { recursive: true });
    writeFileSync(join(dir, 'test-results', file), typeof report === 'string' ? report : JSON.stringify(report));
  }
  return execFileSync(process.execPath, [SCRIPT, String(exitStatus)], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
}
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the CI summary', () => {
  it('sums every runner into the last line and names each failed test with its first error line above it', () => {
    const lines = summarize({
      'vitest.json': {
        numPassedTests: 3,
        numFailedTests: 1,
        numPendingTests: 1,
        testResults: [
          {
            name: join('/nowhere', 'main', 'a.test.ts'),
            status: 'failed',
            assertionResults: [
              { fullName: 'a passes', status: 'passed' },
              { fullName: 'a times out', status: 'failed', failureMessages: ['\nError: Test timed out in 5000ms.\n    at stack'] },
            ],
          },
          { name: 'b.test.ts', status: 'failed', message: 'Cannot find module ./gone', assertionResults: [] },
        ],
      },
      'playwright.json': {
        stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 2 },
        suites: [
          {
            title: 'e2e/x.spec.ts',
            specs: [],
            suites: [
              {
                title: 'group',
                specs: [
                  { title: 'ok', tests: [{ projectName: 'web-chromium', status: 'expected', results: [] }] },
                  {
                    title: 'wobbles',
                    tests: [{ projectName: 'web-chromium', status: 'flaky', results: [{ error: { message: 'Timeout 10000ms exceeded.' } }, {}] }],
                  },
                  {
                    title: 'breaks',
                    tests: [{ projectName: 'web-chromium', status: 'unexpected', results: [{ error: { message: '\u001b[31mexpect(locator).toBeVisible() failed\u001b[39m\nmore' } }] }],
                  },
                ],
              },
            ],
          },
        ],
      },
      'real-agents/summary.json': { passed: 2, failed: 0, skipped: 0 },
    });
    expect(lines.at(-1)).toBe('11 passed, 3 failed, 3 skipped');
    expect(lines.filter((line) => line.startsWith('FLAKY '))).toEqual([
      'FLAKY playwright [web-chromium] e2e/x.spec.ts › group › wobbles: passed on retry 1; first failure: Timeout 10000ms exceeded.',
    ]);
    expect(lines.filter((line) => line.startsWith('FAILED '))).toEqual([
      'FAILED vitest /nowhere/main/a.test.ts › a times out: Error: Test timed out in 5000ms.',
      'FAILED vitest b.test.ts: Cannot find module ./gone',
      'FAILED playwright [web-chromium] e2e/x.spec.ts › group › breaks: expect(locator).toBeVisible() failed',
    ]);
  });

  it('counts a report that is not JSON, and a failed step without test results, as failures', () => {
    const lines = summarize({ 'vitest.json': '{ not json' }, 1);
    expect(lines).toContain('summary: test-results/vitest.json is not valid JSON');
    expect(lines.at(-1)).toBe('0 passed, 1 failed, 0 skipped');
    expect(summarize({}, 1).at(-1)).toBe('0 passed, 1 failed, 0 skipped');
  });
});
