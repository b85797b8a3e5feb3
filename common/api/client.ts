import type { EventName, ParamsOf, PayloadOf, RequestName, ResultOf } from './contract';

/**
 * What the renderer sees as `window.workbench` (Electron preload) or gets from the WebSocket
 * client (web host). Both implement exactly this; nothing else crosses the boundary.
 */
export interface WorkbenchApi {
  request<N extends RequestName>(name: N, ...params: ParamsArg<N>): Promise<ResultOf<N>>;
  /** Listen to one event; returns the function that stops listening. */
  on<E extends EventName>(name: E, listener: (payload: PayloadOf<E>) => void): () => void;
}

/** Requests without params are called as `request('app/info')`. */
export type ParamsArg<N extends RequestName> = [ParamsOf<N>] extends [void] ? [] : [ParamsOf<N>];
