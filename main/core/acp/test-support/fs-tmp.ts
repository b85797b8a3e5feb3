import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A fresh temp folder per test with a `root` (the session cwd) and an `outside` sibling, both
 * realpath'd so assertions compare real paths (macOS /var -> /private/var, for one).
 */
export interface TmpLayout {
  base: string;
  root: string;
  outside: string;
  cleanup(): void;
}

export function makeTmpLayout(prefix = 'acpwb-fs-'): TmpLayout {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { base, root, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
