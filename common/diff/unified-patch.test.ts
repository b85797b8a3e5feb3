import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedPatch, type PatchFile } from './unified-patch';

const root = mkdtempSync(join(tmpdir(), 'acpwb-patch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join('');

/** Writes the old texts in a fresh folder, applies the patches with `git apply` there and returns what the files hold after. */
function applied(files: PatchFile[]): Record<string, string | null> {
  const dir = mkdtempSync(join(root, 'case-'));
  for (const f of files) {
    if (f.oldText === null) continue;
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.oldText);
  }
  writeFileSync(join(dir, 'changes.patch'), files.map(unifiedPatch).join(''));
  execFileSync('git', ['apply', '--whitespace=nowarn', 'changes.patch'], { cwd: dir, stdio: 'pipe' });
  return Object.fromEntries(files.map((f) => [f.path, existsSync(join(dir, f.path)) ? readFileSync(join(dir, f.path), 'utf8') : null]));
}

describe('a file change as a patch git apply takes', () => {
  const cases: Array<[string, PatchFile]> = [
    ['a line changed in the middle', { path: 'a.txt', oldText: lines(10), newText: lines(10).replace('line 5\n', 'line five\n') }],
    ['a file created', { path: 'src/new.ts', oldText: null, newText: 'export const x = 1;\n' }],
    ['a file created without a final newline', { path: 'new.txt', oldText: null, newText: 'one\ntwo' }],
    ['a line added after a last line that had no newline', { path: 'b.txt', oldText: 'one\ntwo', newText: 'one\ntwo\nthree\n' }],
    ['only the final newline added', { path: 'c.txt', oldText: 'one\ntwo', newText: 'one\ntwo\n' }],
    ['only the final newline taken away', { path: 'd.txt', oldText: 'one\ntwo\n', newText: 'one\ntwo' }],
    ['two changes far apart (two hunks)', { path: 'e.txt', oldText: lines(100), newText: lines(100).replace('line 3\n', 'line III\n').replace('line 90\n', 'line XC\n') }],
    ['a middle too large to diff line by line (one replaced block)', { path: 'f.txt', oldText: lines(1600), newText: lines(1600, (i) => (i % 2 ? `odd ${i}` : `line ${i}`)) }],
    ['a file emptied', { path: 'g.txt', oldText: 'gone\n', newText: '' }],
    ['lines that look like patch syntax', { path: 'h.txt', oldText: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n', newText: '--- a/y\n+++ b/x\n@@ -1 +1 @@\n\\ No newline\n' }],
  ];
  for (const [name, file] of cases) {
    it(name, () => {
      expect(applied([file])[file.path]).toBe(file.newText);
    });
  }

  it('several files in one patch', () => {
    const files = cases.map(([, f]) => f);
    const after = applied(files);
    for (const f of files) expect(after[f.path]).toBe(f.newText);
  });

  it('writes the headers and hunks git writes', () => {
    expect(unifiedPatch({ path: 'a.txt', oldText: 'one\ntwo\n', newText: 'one\n2\n' })).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n');
    expect(unifiedPatch({ path: 'n.txt', oldText: null, newText: 'x' })).toBe('--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n');
  });

  it('is empty when nothing changed', () => {
    expect(unifiedPatch({ path: 'a.txt', oldText: 'same\n', newText: 'same\n' })).toBe('');
    expect(unifiedPatch({ path: 'a.txt', oldText: 'same', newText: 'same' })).toBe('');
  });
});
