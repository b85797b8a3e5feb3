import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { isEventName, isRequestName } from '../common/api/contract';
import type { ApiErrorShape } from '../common/api/errors';
import { handOutEvents, IPC_EVENT_ACK_CHANNEL, IPC_EVENT_CHANNEL, IPC_EVENT_LISTENING_CHANNEL, ipcRequestChannel, type WireEvent } from '../common/api/wire';
import type { IpcReply } from '../common/api/ipc-reply';

/**
 * What the preload exposes as `window.workbench`: the API contract and nothing else. Names outside
 * the contract are refused here, before anything reaches the main process. Events arrive as one
 * batch per frame on one channel and are handed to the listeners one by one, in order; each batch
 * is acknowledged once handed over (the next one waits for that).
 */
export function createWorkbenchBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener' | 'send'>) {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const dispatch = (_event: IpcRendererEvent, items: WireEvent[], n?: number): void => {
    if (!Array.isArray(items)) return;
    // Acknowledged once handed over: the main process holds this window's next events until then.
    handOutEvents(items, (name) => listeners.get(name), () => typeof n === 'number' && ipc.send(IPC_EVENT_ACK_CHANNEL, n));
  };
  let subscribed = false;
  return {
    async request(name: string, params?: unknown): Promise<unknown> {
      if (!isRequestName(name)) {
        const error: ApiErrorShape = { code: 'unknown_request', message: `Unknown request "${String(name)}"` };
        throw error;
      }
      const reply = (await ipc.invoke(ipcRequestChannel(name), params)) as IpcReply;
      if (reply.ok) return reply.result;
      throw reply.error; // a plain, cloneable object: Error instances lose their fields across the bridge
    },
    on(name: string, listener: (payload: unknown) => void): () => void {
      if (!isEventName(name)) throw new Error(`Unknown event "${String(name)}"`);
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      if (!subscribed) {
        subscribed = true;
        ipc.on(IPC_EVENT_CHANNEL, dispatch);
        // Whatever was sent before this moment went to a page that is gone or to nobody.
        ipc.send(IPC_EVENT_LISTENING_CHANNEL);
      }
      return () => {
        set.delete(listener);
        if (![...listeners.values()].some((s) => s.size > 0) && subscribed) {
          subscribed = false;
          ipc.removeListener(IPC_EVENT_CHANNEL, dispatch);
        }
      };
    },
  };
}
