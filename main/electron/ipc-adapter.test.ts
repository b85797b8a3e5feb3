import { describe, expect, it, vi } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { requestNames } from '../../common/api/contract';
import { IPC_EVENT_CHANNEL, ipcRequestChannel } from '../../common/api/wire';
import { createCore } from '../core/core';
import { connectWindowEvents, registerIpc, senderCheck } from './ipc-adapter';
import { createWorkbenchBridge } from '../../preload/workbench-bridge';

type Handler = (event: IpcMainInvokeEvent, params: unknown) => Promise<unknown>;

/** A stand-in for ipcMain: handle() stores handlers, invoke() behaves like Electron's for unknown channels. */
function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: vi.fn((channel: string, handler: Handler) => void handlers.set(channel, handler)),
    removeHandler: vi.fn((channel: string) => void handlers.delete(channel)),
    invoke(channel: string, event: IpcMainInvokeEvent, params?: unknown) {
      const handler = handlers.get(channel);
      if (!handler) return Promise.reject(new Error(`No handler registered for '${channel}'`));
      return handler(event, params);
    },
  };
}

const RENDERER = 'file:///app/dist/renderer/index.html';
const trustedEvent = { sender: { id: 1 }, senderFrame: { url: RENDERER, parent: null } } as unknown as IpcMainInvokeEvent;
const core = () => createCore({ host: 'test', paths: { dataDir: '/d', configDir: '/c' } });

