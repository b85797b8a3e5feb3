import type { EventName, PayloadOf } from '../../../common/api/contract';
import { isRequestName } from '../../../common/api/contract';
import { ApiError } from '../../../common/api/errors';
import type { RequestHandlers } from './handlers';

/** Where the core pushes events for one connected UI (a window or a browser tab). */
export type EventSink = <E extends EventName>(name: E, payload: PayloadOf<E>) => void;

export interface Disposable {
  dispose(): void;
}

/**
 * The core as every transport sees it: answer a named request, and connect a UI to receive events.
 * Transports (Electron IPC, the WebSocket bridge, tests) do nothing but move these calls.
 */
export class CoreApi {
  private readonly sinks = new Set<EventSink>();

  constructor(
    private readonly handlers: RequestHandlers,
    private readonly onDispose: () => Promise<void> = async () => undefined,
    private readonly onRelease: () => void = () => undefined,
  ) {}

  /**
   * Emit now what the core holds back to pace its events (each live session's pending patches).
   * A transport calls it as it sends a delivery to its UI, so a patch waits for one interval (the
   * delivery's), not for its session's batcher and then the delivery.
   */
  release(): void {
    this.onRelease();
  }

  /** Stop every agent and close every trace (app quit, web host stop). */
  dispose(): Promise<void> {
    return this.onDispose();
  }

  /** Answer one request. Unknown names and thrown errors come back as ApiErrors. */
  async handle(name: string, params: unknown): Promise<unknown> {
    if (!isRequestName(name)) {
      throw new ApiError({ code: 'unknown_request', message: `Unknown request "${name}"` });
    }
    const handler = this.handlers[name] as (p: unknown) => Promise<unknown> | unknown;
    return await handler(params);
  }

  /** A UI connected: it receives every event until the returned disposable is disposed. */
  connect(sink: EventSink): Disposable {
    this.sinks.add(sink);
    return { dispose: () => void this.sinks.delete(sink) };
  }

  emit<E extends EventName>(name: E, payload: PayloadOf<E>): void {
    for (const sink of this.sinks) {
      try {
        sink(name, payload);
      } catch {
        // One broken UI connection must not stop the others from receiving the event.
      }
    }
  }

  get connectionCount(): number {
    return this.sinks.size;
  }
}
