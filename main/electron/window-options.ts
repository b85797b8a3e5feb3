import type { BrowserWindowConstructorOptions } from 'electron';
import type { WindowBounds } from './window-state';

/**
 * The renderer is sandboxed: agent output is untrusted input. Every option here is asserted by
 * window-options.test.ts; loosening one is a security decision, not a tweak.
 */
export function mainWindowOptions(preloadPath: string, bounds: WindowBounds | null): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1440,
    height: bounds?.height ?? 900,
    ...(bounds?.x !== undefined && bounds?.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'ACP Workbench',
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    },
  };
}
