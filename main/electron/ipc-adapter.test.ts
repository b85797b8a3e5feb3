import { describe, expect, it, vi } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { requestNames } from '../../common/api/contract';
import { IPC_EVENT_ACK_CHANNEL, IPC_EVENT_CHANNEL, IPC_EVENT_LISTENING_CHANNEL, ipcRequestChannel } from '../../common/api/wire';
import { createCore } from '../core/core';
import { EVENT_ACK_WINDOW } from '../core/api/event-coalescer';
import { connectWindowEvents, registerIpc, senderCheck } from './ipc-adapter';
import { createWorkbenchBridge } from '../../preload/workbench-bridge';

type Handler = (event: IpcMainInvokeEvent, params: unknown) => Promise<unknown>;

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => void;

/**
 * A stand-in for ipcMain: handle() stores handlers, invoke() behaves like Electron's for unknown
 * channels; on() stores listeners, send() calls them as a renderer's `ipcRenderer.send` would.
 */
function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  const listeners = new Map<string, Set<Listener>>();
  return {
    handlers,
    listeners,
    handle: vi.fn((channel: string, handler: Handler) => void handlers.set(channel, handler)),
    removeHandler: vi.fn((channel: string) => void handlers.delete(channel)),
    on: vi.fn((channel: string, listener: Listener) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    }),
    removeListener: vi.fn((channel: string, listener: Listener) => void listeners.get(channel)?.delete(listener)),
    send(channel: string, event: IpcMainInvokeEvent, ...args: unknown[]) {
      for (const l of listeners.get(channel) ?? []) l(event, ...args);
    },
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
    registerIpc(ipc as never, core(), () => true);
    expect([...ipc.handlers.keys()].sort()).toEqual(requestNames.map(ipcRequestChannel).sort());
  });

  it('answers each contract request through its channel', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc as never, core(), () => true);
    await expect(ipc.invoke(ipcRequestChannel('app/ping'), trustedEvent, { nonce: 'x' })).resolves.toMatchObject({ ok: true, result: { nonce: 'x' } });
    await expect(ipc.invoke(ipcRequestChannel('app/info'), trustedEvent)).resolves.toMatchObject({ ok: true, result: { name: 'ACP Workbench' } });
  });

  it('rejects an unknown channel', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc as never, core(), () => true);
    await expect(ipc.invoke('workbench:req:app/shell-exec', trustedEvent)).rejects.toThrow('No handler registered');
  });

  it('returns errors as data with their code', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc as never, core(), () => true);
    await expect(ipc.invoke(ipcRequestChannel('app/ping'), trustedEvent, { nonce: 1 })).resolves.toMatchObject({ ok: false, error: { code: 'bad_params' } });
  });

  it('refuses requests from senders that are not our windows', async () => {
    const ipc = fakeIpcMain();
    const check = senderCheck(RENDERER, () => [{ webContents: { id: 1 } }]);
    registerIpc(ipc as never, core(), check);
    const foreignUrl = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: null } } as unknown as IpcMainInvokeEvent;
    const subFrame = { sender: { id: 1 }, senderFrame: { url: RENDERER, parent: {} } } as unknown as IpcMainInvokeEvent;
    const otherWindow = { sender: { id: 2 }, senderFrame: { url: RENDERER, parent: null } } as unknown as IpcMainInvokeEvent;
    for (const event of [foreignUrl, subFrame, otherWindow]) {
      await expect(ipc.invoke(ipcRequestChannel('app/info'), event)).resolves.toMatchObject({ ok: false });
    }
    await expect(ipc.invoke(ipcRequestChannel('app/info'), trustedEvent)).resolves.toMatchObject({ ok: true });
  });

  it('removes every handler and listener on dispose', () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc as never, core(), () => true).dispose();
    expect(ipc.handlers.size).toBe(0);
    expect([...ipc.listeners.values()].every((set) => set.size === 0)).toBe(true);
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
    expect(contents.send).toHaveBeenCalledWith(
      IPC_EVENT_CHANNEL,
      [
        ['app/notice', { severity: 'info', title: 'hi' }],
        ['app/notice', { severity: 'info', title: 'there' }],
      ],
      1,
    );
    destroyed!();
    expect(c.connectionCount).toBe(0);
    c.emit('app/notice', { severity: 'info', title: 'late' });
    await new Promise((r) => setTimeout(r, 40));
    expect(contents.send).toHaveBeenCalledTimes(1);
  });

  it("takes the core's held-back events (the sessions' pending patches) along with each message", async () => {
    const c = core();
    const order: string[] = [];
    vi.spyOn(c, 'release').mockImplementation(() => order.push('release'));
    const contents = { id: 8, send: vi.fn(() => order.push('send')), isDestroyed: () => false, once: vi.fn() };
    connectWindowEvents(c, contents as never);
    c.emit('app/notice', { severity: 'info', title: 'hi' });
    await Promise.resolve();
    expect(order).toEqual(['release', 'send']);
  });

  it('gives each window its own batches: a flood to both stays ≤ one message per interval per window', async () => {
    const c = core();
    const ipc = fakeIpcMain();
    registerIpc(ipc as never, c, () => true);
    // Each window acknowledges a message right after it arrives, as the preload does.
    const windows = [0, 1].map((id) => {
      const sender = { sender: { id: 10 + id } } as unknown as IpcMainInvokeEvent;
      return { id: 10 + id, send: vi.fn((_c: string, _items: unknown, n: number) => queueMicrotask(() => ipc.send(IPC_EVENT_ACK_CHANNEL, sender, n))), isDestroyed: () => false, once: vi.fn() };
    });
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

describe('Electron IPC adapter: a window acknowledges each message', () => {
  const setup = () => {
    const c = core();
    const ipc = fakeIpcMain();
    const trusted = new Set([1]);
    registerIpc(ipc as never, c, (event) => trusted.has(event.sender.id));
    const contents = { id: 1, send: vi.fn(), isDestroyed: () => false, once: vi.fn() };
    connectWindowEvents(c, contents as never);
    const titles = () => contents.send.mock.calls.map((call) => (call[1] as Array<[string, { title: string }]>).map(([, p]) => p.title));
    return { c, ipc, contents, titles };
  };
  const from = (id: number) => ({ sender: { id } }) as unknown as IpcMainInvokeEvent;
  /** EVENT_ACK_WINDOW messages, none acknowledged. */
  const fillWindow = async (c: ReturnType<typeof core>) => {
    for (let i = 0; i < EVENT_ACK_WINDOW; i++) {
      c.emit('app/notice', { severity: 'info', title: `w${i}` });
      await new Promise((r) => setTimeout(r, 30));
    }
  };
  const unacknowledged = Array.from({ length: EVENT_ACK_WINDOW }, (_, i) => [`w${i}`]);

  it('holds the next message while the window has EVENT_ACK_WINDOW unacknowledged, then sends what was held as one', async () => {
    const { c, ipc, titles } = setup();
    await fillWindow(c);
    c.emit('app/notice', { severity: 'info', title: 'b' });
    await new Promise((r) => setTimeout(r, 50)); // well past the interval: still held
    c.emit('app/notice', { severity: 'info', title: 'c' });
    expect(titles()).toEqual(unacknowledged);
    ipc.send(IPC_EVENT_ACK_CHANNEL, from(1), 1);
    await Promise.resolve();
    expect(titles()).toEqual([...unacknowledged, ['b', 'c']]);
  });

  it('ignores an acknowledgement from a sender that is not the window, or without a number', async () => {
    const { c, ipc, titles } = setup();
    await fillWindow(c);
    c.emit('app/notice', { severity: 'info', title: 'b' });
    ipc.send(IPC_EVENT_ACK_CHANNEL, from(2), 1); // another webContents: not trusted
    ipc.send(IPC_EVENT_ACK_CHANNEL, from(1), '1');
    ipc.send(IPC_EVENT_ACK_CHANNEL, from(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(titles()).toEqual(unacknowledged);
  });
  it('a reloaded page that starts listening gets its events at once, not after the acknowledgement timeout', async () => {
    const { c, ipc, titles } = setup();
    await fillWindow(c); // sent to the page that is about to go: never acknowledged
    c.emit('app/notice', { severity: 'info', title: 'after-reload' });
    ipc.send(IPC_EVENT_LISTENING_CHANNEL, from(2)); // not the window: ignored
    await new Promise((r) => setTimeout(r, 50));
    expect(titles()).toEqual(unacknowledged);
    ipc.send(IPC_EVENT_LISTENING_CHANNEL, from(1));
    await Promise.resolve();
    expect(titles()).toEqual([...unacknowledged, ['after-reload']]);
  });
});


describe('Electron IPC adapter: order of events and answers', () => {
  it("sends a window's pending events before the answer to its request", async () => {
    const c = core();
    const ipc = fakeIpcMain();
    registerIpc(ipc as never, c, () => true);
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
    const ipc = { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn(), send: vi.fn() };
    const bridge = createWorkbenchBridge(ipc);
    await expect(bridge.request('app/shell-exec')).rejects.toMatchObject({ code: 'unknown_request' });
    expect(() => bridge.on('app/secret', () => {})).toThrow('Unknown event');
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('round-trips a request through the adapter and unwraps errors into plain shapes', async () => {
    const main = fakeIpcMain();
    registerIpc(main as never, core(), () => true);
    const bridge = createWorkbenchBridge({
      invoke: (channel: string, params: unknown) => main.invoke(channel, trustedEvent, params),
      on: vi.fn(),
      removeListener: vi.fn(),
      send: vi.fn(),
    } as never);
    await expect(bridge.request('app/ping', { nonce: 'z' })).resolves.toMatchObject({ nonce: 'z' });
    await expect(bridge.request('app/ping', {})).rejects.toMatchObject({ code: 'bad_params' });
  });

  it('unpacks a batch in order, delivers only the subscribed events and unsubscribes', () => {
    const listeners: Array<(e: unknown, items: unknown, n?: number) => void> = [];
    const ipc = {
      invoke: vi.fn(),
      on: vi.fn((_c: string, fn: (e: unknown, items: unknown, n?: number) => void) => void listeners.push(fn)),
      removeListener: vi.fn(),
      send: vi.fn(),
    };
    const bridge = createWorkbenchBridge(ipc as never);
    const got: string[] = [];
    const offNotice = bridge.on('app/notice', (p) => got.push(`notice:${(p as { title: string }).title}`));
    const offStatus = bridge.on('session/status', (p) => got.push(`status:${(p as { sessionId: string }).sessionId}`));
    expect(ipc.on).toHaveBeenCalledTimes(1); // one channel listener, whatever the number of subscriptions
    expect(ipc.send.mock.calls).toEqual([[IPC_EVENT_LISTENING_CHANNEL]]); // once, after the listener is on
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
    bridge.on('app/notice', () => {}); // listening again: what was sent meanwhile went to nobody
    expect(ipc.send.mock.calls).toEqual([[IPC_EVENT_LISTENING_CHANNEL], [IPC_EVENT_LISTENING_CHANNEL]]);
  });

  it('acknowledges each batch after its listeners ran, also when a listener throws', () => {
    const listeners: Array<(e: unknown, items: unknown, n?: number) => void> = [];
    const order: string[] = [];
    const ipc = {
      invoke: vi.fn(),
      on: vi.fn((_c: string, fn: (e: unknown, items: unknown, n?: number) => void) => void listeners.push(fn)),
      removeListener: vi.fn(),
      send: vi.fn((channel: string, n: number) => order.push(`${channel}:${n}`)),
    };
    const bridge = createWorkbenchBridge(ipc as never);
    bridge.on('app/notice', (p) => {
      order.push(`notice:${(p as { title: string }).title}`);
      if ((p as { title: string }).title === 'bad') throw new Error('listener failed');
    });
    listeners[0]!({}, [['app/notice', { title: 'a' }], ['app/notice', { title: 'b' }]], 1);
    expect(() => listeners[0]!({}, [['app/notice', { title: 'bad' }]], 2)).toThrow('listener failed');
    expect(order).toEqual([`${IPC_EVENT_LISTENING_CHANNEL}:undefined`, 'notice:a', 'notice:b', `${IPC_EVENT_ACK_CHANNEL}:1`, 'notice:bad', `${IPC_EVENT_ACK_CHANNEL}:2`]);
  });
});
