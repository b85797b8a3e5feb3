import type { ApiErrorShape } from './errors';

/** How the Electron main process answers an invoke: errors as data, since thrown Errors lose their fields over IPC. */
export type IpcReply = { ok: true; result: unknown } | { ok: false; error: ApiErrorShape };
