import type { WorkbenchApi } from '../../common/api/client';
import type { FilePaths } from '../../common/api/file-paths';
import { WebSocketWorkbench } from './ws-client';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a browser talking to the web host. */
    workbench?: WorkbenchApi;
    /** Exposed by the Electron preload: where dropped files live on disk. */
    workbenchFiles?: FilePaths;
  }
}

export type Transport = 'electron' | 'websocket';

/** The Electron preload's API when present, else the web host's WebSocket. */
export function connectWorkbench(): { api: WorkbenchApi; transport: Transport; socket?: WebSocketWorkbench } {
  if (window.workbench) return { api: window.workbench, transport: 'electron' };
  dropTokenFromAddressBar();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocketWorkbench(`${scheme}://${location.host}/api`);
  return { api: socket, transport: 'websocket', socket };
}

/** The cookie carries the session after the first load; keep the token out of history and screenshots. */
function dropTokenFromAddressBar(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  history.replaceState(null, '', url.pathname + url.search + url.hash);
}
