import type { EventName, PayloadOf, RequestName, ResultOf } from '../../common/api/contract';
import type { ParamsArg, WorkbenchApi } from '../../common/api/client';
import { ApiError } from '../../common/api/errors';
import { handOutEvents, type ClientFrame, type ServerFrame } from '../../common/api/wire';

type RequestFrame = Extract<ClientFrame, { t: 'req' }>;

export type ConnectionState = 'connecting' | 'open' | 'closed';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * The API contract over the web host's WebSocket. Requests made while (re)connecting wait for the
 * socket; a dropped connection fails the requests in flight with `transport_closed` and reconnects
 * with backoff, keeping every event listener.
 */
export class WebSocketWorkbench implements WorkbenchApi {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly queue: RequestFrame[] = [];
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private retryMs = 250;
  private disposed = false;
  state: ConnectionState = 'connecting';

  constructor(private readonly url: string) {
    this.open();
  }

  request<N extends RequestName>(name: N, ...params: ParamsArg<N>): Promise<ResultOf<N>> {
    const frame: RequestFrame = { t: 'req', id: this.nextId++, name, params: params[0] };
    return new Promise((resolve, reject) => {
      this.pending.set(frame.id, { resolve: resolve as (v: unknown) => void, reject });
      if (!this.send(frame)) this.queue.push(frame);
    });
  }

  on<E extends EventName>(name: E, listener: (payload: PayloadOf<E>) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const fn = listener as (payload: unknown) => void;
    set.add(fn);
    return () => void set.delete(fn);
  }

  onState(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => void this.stateListeners.delete(listener);
  }

  dispose(): void {
    this.disposed = true;
    this.socket?.close();
  }

  /** Sends a frame now if the socket is open; false if not (a request is then queued, an acknowledgement dropped). */
  private send(frame: ClientFrame): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    for (const l of this.stateListeners) l(state);
  }

  private open(): void {
    this.setState('connecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 250;
      this.setState('open');
      for (const frame of this.queue.splice(0)) socket.send(JSON.stringify(frame));
    };
    socket.onmessage = (message) => this.receive(String(message.data));
    socket.onclose = () => {
      this.setState('closed');
      for (const [id, p] of this.pending) {
        if (this.queue.some((f) => f.id === id)) continue; // not sent yet: it goes out after reconnecting
        this.pending.delete(id);
        p.reject(new ApiError({ code: 'transport_closed', message: 'Lost the connection to the workbench core', hint: 'Reconnecting…' }));
      }
      if (!this.disposed) {
        setTimeout(() => this.open(), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, 5000);
      }
    };
  }

  private receive(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    if (frame.t === 'evts') {
      // One frame's events, in the order the core emitted them.
      // Acknowledged once handed over: the core holds the next frame's events until then.
      handOutEvents(frame.items, (name) => this.listeners.get(name), () => this.send({ t: 'ack', n: frame.n }));
      return;
    }
    const p = this.pending.get(frame.id);
    if (!p) return;
    this.pending.delete(frame.id);
    if (frame.ok) p.resolve(frame.result);
    else p.reject(new ApiError(frame.error));
  }
}