describe('Electron IPC adapter', () => {
  it('wires every request of the contract, and only those', () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, core(), () => true);
    expect([...ipc.handlers.keys()].sort()).toEqual(requestNames.map(ipcRequestChannel).sort());
  });

  it('answers each contract request through its channel', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, core(), () => true);
    await expect(ipc.invoke(ipcRequestChannel('app/ping'), trustedEvent, { nonce: 'x' })).resolves.toMatchObject({ ok: true, result: { nonce: 'x' } });
    await expect(ipc.invoke(ipcRequestChannel('app/info'), trustedEvent)).resolves.toMatchObject({ ok: true, result: { name: 'ACP Workbench' } });
  });

  it('rejects an unknown channel', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, core(), () => true);
    await expect(ipc.invoke('workbench:req:app/shell-exec', trustedEvent)).rejects.toThrow('No handler registered');
  });

  it('returns errors as data with their code', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, core(), () => true);
    await expect(ipc.invoke(ipcRequestChannel('app/ping'), trustedEvent, { nonce: 1 })).resolves.toMatchObject({ ok: false, error: { code: 'bad_params' } });
  });

  it('refuses requests from senders that are not our windows', async () => {
    const ipc = fakeIpcMain();
    const check = senderCheck(RENDERER, () => [{ webContents: { id: 1 } }]);
    registerIpc(ipc, core(), check);
    const foreignUrl = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: null } } as unknown as IpcMainInvokeEvent;
    const subFrame = { sender: { id: 1 }, senderFrame: { url: RENDERER, parent: {} } } as unknown as IpcMainInvokeEvent;
    const otherWindow = { sender: { id: 2 }, senderFrame: { url: RENDERER, parent: null } } as unknown as IpcMainInvokeEvent;
    for (const event of [foreignUrl, subFrame, otherWindow]) {
      await expect(ipc.invoke(ipcRequestChannel('app/info'), event)).resolves.toMatchObject({ ok: false });
    }
    await expect(ipc.invoke(ipcRequestChannel('app/info'), trustedEvent)).resolves.toMatchObject({ ok: true });
  });

  it('removes every handler on dispose', () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, core(), () => true).dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('sends core events to a window, one batch per frame, until it is destroyed', async () => {
    const c = core();
    let destroyed: (() => void) | undefined;
    const contents = { id: 7, send: vi.fn(), isDestroyed: () => false, once: (_e: string, fn: () => void) => void (destroyed = fn) };
    connectWindowEvents(c, contents as never);
    c.emit('app/notice', { severity: 'info', title: 'hi' });
    c.emit('app/notice', { severity: 'info', title: 'there' });
    await Promise.resolve(); // the first batch after a quiet spell goes right after the emitting job
    expect(contents.send).toHaveBeenCalledTimes(1);
    expect(contents.send).toHaveBeenCalledWith(IPC_EVENT_CHANNEL, [
      ['app/notice', { severity: 'info', title: 'hi' }],
      ['app/notice', { severity: 'info', title: 'there' }],
    ]);
    destroyed!();
    expect(c.connectionCount).toBe(0);
    c.emit('app/notice', { severity: 'info', title: 'late' });
    await new Promise((r) => setTimeout(r, 40));
    expect(contents.send).toHaveBeenCalledTimes(1);
  });

  it('gives each window its own batches: a flood to both stays ≤ one message per interval per window', async () => {
    const c = core();
    const windows = [0, 1].map((id) => ({ id: 10 + id, send: vi.fn(), isDestroyed: () => false, once: vi.fn() }));
    for (const w of windows) connectWindowEvents(c, w as never);
    for (let i = 0; i < 20; i++) {
      c.emit('app/notice', { severity: 'info', title: `n${i}` });
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 60));
    for (const w of windows) {
      const titles = w.send.mock.calls.flatMap((call) => (call[1] as Array<[string, { title: string }]>).map(([, p]) => p.title));
      expect(titles).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`));
      expect(w.send.mock.calls.length).toBeLessThan(20); // coalesced: 20 events over ≥ 40 ms
    }
  });
});

describe('Electron IPC adapter: order of events and answers', () => {
  it("sends a window's pending events before the answer to its request", async () => {
    const c = core();
    const ipc = fakeIpcMain();
    registerIpc(ipc, c, () => true);
    const order: string[] = [];
    const contents = { id: 1, send: vi.fn((_ch: string, items: Array<[string, { title: string }]>) => items.forEach(([, p]) => order.push(p.title))), isDestroyed: () => false, once: vi.fn() };
    connectWindowEvents(c, contents as never);
    c.emit('app/notice', { severity: 'info', title: 'first' }); // goes at once (quiet window)
    await Promise.resolve();
    c.emit('app/notice', { severity: 'info', title: 'second' }); // waits for the next interval...
    const reply = await ipc.invoke(ipcRequestChannel('app/ping'), trustedEvent, { nonce: 'n' }); // ...unless an answer goes first
    order.push('answer');
    expect(reply).toMatchObject({ ok: true });
    expect(order).toEqual(['first', 'second', 'answer']);
  });
});

describe('preload bridge', () => {
  it('refuses names outside the contract before anything reaches main', async () => {
    const ipc = { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() };
    const bridge = createWorkbenchBridge(ipc);
    await expect(bridge.request('app/shell-exec')).rejects.toMatchObject({ code: 'unknown_request' });
    expect(() => bridge.on('app/secret', () => {})).toThrow('Unknown event');
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('round-trips a request through the adapter and unwraps errors into plain shapes', async () => {
    const main = fakeIpcMain();
    registerIpc(main, core(), () => true);
    const bridge = createWorkbenchBridge({
      invoke: (channel: string, params: unknown) => main.invoke(channel, trustedEvent, params),
      on: vi.fn(),
      removeListener: vi.fn(),
    } as never);
    await expect(bridge.request('app/ping', { nonce: 'z' })).resolves.toMatchObject({ nonce: 'z' });
    await expect(bridge.request('app/ping', {})).rejects.toMatchObject({ code: 'bad_params' });
  });

  it('unpacks a batch in order, delivers only the subscribed events and unsubscribes', () => {
    const listeners: Array<(e: unknown, items: unknown) => void> = [];
    const ipc = {
      invoke: vi.fn(),
      on: vi.fn((_c: string, fn: (e: unknown, items: unknown) => void) => void listeners.push(fn)),
      removeListener: vi.fn(),
    };
    const bridge = createWorkbenchBridge(ipc as never);
    const got: string[] = [];
    const offNotice = bridge.on('app/notice', (p) => got.push(`notice:${(p as { title: string }).title}`));
    const offStatus = bridge.on('session/status', (p) => got.push(`status:${(p as { sessionId: string }).sessionId}`));
    expect(ipc.on).toHaveBeenCalledTimes(1); // one channel listener, whatever the number of subscriptions
    listeners[0]!({}, [
      ['app/notice', { title: 'a' }],
      ['session/status', { sessionId: 's1' }],
      ['app/other', { title: 'x' }],
      ['app/notice', { title: 'b' }],
    ]);
    offNotice();
    listeners[0]!({}, [['app/notice', { title: 'c' }]]);
    expect(got).toEqual(['notice:a', 'status:s1', 'notice:b']);
    expect(ipc.removeListener).not.toHaveBeenCalled();
    offStatus();
    expect(ipc.removeListener).toHaveBeenCalledWith(IPC_EVENT_CHANNEL, listeners[0]);
  });
});
