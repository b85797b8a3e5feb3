// One temporary folder per test run. Tests (and the agents, hosts and browsers they start) make their
// temporary folders with `mkdtemp(join(tmpdir(), …))`; a test that fails, times out or is killed does
// not remove its own, and a full run makes ~3,000 of them. The test runners' global set-up points
// TMPDIR at a fresh folder before any worker starts (workers and their subprocesses inherit it, and
// `os.tmpdir()` reads it on every call), and the teardown removes that folder with everything in it.
// ACPWB_KEEP_TEST_TMP=1 keeps it (its path is printed) to look at what a failing test left.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Makes a fresh folder under the current temporary folder, sets TMPDIR (and TMP/TEMP) to it, and
 * returns the teardown that removes it and restores the previous values.
 * @param {string} label  part of the folder's name (which runner made it)
 * @returns {{ root: string, teardown: () => void }}
 */
export function useTestTempRoot(label) {
  const previous = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  const root = mkdtempSync(join(tmpdir(), `acpwb-${label}-run-`));
  process.env.TMPDIR = process.env.TMP = process.env.TEMP = root;
  const teardown = () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (process.env.ACPWB_KEEP_TEST_TMP === '1') {
      console.log(`test temporary files kept in ${root}`);
      return;
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  };
  return { root, teardown };
}
