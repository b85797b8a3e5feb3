import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

/** An in-memory stand-in for the parts of 'electron' the shell uses (no Electron binary here). */
export function fakeElectron(options: { singleInstance?: boolean } = {}) {
  const appListeners = new Map<string, Listener[]>();
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const windows: FakeWindow[] = [];
  const headersHooks: Listener[] = [];
  let permissionRequest: Listener | undefined;
  let permissionCheck: ((...a: unknown[]) => boolean) | undefined;
  let nextId = 1;

  class FakeContents {
    readonly id = nextId++;
    readonly listeners = new Map<string, Listener[]>();
    windowOpenHandler: ((d: unknown) => unknown) | undefined;
    send = vi.fn();
    isDestroyed = () => false;
    on(event: string, fn: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
      return this;
    }
    once(event: string, fn: Listener) {
      return this.on(event, fn);
    }
    setWindowOpenHandler(fn: (d: unknown) => unknown) {
      this.windowOpenHandler = fn;
    }
    emit(event: string, ...args: unknown[]) {
      for (const fn of this.listeners.get(event) ?? []) fn(...args);
    }
  }

  class FakeWindow {
    static getAllWindows = () => windows;
    readonly webContents = new FakeContents();
    readonly listeners = new Map<string, Listener[]>();
    loadedFile: string | undefined;
    maximized = false;
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    on(event: string, fn: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
      return this;
    }
    once(event: string, fn: Listener) {
      return this.on(event, fn);
    }
    emit(event: string, ...args: unknown[]) {
      for (const fn of this.listeners.get(event) ?? []) fn(...args);
    }
    loadFile = vi.fn(async (file: string) => void (this.loadedFile = file));
    show = vi.fn();
    focus = vi.fn();
    restore = vi.fn();
    isMinimized = () => false;
    maximize = vi.fn(() => void (this.maximized = true));
    isMaximized = () => this.maximized;
    getNormalBounds = () => ({ x: 10, y: 20, width: 1000, height: 700 });
  }

  const electron = {
    app: {
      requestSingleInstanceLock: vi.fn(() => options.singleInstance ?? true),
      quit: vi.fn(),
      setPath: vi.fn(),
      on: vi.fn((event: string, fn: Listener) => void appListeners.set(event, [...(appListeners.get(event) ?? []), fn])),
      whenReady: () => ready,
    },
    BrowserWindow: FakeWindow,
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
    Menu: { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn((t: unknown) => ({ template: t })) },
    shell: { openExternal: vi.fn(async () => undefined) },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (fn: Listener) => void headersHooks.push(fn) },
        setPermissionRequestHandler: (fn: Listener) => void (permissionRequest = fn),
        setPermissionCheckHandler: (fn: (...a: unknown[]) => boolean) => void (permissionCheck = fn),
      },
    },
  };

  return {
    electron,
    windows,
    becomeReady: async () => {
      readyResolve();
      await ready;
      await new Promise((r) => setTimeout(r, 0));
    },
    emitApp: (event: string, ...args: unknown[]) => appListeners.get(event)?.forEach((fn) => fn(...args)),
    headersHooks,
    permissionRequest: () => permissionRequest,
    permissionCheck: () => permissionCheck,
  };
}
