import type * as Electron from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { reapLeftovers } from '../core/acp/process-registry';
import { loadSdkLater } from '../core/acp/sdk-runtime';
import { createCore } from '../core/core';
import { processPaths, type WorkbenchPaths } from '../core/paths';
import { hardenSession, lockNavigation } from './hardening';
import { connectWindowEvents, registerIpc, senderCheck, sendToWindow } from './ipc-adapter';
import { menuTemplate } from './menu';
import { stopQuestion, workingAgents } from './quit-guard';
import { safeStorageEncryptor } from './safe-storage-encryptor';
import { mainWindowOptions } from './window-options';
import { fitToDisplays, loadWindowState, saveWindowState } from './window-state';

export type ElectronModule = Pick<typeof Electron, 'app' | 'BrowserWindow' | 'dialog' | 'ipcMain' | 'Menu' | 'screen' | 'session' | 'shell' | 'safeStorage'>;

export interface ShellLayout {
  /** dist/preload/preload.cjs */
  preloadPath: string;
  /** dist/renderer/index.html */
  rendererIndex: string;
}

/** Files next to the bundled main process (dist/main/electron-main.cjs). */
export function bundledLayout(mainDir: string): ShellLayout {
  return {
    preloadPath: join(mainDir, '..', 'preload', 'preload.cjs'),
    rendererIndex: join(mainDir, '..', 'renderer', 'index.html'),
  };
}

/** `--data-dir DIR` / `--data-dir=DIR` on the app's own command line. */
export function dataDirFromArgv(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--data-dir') return argv[i + 1];
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
  }
  return undefined;
}

/**
 * The Electron main process: one window over the shared core. Everything here is thin wiring;
 * the logic lives in main/core and is tested in Node.
 */
export function startShell(electron: ElectronModule, layout: ShellLayout, argv: readonly string[] = process.argv): { paths: WorkbenchPaths } | null {
  const { app, BrowserWindow, dialog, ipcMain, Menu, screen, session, shell, safeStorage } = electron;
  const openExternal = (url: string) => void shell.openExternal(url);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const paths = processPaths({ dataDir: dataDirFromArgv(argv) });
  // Electron's own caches and storage live in the same data folder as the traces.
  app.setPath('userData', paths.dataDir);

  let ready = false;
  // Secrets are encrypted by the OS keychain where there is one; where not, they stay plain (0600) and we say so once.
  const encryptor = safeStorageEncryptor(safeStorage, {
    isReady: () => ready,
    onUnavailable: (reason) => {
      const detail = `Secrets are not encrypted: ${reason}. They are kept in ${join(paths.dataDir, 'secrets.json')}, readable only by your user (mode 0600).`;
      console.warn(`ACP Workbench: ${detail}`);
      core.emit('app/notice', { severity: 'warning', title: 'Secrets are not encrypted: no keychain', detail });
    },
  });
  const core = createCore({
    host: 'electron',
    paths,
    encryptor,
    runtime: { electron: process.versions.electron ?? 'unknown', chrome: process.versions.chrome ?? 'unknown' },
    // The native folder picker, over the window (the New session and compare dialogs' "Choose…").
    pickFolder: async (start) => {
      const options: Electron.OpenDialogOptions = { title: 'Project folder', properties: ['openDirectory', 'createDirectory'], ...(start ? { defaultPath: start } : {}) };
      const picked = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });
  // The core loads without the ACP SDK; it follows a moment later, or with the first agent (sdk-runtime.ts).
  loadSdkLater();
  const rendererUrl = pathToFileURL(layout.rendererIndex).href;
  let mainWindow: Electron.BrowserWindow | null = null;
  let quitting = false;
  /** The user agreed to stop the agents that were mid-turn (or none was): the window may close. */
  let stopConfirmed = false;
  const mayStop = async (win: Electron.BrowserWindow | null): Promise<boolean> => {
    if (stopConfirmed) return true;
    const names = await workingAgents(core).catch(() => []);
    if (names.length > 0) {
      const question = stopQuestion(names);
      const { response } = await (win ? dialog.showMessageBox(win, question) : dialog.showMessageBox(question));
      if (response !== 0) return false;
    }
    stopConfirmed = true;
    return true;
  };

  const createWindow = (): Electron.BrowserWindow => {
    const remembered = loadWindowState(paths.configDir);
    const bounds = remembered ? fitToDisplays(remembered, screen.getAllDisplays().map((d) => d.workArea)) : null;
    const win = new BrowserWindow(mainWindowOptions(layout.preloadPath, bounds));
    lockNavigation(win.webContents, rendererUrl, openExternal);
    connectWindowEvents(core, win.webContents);
    if (bounds?.maximized) win.maximize();
    win.once('ready-to-show', () => win.show());
    stopConfirmed = false;
    win.on('close', (event: Electron.Event) => {
      saveWindowState(paths.configDir, { ...win.getNormalBounds(), maximized: win.isMaximized() });
      if (stopConfirmed || quitting) return;
      // Asked first when agents are mid-turn (quit-guard.ts); closed once the answer is yes.
      event.preventDefault();
      void mayStop(win).then((ok) => ok && win.close());
    });
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null;
    });
    void win.loadFile(layout.rendererIndex);
    return win;
  };

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Stop every agent and flush every trace before the process goes — once the user agreed to
    // cut off the agents that are mid-turn, if any.
    event.preventDefault();
    void mayStop(mainWindow).then((ok) => {
      if (!ok || quitting) return;
      quitting = true;
      void core.dispose().finally(() => app.quit());
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('web-contents-created', (_event, contents) => lockNavigation(contents, rendererUrl, openExternal));

  void reapLeftovers(paths.dataDir).catch(() => undefined);
  void app.whenReady().then(() => {
    ready = true;
    encryptor.isAvailable(); // says once, at start, when secrets cannot be encrypted here
    hardenSession(session.defaultSession, rendererUrl);
    // A menu command goes to the window it was chosen in (the focused one), which runs it as its palette would.
    const onCommand = (command: string, window: Electron.BaseWindow | undefined): void => {
      const target = BrowserWindow.getAllWindows().find((w) => w === window) ?? BrowserWindow.getFocusedWindow() ?? mainWindow;
      if (target && !target.isDestroyed()) sendToWindow(target.webContents.id, 'app/command', { command });
    };
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, 'ACP Workbench', onCommand)));
    registerIpc(ipcMain, core, senderCheck(rendererUrl, () => BrowserWindow.getAllWindows()));
    mainWindow = createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  });
  return { paths };
}
