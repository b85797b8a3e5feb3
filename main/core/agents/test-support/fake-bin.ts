import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp folder per test (realpath'd, so paths compare equal on macOS too). */
export function makeTempDir(prefix = 'acpwb-agents-'): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Write an executable shell script. */
export function writeScript(file: string, body: string): string {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A fake agent binary that prints a version for `--version`. */
export function writeFakeAgent(binDir: string, name: string, version: string): string {
  return writeScript(join(binDir, name), `if [ "$1" = "--version" ]; then echo "${name} v${version}"; exit 0; fi\nexec cat`);
}

/**
 * A fake login shell: called as `SHELL -l -i -c SCRIPT`, it prints junk (as rc files do), puts
 * `binDir` first on PATH and runs SCRIPT with /bin/sh — so what it finds, only it can find.
 */
export function writeFakeLoginShell(file: string, binDir: string, options: { sleepSeconds?: number; junk?: boolean } = {}): string {
  return writeScript(
    file,
    [
      options.junk === false ? '' : 'echo "Welcome to the fake shell! last login: never"',
      options.sleepSeconds ? `sleep ${options.sleepSeconds}` : '',
      `PATH="${binDir}:$PATH"; export PATH`,
      'FAKE_LOGIN_SHELL=1; export FAKE_LOGIN_SHELL',
      'for last; do :; done',
      '/bin/sh -c "$last"',
      'echo "bye from the fake shell"',
    ].join('\n'),
  );
}
