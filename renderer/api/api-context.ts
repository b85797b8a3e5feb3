import type { WorkbenchApi } from '../../common/api/client';

/** The one API object of this window, set at start-up (Electron preload or WebSocket). */
let current: WorkbenchApi | null = null;

export function setApi(api: WorkbenchApi): void {
  current = api;
}

export function api(): WorkbenchApi {
  if (!current) throw new Error('The workbench API is not connected yet');
  return current;
}

/** A readable message for anything a request rejected with (ApiError shapes carry a hint). */
export function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err) {
    const e = err as { message: string; hint?: string };
    return e.hint ? `${e.message} — ${e.hint}` : e.message;
  }
  return String(err);
}
