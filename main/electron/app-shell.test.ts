import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestNames } from '../../common/api/contract';
import { IPC_EVENT_CHANNEL, ipcRequestChannel } from '../../common/api/wire';
import { dataDirFromArgv, startShell, type ElectronModule } from './app-shell';
import { fakeElectron } from './test-support/fake-electron';
import type { LiveSessionSummary } from '../../common/api/session-api-types';
import { fixtureArgs } from '../core/workspace/testing/git-repo';

const layout = { preloadPath: '/app/dist/preload/preload.cjs', rendererIndex: '/app/dist/renderer/index.html' };

describe('Electron shell (mocked electron)', () => {
  let dir: string;
  const saved = { ...process.env };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'acpwb-shell-'));
    process.env.ACP_WORKBENCH_DATA_DIR = join(dir, 'data');
    process.env.ACP_WORKBENCH_CONFIG_DIR = join(dir, 'config');
  });
  afterEach(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (fake: ReturnType<typeof fakeElectron>, argv: string[] = []) =>
    startShell(fake.electron as unknown as ElectronModule, layout, argv);

  it('quits when another instance holds the lock', () => {
    const fake = fakeElectron({ singleInstance: false });
    expect(start(fake)).toBeNull();
    expect(fake.electron.app.quit).toHaveBeenCalled();
    expect(fake.windows).toHaveLength(0);
  });

  it('points userData at the shared data folder (env, or --data-dir)', () => {
    const fake = fakeElectron();
    start(fake);
    expect(fake.electron.app.setPath).toHaveBeenCalledWith('userData', join(dir, 'data'));
    const other = fakeElectron();
    start(other, ['electron', '.', '--data-dir=/elsewhere']);
    expect(other.electron.app.setPath).toHaveBeenCalledWith('userData', '/elsewhere');
  });

  it('opens one sandboxed window on the bundled renderer once ready', async () => {
    const fake = fakeElectron();
    start(fake);
    expect(fake.windows).toHaveLength(0);
    await fake.becomeReady();
    expect(fake.windows).toHaveLength(1);
    const win = fake.windows[0]!;
    expect(win.options.webPreferences).toMatchObject({
      preload: layout.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    });
    expect(win.loadedFile).toBe(layout.rendererIndex);
  });

  it('wires every contract request to ipcMain.handle', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    const channels = fake.electron.ipcMain.handle.mock.calls.map((c) => c[0]);
    expect(channels.sort()).toEqual(requestNames.map(ipcRequestChannel).sort());
  });

  it('blocks navigation away from the renderer and every new window', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    const contents = fake.windows[0]!.webContents;
    const away = { preventDefault: vi.fn() };
    contents.emit('will-navigate', away, 'https://evil.example/');
    expect(away.preventDefault).toHaveBeenCalled();
    const inside = { preventDefault: vi.fn() };
    contents.emit('will-navigate', inside, 'file:///app/dist/renderer/index.html#x');
    expect(inside.preventDefault).not.toHaveBeenCalled();
    // A link the user confirmed opens in the system browser, never in an Electron window.
    expect(contents.windowOpenHandler!({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(fake.electron.shell.openExternal).toHaveBeenCalledWith('https://example.com/docs');
    expect(contents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.electron.shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('denies device permissions but the renderer’s own notifications, and adds the CSP header', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    const renderer = { getURL: () => 'file:///app/dist/renderer/index.html' };
    const elsewhere = { getURL: () => 'https://example.com/' };
    const decide = vi.fn();
    fake.permissionRequest()!(renderer, 'media', decide);
    fake.permissionRequest()!(renderer, 'notifications', decide);
    fake.permissionRequest()!(elsewhere, 'notifications', decide);
    expect(decide.mock.calls).toEqual([[false], [true], [false]]);
    expect(fake.permissionCheck()!(renderer, 'notifications')).toBe(true);
    expect(fake.permissionCheck()!(renderer, 'geolocation')).toBe(false);
    expect(fake.permissionCheck()!(elsewhere, 'notifications')).toBe(false);
    expect(fake.permissionCheck()!(null, 'notifications')).toBe(false);
    const callback = vi.fn();
    fake.headersHooks[0]!({ responseHeaders: {} }, callback);
    expect(callback.mock.calls[0]![0].responseHeaders['Content-Security-Policy'][0]).toContain("script-src 'self'");
  });

  it('sets an application menu: the app’s commands in File and View, sent to the window they were chosen in', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    type Item = { label?: string; role?: string; accelerator?: string; registerAccelerator?: boolean; submenu?: Item[]; click?: (item: unknown, window: unknown) => void };
    const template = fake.electron.Menu.buildFromTemplate.mock.calls[0]![0] as Item[];
    expect(fake.electron.Menu.setApplicationMenu).toHaveBeenCalled();
    expect(template.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(template.map((m) => m.role)).toEqual(expect.arrayContaining(['editMenu', 'windowMenu']));
    const file = template.find((m) => m.label === 'File')!.submenu!;
    const view = template.find((m) => m.label === 'View')!.submenu!;
    expect(file.map((i) => i.label ?? i.role)).toEqual(['New Session…', 'New Compare Run…', 'Rename Session…', 'History', 'Agents', 'Settings…', undefined, 'quit']);
    expect(view.map((i) => i.role ?? i.label)).toEqual(expect.arrayContaining(['Command Palette…', 'Toggle Sidebar', 'Find in Transcript…', 'reload', 'toggleDevTools', 'togglefullscreen']));
    // Shown, not taken: the window's own key handling runs the shortcut.
    const newSession = file[0]!;
    expect(newSession).toMatchObject({ accelerator: 'CmdOrCtrl+N', registerAccelerator: false });

    const win = fake.windows[0]!;
    win.webContents.send.mockClear();
    view.find((i) => i.label === 'Toggle Sidebar')!.click!({}, win);
    newSession.click!({}, undefined); // no window given: the focused one
    await vi.waitFor(() => expect(win.webContents.send).toHaveBeenCalled(), { timeout: 10_000 });
    const sent = win.webContents.send.mock.calls.flatMap((c) => (c[0] === IPC_EVENT_CHANNEL ? (c[1] as Array<[string, unknown]>) : []));
    expect(sent.filter(([name]) => name === 'app/command')).toEqual([
      ['app/command', { command: 'view.sidebar' }],
      ['app/command', { command: 'session.new' }],
    ]);
  });

  it('remembers the window size and position across starts', async () => {
    const first = fakeElectron();
    start(first);
    await first.becomeReady();
    first.windows[0]!.close();
    expect(JSON.parse(readFileSync(join(dir, 'config', 'window-state.json'), 'utf8'))).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 });
    const second = fakeElectron();
    start(second);
    await second.becomeReady();
    expect(second.windows[0]!.options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 });
  });

  it('focuses the existing window when a second instance starts', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    fake.emitApp('second-instance');
    expect(fake.windows[0]!.focus).toHaveBeenCalled();
  });

  it('stops every agent and flushes traces before quitting', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    const event = { preventDefault: vi.fn() };
    fake.emitApp('before-quit', event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalled(), { timeout: 10_000 });
    fake.emitApp('before-quit', { preventDefault: vi.fn() }); // the second quit goes through
    expect(fake.electron.app.quit).toHaveBeenCalledTimes(1);
  });

  /** A fixture agent session in the middle of a long turn, started through the window's IPC. */
  const busySession = async (fake: ReturnType<typeof fakeElectron>) => {
    const started = (await invoke(fake, 'sessions/start', {
      agent: { command: process.execPath, args: fixtureArgs({ defaultPrompt: { steps: [{ delay: 60_000 }, { text: 'late' }] } }), label: 'Slowpoke' },
      cwd: dir,
      policy: 'ask',
    })) as { ok: boolean; result: { sessionId: string } };
    expect(started.ok).toBe(true);
    const sessionId = started.result.sessionId;
    void invoke(fake, 'session/prompt', { sessionId, prompt: [{ type: 'text', text: 'take a minute' }] });
    await expect.poll(async () => ((await invoke(fake, 'sessions/live', undefined)) as { result: LiveSessionSummary[] }).result[0]?.status.status).toBe('prompting');
    return sessionId;
  };

  it('asks before the window closes while an agent is mid-turn, and closes only when told to stop it', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    const win = fake.windows[0]!;
    // No agent working: the window closes without a question.
    win.close();
    await vi.waitFor(() => expect(win.closed).toBe(1), { timeout: 10_000 });
    expect(fake.electron.dialog.showMessageBox).not.toHaveBeenCalled();

    const other = fakeElectron();
    start(other);
    await other.becomeReady();
    const busy = other.windows[0]!;
    await busySession(other);
    busy.close(); // Cancel (the default answer)
    await vi.waitFor(() => expect(other.electron.dialog.showMessageBox).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const [parent, question] = other.electron.dialog.showMessageBox.mock.calls[0] as unknown as [unknown, { message: string; detail: string; buttons: string[] }];
    expect(parent).toBe(busy);
    expect(question.message).toBe('An agent is still working');
    expect(question.detail).toMatch(/^Slowpoke \(Fixture agent\): quitting stops it and its turn ends as cancelled/);
    await new Promise((r) => setTimeout(r, 50));
    expect(busy.closed).toBe(0);
    expect(other.electron.app.quit).not.toHaveBeenCalled();

    other.messageBoxAnswers.push(0); // Stop and quit
    busy.close();
    await vi.waitFor(() => expect(busy.closed).toBe(1), { timeout: 10_000 });
    expect(other.electron.dialog.showMessageBox).toHaveBeenCalledTimes(2);
    // The quit that follows does not ask again, and stops the agent.
    other.emitApp('before-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(other.electron.app.quit).toHaveBeenCalled(), { timeout: 10_000 });
    expect(other.electron.dialog.showMessageBox).toHaveBeenCalledTimes(2);
  });

  it('asks before quitting while an agent is mid-turn; Cancel keeps the app and its agent', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    const sessionId = await busySession(fake);
    fake.emitApp('before-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.electron.dialog.showMessageBox).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.electron.app.quit).not.toHaveBeenCalled();
    const live = (await invoke(fake, 'sessions/live', undefined)) as { result: LiveSessionSummary[] };
    expect(live.result.find((s) => s.sessionId === sessionId)?.status.status).toBe('prompting');
    fake.messageBoxAnswers.push(0);
    fake.emitApp('before-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalled(), { timeout: 20_000 });
  });

  /** Call a contract request the way the window does: through the IPC handler, from the window's top frame. */
  const invoke = async (fake: ReturnType<typeof fakeElectron>, name: string, params: unknown) => {
    const handler = fake.electron.ipcMain.handle.mock.calls.find((c) => c[0] === ipcRequestChannel(name as never))![1] as (e: unknown, p: unknown) => Promise<{ ok: boolean; result?: unknown }>;
    const contents = fake.windows[0]!.webContents;
    return handler({ sender: { id: contents.id }, senderFrame: { parent: null, url: 'file:///app/dist/renderer/index.html' } }, params);
  };

  it('plugs the safeStorage encryptor into the core: secrets set from the window are encrypted on disk', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    const reply = await invoke(fake, 'secrets/set', { agentId: 'demo', name: 'DEMO_TOKEN', value: 'tok-shell-123456' });
    expect(reply).toMatchObject({ ok: true, result: { agents: { demo: [{ name: 'DEMO_TOKEN', state: 'encrypted' }] }, protection: { encrypted: true } } });
    expect(JSON.stringify(reply)).not.toContain('tok-shell-123456');
    const text = readFileSync(join(dir, 'data', 'secrets.json'), 'utf8');
    expect(text).not.toContain('tok-shell-123456');
    expect(fake.electron.safeStorage.encryptString).toHaveBeenCalledWith('tok-shell-123456');
  });

  it('without a keychain, stores secrets plain and tells the user once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = fakeElectron({ encryption: false });
    start(fake);
    await fake.becomeReady();
    const reply = (await invoke(fake, 'secrets/set', { agentId: 'demo', name: 'DEMO_TOKEN', value: 'tok-plain-123456' })) as { result: { protection: { summary: string } } };
    expect(reply.result.protection.summary).toContain('Not encrypted: no keychain');
    await invoke(fake, 'secrets/list', {});
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('Secrets are not encrypted');
    warn.mockRestore();
  });

  it('offers the native folder picker over the window: the folder chosen, or null when cancelled', async () => {
    const fake = fakeElectron();
    start(fake);
    await fake.becomeReady();
    expect(await invoke(fake, 'app/info', undefined)).toMatchObject({ ok: true, result: { host: 'electron', canPickFolder: true } });
    expect(await invoke(fake, 'app/pick-folder', { start: '/home/ada' })).toEqual({ ok: true, result: { path: '/home/ada/picked-project' } });
    const [parent, options] = fake.electron.dialog.showOpenDialog.mock.calls[0]!;
    expect(parent).toBe(fake.windows[0]);
    expect(options).toMatchObject({ properties: ['openDirectory', 'createDirectory'], defaultPath: '/home/ada' });
    fake.electron.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    expect(await invoke(fake, 'app/pick-folder', {})).toEqual({ ok: true, result: { path: null } });
  });

  it('reads --data-dir in both spellings', () => {
    expect(dataDirFromArgv(['--data-dir', '/a'])).toBe('/a');
    expect(dataDirFromArgv(['--data-dir=/b'])).toBe('/b');
    expect(dataDirFromArgv(['--other'])).toBeUndefined();
  });
});

describe('Electron entry', () => {
  it('starts the shell with the real electron module (mocked here)', async () => {
    const fake = fakeElectron();
    vi.doMock('electron', () => fake.electron);
    await import('./main');
    expect(fake.electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    vi.doUnmock('electron');
  });
});
