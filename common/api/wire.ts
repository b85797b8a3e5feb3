import type { ApiErrorShape } from './errors';

/**
 * Frames of the WebSocket bridge (the Electron transport uses ipcRenderer.invoke / webContents.send
 * and needs no framing of its own). One JSON object per WebSocket message.
 */
export type ClientFrame = { t: 'req'; id: number; name: string; params?: unknown };

export type ServerFrame =
  | { t: 'res'; id: number; ok: true; result: unknown }
  | { t: 'res'; id: number; ok: false; error: ApiErrorShape }
  | { t: 'evt'; name: string; payload: unknown };

/** IPC channel names are derived from the contract, never written by hand elsewhere. */
export const ipcRequestChannel = (name: string): string => `workbench:req:${name}`;
export const IPC_EVENT_CHANNEL = 'workbench:event';

export function parseClientFrame(text: string): ClientFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const frame = value as Record<string, unknown>;
  if (frame.t !== 'req' || typeof frame.id !== 'number' || typeof frame.name !== 'string') return null;
  return { t: 'req', id: frame.id, name: frame.name, params: frame.params };
}
