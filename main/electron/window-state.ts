import { mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where and how big the main window was, so the next start puts it back. */
export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';

export function loadWindowState(configDir: string): WindowBounds | null {
  try {
    const value = JSON.parse(readFileSync(join(configDir, WINDOW_STATE_FILE), 'utf8')) as Partial<WindowBounds>;
    if (!isSize(value.width) || !isSize(value.height)) return null;
    const bounds: WindowBounds = { width: value.width, height: value.height };
    if (Number.isFinite(value.x) && Number.isFinite(value.y)) Object.assign(bounds, { x: value.x, y: value.y });
    if (value.maximized === true) bounds.maximized = true;
    return bounds;
  } catch {
    return null; // first start, or a damaged file: the default size is fine
  }
}

export function saveWindowState(configDir: string, bounds: WindowBounds): void {
  const file = join(configDir, WINDOW_STATE_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(bounds));
  renameSync(`${file}.tmp`, file);
}

/** Keep a remembered window on a screen that still exists; otherwise let the OS place it. */
export function fitToDisplays(bounds: WindowBounds, workAreas: Array<{ x: number; y: number; width: number; height: number }>): WindowBounds {
  if (bounds.x === undefined || bounds.y === undefined) return bounds;
  const { x, y } = bounds;
  const visible = workAreas.some((a) => x < a.x + a.width - 50 && x + bounds.width > a.x + 50 && y >= a.y - 10 && y < a.y + a.height - 50);
  return visible ? bounds : { width: bounds.width, height: bounds.height, ...(bounds.maximized ? { maximized: true } : {}) };
}

function isSize(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 200 && v <= 20000;
}
