import type { Session, WebContents } from 'electron';
import { RENDERER_CSP_HEADER } from '../../common/security/csp';

/**
 * Session-wide protections: the CSP header on every response, and every device or browser
 * permission (camera, microphone, geolocation, ...) denied — but desktop notifications for the
 * bundled renderer itself (`rendererUrl`): it tells the user when an agent waits for them while
 * the window is in the background (renderer/app/attention.ts).
 */
export function hardenSession(session: Pick<Session, 'webRequest' | 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>, rendererUrl: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP_HEADER] } });
  });
  const allowed = (contents: Pick<WebContents, 'getURL'> | null | undefined, permission: string): boolean =>
    permission === 'notifications' && typeof contents?.getURL === 'function' && contents.getURL().startsWith(rendererUrl);
  session.setPermissionRequestHandler((contents, permission, callback) => callback(allowed(contents, permission)));
  session.setPermissionCheckHandler((contents, permission) => allowed(contents, permission));
}

/**
 * The window shows only the bundled renderer: navigation elsewhere and new windows are refused.
 * Links the user chooses to open (the renderer asks for confirmation first, and only for
 * http/https) go to the system browser through `openExternal`, never into an Electron window.
 */
export function lockNavigation(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  rendererUrl: string,
  openExternal: (url: string) => void = () => undefined,
): void {
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(rendererUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!url.startsWith(rendererUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) openExternal(url);
    return { action: 'deny' };
  });
}
