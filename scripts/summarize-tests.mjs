// Sums the JSON reports of every test runner (vitest, Playwright, the real-agent suite) into the one line CI reads:
//   "N passed, N failed, N skipped"
// A failed step that produced no test results (build, boundaries, type-check) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const exitStatus = Number(process.argv[2] ?? 0);
const totals = { passed: 0, failed: 0, skipped: 0 };
// Named before the summary line so that the tail of a CI log says which tests failed and why.
const failures = [];
const flaky = [];
const firstLine = (text) => String(text ?? '').split('\n').find((line) => line.trim()) ?? '';

function read(file) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.log(`summary: ${file} is not valid JSON`);
    totals.failed += 1;
    return null;
  }
}

const vitest = read('test-results/vitest.json');
if (vitest) {
  totals.passed += vitest.numPassedTests ?? 0;
  totals.failed += vitest.numFailedTests ?? 0;
  totals.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  // A test file that failed to load has no tests but is a failure.
  for (const file of vitest.testResults ?? []) {
    const where = String(file.name ?? '').replace(process.cwd() + '/', '');
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
      totals.failed += 1;
      failures.push(`vitest ${where}: ${firstLine(file.message) || 'the file failed to load'}`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`vitest ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
}
const playwright = read('test-results/playwright.json');
if (playwright?.stats) {
  totals.passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
  totals.failed += playwright.stats.unexpected ?? 0;
  totals.skipped += playwright.stats.skipped ?? 0;
  const walk = (suite, titles) => {
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const name = `playwright [${test.projectName}] ${[...titles, spec.title].filter(Boolean).join(' › ')}`;
        if (test.status === 'flaky') {
          flaky.push(`${name}: passed on retry ${test.results?.length - 1}; first failure: ${firstLine(test.results?.find((r) => r.error)?.error?.message)}`);
          continue;
        }
        failures.push(`${name}: ${firstLine(test.results?.at(-1)?.error?.message)}`);
      }
    }
  };
  for (const suite of playwright.suites ?? []) walk(suite, [suite.title]);
  for (const error of playwright.errors ?? []) {
    console.log(`summary: playwright error outside a test: ${error.message?.split('\n')[0] ?? 'unknown'}`);
    totals.failed += 1;
  }
}
// The real-agent suite (`npm run test:agents`, run by .ci/run after `npm test`): one count per agent and case.
const realAgents = read('test-results/real-agents/summary.json');
if (realAgents) {
  totals.passed += realAgents.passed ?? 0;
  totals.failed += realAgents.failed ?? 0;
  totals.skipped += realAgents.skipped ?? 0;
}
if (exitStatus !== 0 && totals.failed === 0) {
  console.log(`summary: the test command exited ${exitStatus} before any test failed (build, boundaries or type-check)`);
  totals.failed += 1;
}
for (const line of flaky) console.log(`FLAKY ${line.replace(/\x1b\[[0-9;]*m/g, '').slice(0, 400)}`);
for (const failure of failures) console.log(`FAILED ${failure.replace(/\x1b\[[0-9;]*m/g, '').slice(0, 400)}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
