/**
 * What an agent advertised in `initialize`, asked the way the rest of the core needs it: may we
 * call this method, may we send this content. Omitted means unsupported (acp-reference §1).
 */
import type { ContentBlock, InitializeResponse } from '@agentclientprotocol/sdk/unstable';

export type SessionMethod =
  | 'session/load'
  | 'session/resume'
  | 'session/fork'
  | 'session/list'
  | 'session/close'
  | 'session/delete';

type Json = Record<string, unknown>;

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== false;

export function advertises(init: InitializeResponse, method: SessionMethod | 'logout'): boolean {
  const caps = (init.agentCapabilities ?? {}) as Json;
  const session = (caps.sessionCapabilities ?? {}) as Json;
  switch (method) {
    case 'session/load':
      return caps.loadSession === true;
    case 'session/resume':
      return present(session.resume);
    case 'session/fork':
      return present(session.fork);
    case 'session/list':
      return present(session.list);
    case 'session/close':
      return present(session.close);
    case 'session/delete':
      return present(session.delete);
    case 'logout':
      return present(((caps.auth ?? {}) as Json).logout);
  }
}

/** The capability path that gates each method, for error messages. */
export const CAPABILITY_OF: Record<SessionMethod | 'logout', string> = {
  'session/load': 'agentCapabilities.loadSession',
  'session/resume': 'agentCapabilities.sessionCapabilities.resume',
  'session/fork': 'agentCapabilities.sessionCapabilities.fork',
  'session/list': 'agentCapabilities.sessionCapabilities.list',
  'session/close': 'agentCapabilities.sessionCapabilities.close',
  'session/delete': 'agentCapabilities.sessionCapabilities.delete',
  logout: 'agentCapabilities.auth.logout',
};

/** Content blocks the agent did not advertise; `text` and `resource_link` are always allowed. */
export function unadvertisedContent(init: InitializeResponse, prompt: readonly ContentBlock[]): string[] {
  const p = (init.agentCapabilities?.promptCapabilities ?? {}) as Json;
  const gate: Record<string, string> = { image: 'image', audio: 'audio', resource: 'embeddedContext' };
  const refused = new Set<string>();
  for (const block of prompt) {
    const flag = gate[block.type];
    if (flag && p[flag] !== true) refused.add(block.type);
  }
  return [...refused];
}

export function acceptsMcpTransport(init: InitializeResponse, transport: 'stdio' | 'http' | 'sse'): boolean {
  if (transport === 'stdio') return true;
  return ((init.agentCapabilities?.mcpCapabilities ?? {}) as Json)[transport] === true;
}

/**
 * A method the workbench will not send: the agent did not advertise it, or it already answered
 * `-32601` on this connection (acp-reference §22.22: probe once, then remember).
 */
export class MethodUnavailableError extends Error {
  readonly code = -32601;
  constructor(
    readonly agent: string,
    readonly method: string,
    readonly reason: 'not_advertised' | 'unsupported',
  ) {
    super(
      reason === 'not_advertised'
        ? `${agent} does not advertise ${method}${method in CAPABILITY_OF ? ` (${CAPABILITY_OF[method as SessionMethod]})` : ''}`
        : `${agent} answered ${method} with -32601 (method not found) earlier on this connection; not asking again`,
    );
    this.name = 'MethodUnavailableError';
  }
}

