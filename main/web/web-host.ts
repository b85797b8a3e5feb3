import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { CoreApi } from '../core/api/core-api';
import { RENDERER_CSP_HEADER } from '../../common/security/csp';
import { newAccessToken } from './access-token';
import { FirstPageWatch, firstPageAssets } from './first-page';
import { guardRequest, sessionCookie, type GuardConfig } from './request-guard';
import { serveStatic } from './static-files';
import { bridgeSocket } from './ws-bridge';

export interface WebHostOptions {
  /**
   * The core, or its promise: the host can listen and serve the UI's files while the core is
   * still loading (start-up, issue #11); API sockets are bridged once it is there. A function
   * loads the core once the UI's first page has been served (first-page.ts) — or at once when an
   * API socket asks for it — so a browser opening the URL gets its page before the core's modules
   * hold the event loop.
   */
  core: CoreApi | Promise<CoreApi> | (() => Promise<CoreApi>);
  /** Folder of the built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** How long a core given as a loader waits for the first page at most (tests; first-page.ts). */
  firstPageTiming?: { idleMs: number; capMs: number };
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
}

export interface WebHost {
  /** The URL to open: carries the token once; the first visit swaps it for a cookie. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** The only address the web host binds: remote use goes through an SSH tunnel, never a wider bind. */
export const WEB_HOST_ADDRESS = '127.0.0.1';
export const API_SOCKET_PATH = '/api';

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': RENDERER_CSP_HEADER,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newAccessToken();
  const server = createServer();
  const port = await listen(server, options.port ?? 0);
  const guard: GuardConfig = { token, port, cookieName: `acp_workbench_${port}` };
  const firstPage = new FirstPageWatch(firstPageAssets(readIndex(options.rendererDir)), options.firstPageTiming ?? FIRST_PAGE_TIMING);
  const load = options.core;
  const core: CoreApi | Promise<CoreApi> = typeof load === 'function' ? firstPage.served.then(load) : load;
  if (core instanceof Promise) core.catch(() => undefined); // reported to each API socket (503)
  // The WebSocket server (the `ws` package, node:https and node:tls behind it) loads after the
  // first page or with the first API socket, off the way to listening.
  let sockets: WebSocketServer | undefined;
  let socketServer: Promise<WebSocketServer> | undefined;
  const socketServerReady = (): Promise<WebSocketServer> =>
    (socketServer ??= import('ws').then(({ WebSocketServer: Server }) => (sockets = new Server({ noServer: true, maxPayload: 64 * 1024 * 1024 }))));
  void firstPage.served.then(socketServerReady);

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    firstPage.started();
    res.once('close', () => firstPage.ended(new URL(req.url ?? '/', `http://${WEB_HOST_ADDRESS}`).pathname));
    const decision = guardRequest(req, guard);
    if (!decision.allow) {
      res.writeHead(decision.status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`${decision.status === 401 ? 'Unauthorized' : 'Forbidden'}: ${decision.reason}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...SECURITY_HEADERS, Allow: 'GET, HEAD' });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', `http://${WEB_HOST_ADDRESS}`);
    // The first visit carries the token in the URL; from then on the cookie does (the renderer
    // removes the token from the address bar). Workers and assets load with the cookie.
    const headers = decision.setCookie ? { ...SECURITY_HEADERS, 'Set-Cookie': sessionCookie(guard) } : SECURITY_HEADERS;
    void serveStatic(options.rendererDir, url.pathname, res, headers);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const decision = guardRequest(req, guard);
    const path = new URL(req.url ?? '/', `http://${WEB_HOST_ADDRESS}`).pathname;
    if (!decision.allow || path !== API_SOCKET_PATH) {
      const status = decision.allow ? 404 : decision.status;
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\n\r\n`);
      return;
    }
    // The socket's bytes wait in its buffer until the core is there and the upgrade is answered.
    const dropped = (): void => void socket.destroy();
    socket.once('error', dropped);
    firstPage.wanted();
    Promise.all([core, socketServerReady()]).then(
      ([core, sockets]) => {
        socket.off('error', dropped);
        if (socket.destroyed) return;
        sockets.handleUpgrade(req, socket, head, (ws) => bridgeSocket(ws, core));
      },
      (err: unknown) => {
        const reason = err instanceof Error ? err.message : String(err);
        socket.end(`HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nThe workbench core failed to start: ${reason}\n`);
      },
    );
  });

  return {
    url: `http://${WEB_HOST_ADDRESS}:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        firstPage.stop(); // a core not loaded yet is not loaded now
        for (const client of sockets?.clients ?? []) client.terminate();
        sockets?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How long the core waits for the first page at most (first-page.ts). */
const FIRST_PAGE_TIMING = { idleMs: 250, capMs: 2000 };

function readIndex(rendererDir: string): string {
  try {
    return readFileSync(join(rendererDir, 'index.html'), 'utf8');
  } catch {
    return '';
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, WEB_HOST_ADDRESS, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
