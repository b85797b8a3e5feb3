import type { IncomingMessage } from 'node:http';
import { tokenMatches } from './access-token';

/**
 * Who may talk to the web host. It binds 127.0.0.1 only, and still checks every request, because a
 * page on another site (or a DNS-rebinding attack) can make the user's browser send requests to
 * loopback: the Host header must name loopback and our port, an Origin (when sent) must be ours,
 * and the request must carry the session cookie or the token.
 */
export interface GuardConfig {
  token: string;
  port: number;
  cookieName: string;
}

export type GuardDecision =
  | { allow: true; via: 'cookie' | 'token' | 'bearer'; setCookie: boolean }
  | { allow: false; status: 401 | 403; reason: string };

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

export function allowedHost(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  return LOOPBACK_HOSTS.some((h) => hostHeader.toLowerCase() === `${h}:${port}`);
}

export function allowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true; // same-origin navigations and non-browser clients send none
  return LOOPBACK_HOSTS.some((h) => origin.toLowerCase() === `http://${h}:${port}`);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The cookie that replaces the URL token after the first visit. Port-specific: cookies ignore ports. */
export function sessionCookie(cfg: GuardConfig): string {
  return `${cfg.cookieName}=${encodeURIComponent(cfg.token)}; HttpOnly; SameSite=Strict; Path=/`;
}

export function guardRequest(req: Pick<IncomingMessage, 'headers' | 'url'>, cfg: GuardConfig): GuardDecision {
  if (!allowedHost(req.headers.host, cfg.port)) {
    return { allow: false, status: 403, reason: `Host "${req.headers.host ?? ''}" is not this web host` };
  }
  const origin = req.headers.origin;
  if (!allowedOrigin(typeof origin === 'string' ? origin : undefined, cfg.port)) {
    return { allow: false, status: 403, reason: `Origin "${String(origin)}" is not allowed` };
  }
  if (tokenMatches(readCookie(req.headers.cookie, cfg.cookieName), cfg.token)) {
    return { allow: true, via: 'cookie', setCookie: false };
  }
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ') && tokenMatches(auth.slice(7), cfg.token)) {
    return { allow: true, via: 'bearer', setCookie: false };
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (tokenMatches(url.searchParams.get('token'), cfg.token)) {
    return { allow: true, via: 'token', setCookie: true };
  }
  return {
    allow: false,
    status: 401,
    reason: 'Missing or wrong access token: open the URL that `acp-workbench web` printed',
  };
}
