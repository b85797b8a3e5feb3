import { useTestTempRoot } from '../../scripts/test-temp-root.mjs';

/**
 * Playwright's global set-up: every temporary folder of the run (projects, logs, the web hosts' data
 * folders, the browsers' profiles) goes under one folder that the teardown removes.
 */
export default function globalSetup(): () => void {
  return useTestTempRoot('e2e').teardown;
}
