import type { ApiErrorShape } from './errors';

/**
 * Frames of the WebSocket bridge (the Electron transport uses ipcRenderer.invoke / webContents.send
 * and needs no framing of its own). One JSON object per WebSocket message.
 */
export type ClientFrame =
  | { t: 'req'; id: number; name: string; params?: unknown }
  /** The window has handled the `evts` frames up to number `n`; the next one waits for this. */
  | { t: 'ack'; n: number };

/** One event of the contract as it travels: its name and payload. */
export type WireEvent = [name: string, payload: unknown];

export type ServerFrame =
  | { t: 'res'; id: number; ok: true; result: unknown }
  | { t: 'res'; id: number; ok: false; error: ApiErrorShape }
  /**
   * Events, in the order the core emitted them: everything for this window within one frame
   * (main/core/api/event-coalescer.ts), so a window receives at most ~60 event messages a second.
   */
  | { t: 'evts'; n: number; items: WireEvent[] };

/**
 * Hands a batch of events to their listeners, in order, then acknowledges the batch — also when a
 * listener throws (the core holds the window's later events until the acknowledgement). Used by
 * both transports' clients: the WebSocket client and the Electron preload.
 */
export function handOutEvents(items: readonly WireEvent[], listenersOf: (name: string) => Iterable<(payload: unknown) => void> | undefined, acknowledge: () => void): void {
  try {
    for (const [name, payload] of items) {
      for (const listener of listenersOf(name) ?? []) listener(payload);
    }
  } finally {
    acknowledge();
  }
}

/** IPC channel names are derived from the contract, never written by hand elsewhere. */
export const ipcRequestChannel = (name: string): string => `workbench:req:${name}`;
/** Carries one `WireEvent[]` per message: a frame's events for that window, in order. */
export const IPC_EVENT_CHANNEL = 'workbench:events';
/** The window's acknowledgement of an event message (its number, the channel's second argument). */
export const IPC_EVENT_ACK_CHANNEL = 'workbench:events-ack';
/**
 * Sent by a page when it starts listening for events (a window's first page, a reload): every
 * message sent to the window before went to a page that is gone or to nobody, and will never be
 * acknowledged — the core counts them as acknowledged instead of holding the new page's events
 * until its acknowledgement timeout.
 */
export const IPC_EVENT_LISTENING_CHANNEL = 'workbench:events-listening';

export function parseClientFrame(text: string): ClientFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const frame = value as Record<string, unknown>;
  if (frame.t === 'ack') return Number.isSafeInteger(frame.n) ? { t: 'ack', n: frame.n as number } : null;
  if (frame.t !== 'req' || typeof frame.id !== 'number' || typeof frame.name !== 'string') return null;
  return { t: 'req', id: frame.id, name: frame.name, params: frame.params };
}
