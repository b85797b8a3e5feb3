import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { isEventName, isRequestName } from '../common/api/contract';
import type { ApiErrorShape } from '../common/api/errors';
import { IPC_EVENT_CHANNEL, ipcRequestChannel } from '../common/api/wire';
import type { IpcReply } from '../common/api/ipc-reply';

/**
 * What the preload exposes as `window.workbench`: the API contract and nothing else. Names outside
 * the contract are refused here, before anything reaches the main process.
 */
export function createWorkbenchBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>) {
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
      const forward = (_event: IpcRendererEvent, eventName: string, payload: unknown) => {
        if (eventName === name) listener(payload);
      };
      ipc.on(IPC_EVENT_CHANNEL, forward);
      return () => void ipc.removeListener(IPC_EVENT_CHANNEL, forward);
    },
  };
}
