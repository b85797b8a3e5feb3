/**
 * Authentication as the agent offers it (acp-reference §13): `agent`-type methods are run with
 * `authenticate`; `terminal`-type ones are a login the user runs in a terminal, never sent to
 * `authenticate`. A `-32000` from a session method means "log in first": the error the user sees
 * lists what the agent offers, so the next step is obvious.
 */
import type { AuthMethod, InitializeResponse } from '@agentclientprotocol/sdk/unstable';

export const AUTH_REQUIRED = -32000;

export function authMethodsOf(init: InitializeResponse | undefined): AuthMethod[] {
  return Array.isArray(init?.authMethods) ? init.authMethods : [];
}

/** `type` absent means `agent` (the schema's default). */
export function isAgentAuthMethod(method: AuthMethod): boolean {
  const type = (method as { type?: unknown }).type;
  return type === undefined || type === null || type === 'agent';
}

/** One line per method: id, name, and how it is used. */
export function describeAuthMethods(methods: readonly AuthMethod[]): string {
  if (methods.length === 0) return 'it lists no authentication methods';
  return methods
    .map((m) => {
      const how = isAgentAuthMethod(m) ? 'authenticate' : `${String((m as { type?: unknown }).type)} login`;
      return `${m.id} (${m.name}; ${how})`;
    })
    .join(', ');
}

export function isAuthRequiredError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === AUTH_REQUIRED;
}
