import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

/**
 * A stand-in for `safeStorage`: "encrypts" by XOR with a fixed byte (so the plain text never
 * appears in what it returns) and reports the availability and Linux backend it is given.
 */
export function fakeSafeStorage(options: { available?: boolean; backend?: 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown' } = {}) {
  const xor = (b: Buffer) => Buffer.from(b.map((c) => c ^ 0x5a));
  return {
    isEncryptionAvailable: vi.fn(() => options.available ?? true),
    getSelectedStorageBackend: vi.fn(() => options.backend ?? 'gnome_libsecret'),
    encryptString: vi.fn((plain: string) => xor(Buffer.from(`v10${plain}`, 'utf8'))),
    decryptString: vi.fn((encrypted: Buffer) => {
      const text = xor(encrypted).toString('utf8');
      if (!text.startsWith('v10')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return text.slice(3);
    }),
  };
}

/** An in-memory stand-in for the parts of 'electron' the shell uses (no Electron binary here). */
export function fakeElectron(options: { singleInstance?: boolean; encryption?: boolean } = {}) {
  const appListeners = new Map<string, Listener[]>();
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const windows: FakeWindow[] = [];
  const headersHooks: Listener[] = [];
  let permissionRequest: Listener | undefined;
  let permissionCheck: ((...a: unknown[]) => boolean) | undefined;
  let nextId = 1;
  const messageBoxAnswers: number[] = [];

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
    /** The last window made (tests have one). */
    static getFocusedWindow = () => windows[windows.length - 1] ?? null;
    isDestroyed = () => false;
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
    /** As Electron's: emits `close` (which a listener may prevent); `closed` counts the closes that went through. */
    closed = 0;
    close = vi.fn(() => {
      let prevented = false;
      this.emit('close', { preventDefault: () => void (prevented = true) });
      if (!prevented) this.closed++;
    });
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
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
    Menu: { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn((t: unknown) => ({ template: t })) },
    shell: { openExternal: vi.fn(async () => undefined) },
    dialog: {
      showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: false, filePaths: ['/home/ada/picked-project'] })),
      /** Answers with `messageBoxAnswers` in turn (default: Cancel, button 1). */
      showMessageBox: vi.fn(async (..._args: unknown[]) => ({ response: messageBoxAnswers.shift() ?? 1, checkboxChecked: false })),
    },
    safeStorage: fakeSafeStorage({ available: options.encryption ?? true }),
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
    messageBoxAnswers,
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
