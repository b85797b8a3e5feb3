import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fitToDisplays, loadWindowState, saveWindowState } from './window-state';

describe('window state', () => {
  it('round-trips bounds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-ws-'));
    saveWindowState(dir, { x: 5, y: 6, width: 800, height: 600, maximized: true });
    expect(loadWindowState(dir)).toEqual({ x: 5, y: 6, width: 800, height: 600, maximized: true });
  });

  it('ignores a damaged or absurd file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-ws-'));
    expect(loadWindowState(dir)).toBeNull();
    writeFileSync(join(dir, 'window-state.json'), '{"width": 10');
    expect(loadWindowState(dir)).toBeNull();
    writeFileSync(join(dir, 'window-state.json'), '{"width": 5, "height": 99999}');
    expect(loadWindowState(dir)).toBeNull();
  });

  it('drops a position that is on no display any more', () => {
    const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    expect(fitToDisplays({ x: 100, y: 100, width: 800, height: 600 }, displays)).toEqual({ x: 100, y: 100, width: 800, height: 600 });
    expect(fitToDisplays({ x: 4000, y: 100, width: 800, height: 600 }, displays)).toEqual({ width: 800, height: 600 });
  });
});
