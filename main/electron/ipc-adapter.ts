import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { requestNames, type EventName, type PayloadOf } from '../../common/api/contract';
import { toApiErrorShape } from '../../common/api/errors';
import type { IpcReply } from '../../common/api/ipc-reply';
import { IPC_EVENT_ACK_CHANNEL, IPC_EVENT_CHANNEL, IPC_EVENT_LISTENING_CHANNEL, ipcRequestChannel } from '../../common/api/wire';
import type { CoreApi, Disposable } from '../core/api/core-api';
import { EventCoalescer } from '../core/api/event-coalescer';

/** Each window's pending events, by its webContents id: flushed before a request's answer. */
const windowEvents = new Map<number, EventCoalescer>();

/** Decides whether an IPC message comes from one of our own renderer frames. */
export type SenderCheck = (event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>) => boolean;

/**
 * Maps the contract onto Electron IPC: one `ipcMain.handle` channel per request (derived from the
 * contract, so every request is wired and nothing else is), events to each window with
 * `webContents.send`. Requests from frames that are not ours are refused.
 */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler' | 'on' | 'removeListener'>, core: CoreApi, isTrusted: SenderCheck): Disposable {
  const acknowledge = (event: IpcMainEvent, n: unknown): void => {
    if (isTrusted(event) && typeof n === 'number') windowEvents.get(event.sender.id)?.acknowledge(n);
  };
  const listening = (event: IpcMainEvent): void => {
    if (isTrusted(event)) windowEvents.get(event.sender.id)?.acknowledgeAll();
  };
  ipcMain.on(IPC_EVENT_ACK_CHANNEL, acknowledge);
  ipcMain.on(IPC_EVENT_LISTENING_CHANNEL, listening);
  for (const name of requestNames) {
    ipcMain.handle(ipcRequestChannel(name), async (event, params): Promise<IpcReply> => {
      if (!isTrusted(event)) {
        return { ok: false, error: { code: 'unknown_request', message: 'Refused: the sender is not a workbench window' } };
      }
      let reply: IpcReply;
      try {
        reply = { ok: true, result: await core.handle(name, params) };
      } catch (err) {
        reply = { ok: false, error: toApiErrorShape(err) };
      }
      // Events emitted before the answer go ahead of it (the renderer relies on it, e.g. patches
      // up to a window of entries' seq arrive before that window).
      windowEvents.get(event.sender.id)?.flush();
      return reply;
    });
  }
  return {
    dispose: () => {
      requestNames.forEach((name) => ipcMain.removeHandler(ipcRequestChannel(name)));
      ipcMain.removeListener(IPC_EVENT_ACK_CHANNEL, acknowledge);
      ipcMain.removeListener(IPC_EVENT_LISTENING_CHANNEL, listening);
    },
  };
}

/**
 * Forward core events to one window until it is destroyed: everything emitted within one frame
 * interval goes as one message (a `WireEvent[]`, in order, and the message's number), so each window
 * gets ≤ ~60 a second; the next message waits for the window's acknowledgement of the last
 * (`IPC_EVENT_ACK_CHANNEL`, sent by the preload once the listeners ran). A page that starts
 * listening (`IPC_EVENT_LISTENING_CHANNEL`: a reload keeps the webContents and this coalescer)
 * releases what its predecessor left unacknowledged.
 */
export function connectWindowEvents(
  core: CoreApi,
  contents: Pick<WebContents, 'id' | 'send' | 'isDestroyed' | 'once'>,
  coalescer: Omit<ConstructorParameters<typeof EventCoalescer>[0], 'deliver'> = {},
): Disposable {
  const events = new EventCoalescer({
    acknowledged: true,
    collect: () => core.release(), // each delivery takes the sessions' pending patches along (as ws-bridge.ts)
    ...coalescer,
    deliver: (items, n) => {
      if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, items, n);
    },
  });
  const connection = core.connect((name, payload) => events.push(name, payload));
  windowEvents.set(contents.id, events);
  const dispose = (): void => {
    connection.dispose();
    events.dispose();
    if (windowEvents.get(contents.id) === events) windowEvents.delete(contents.id);
  };
  contents.once('destroyed', dispose);
  return { dispose };
}

/**
 * An event for one window alone (the menu's commands go to the focused window), in order with the
 * core's events to it; false when the window has no connection (not ready, or gone).
 */
export function sendToWindow<E extends EventName>(contentsId: number, name: E, payload: PayloadOf<E>): boolean {
  const events = windowEvents.get(contentsId);
  if (!events) return false;
  events.push(name, payload);
  return true;
}

/** Trust only top frames of our windows that show the bundled renderer. */
export function senderCheck(rendererUrl: string, windows: () => Array<{ webContents: { id: number } }>): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null) return false;
    if (!frame.url.startsWith(rendererUrl)) return false;
    return windows().some((w) => w.webContents.id === event.sender.id);
  };
}
