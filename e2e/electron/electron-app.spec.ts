import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../support/web-host';

/** The Electron binary, when this machine has one (the npm package downloads it lazily). */
function electronBinary(): string | null {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const candidate = join(override, process.platform === 'win32' ? 'electron.exe' : 'electron');
    return existsSync(candidate) ? candidate : null;
  }
  try {
    const pkgDir = dirname(require.resolve('electron/package.json'));
    const pathFile = join(pkgDir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (!binary) {
  console.log('[electron e2e] skipped: no Electron binary on this machine (see docs/decisions.md); the web host specs cover the UI.');
}

test.describe('Electron app', () => {
  test.skip(!binary, 'no Electron binary on this machine');

  test('opens one sandboxed window showing the version from the core', async () => {
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const app = await electron.launch({ executablePath: binary!, args: [join(REPO_ROOT, 'dist', 'main', 'electron-main.cjs')] });
    try {
      const window = await app.firstWindow();
      await expect(window.getByTestId('app-version')).toHaveText(version);
      await expect(window.getByTestId('app-host')).toHaveText('electron');
      const hasNode = await window.evaluate(() => typeof (globalThis as { require?: unknown }).require !== 'undefined');
      expect(hasNode).toBe(false);
    } finally {
      await app.close();
    }
  });
});
