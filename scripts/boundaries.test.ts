import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const FOLDERS = ['main', 'preload', 'renderer', 'common'];
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** Run the project's boundary check (the same config `npm run check:boundaries` uses) in `dir`. */
function checkBoundaries(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [DEPCRUISE, '--config', '.dependency-cruiser.cjs', ...FOLDERS], { cwd: dir }, (err, stdout, stderr) => {
      done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

describe('import boundaries', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'acpwb-bounds-'));
    for (const f of FOLDERS) {
      cpSync(join(ROOT, f), join(copy, f), { recursive: true, filter: (src) => !src.includes('node_modules') });
    }
    for (const f of ['.dependency-cruiser.cjs', 'tsconfig.base.json', 'package.json']) cpSync(join(ROOT, f), join(copy, f));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const plant = (path: string, text: string) => {
    mkdirSync(join(copy, path, '..'), { recursive: true });
    writeFileSync(join(copy, path), text);
    return () => rmSync(join(copy, path));
  };

  it('passes on the project as it is', async () => {
    const result = await checkBoundaries(copy);
    expect(result.output).toContain('no dependency violations');
    expect(result.code).toBe(0);
  }, 60_000);

  it("fails on 'electron' imported in main/core/", async () => {
    const remove = plant('main/core/planted-electron.ts', "import { app } from 'electron';\nexport const planted = app;\n");
    const result = await checkBoundaries(copy);
    remove();
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/electron-only-in-shell: main\/core\/planted-electron\.ts/);
  }, 60_000);

  it("fails on a type-only 'electron' import outside the shell too", async () => {
    const remove = plant('main/web/planted-type.ts', "import type { App } from 'electron';\nexport type Planted = App;\n");
    const result = await checkBoundaries(copy);
    remove();
    expect(result.output).toMatch(/electron-only-in-shell: main\/web\/planted-type\.ts/);
  }, 60_000);

  it("fails on 'node:fs' imported in renderer/", async () => {
    const remove = plant('renderer/planted-fs.ts', "import { readFileSync } from 'node:fs';\nexport const planted = readFileSync;\n");
    const result = await checkBoundaries(copy);
    remove();
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/no-node-in-renderer-or-common: renderer\/planted-fs\.ts/);
  }, 60_000);

  it('fails on renderer/ importing main/ and on common/ importing anything above it', async () => {
    const a = plant('renderer/planted-main.ts', "import { createCore } from '../main/core/core';\nexport const planted = createCore;\n");
    const b = plant('common/planted-up.ts', "import { App } from '../renderer/app/App';\nexport const planted = App;\n");
    const result = await checkBoundaries(copy);
    a();
    b();
    expect(result.output).toMatch(/renderer-talks-only-through-the-contract: renderer\/planted-main\.ts/);
    expect(result.output).toMatch(/common-imports-nothing-above-it: common\/planted-up\.ts/);
  }, 60_000);
});
