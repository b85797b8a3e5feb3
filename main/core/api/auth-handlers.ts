import type { AgentAuth } from '../sessions/agent-auth';
import type { RequestHandlers } from './handlers';

type AuthRequests = Pick<
  RequestHandlers,
  'agents/auth-methods' | 'agents/authenticate' | 'auth/terminal-start' | 'auth/terminal-input' | 'auth/terminal-resize' | 'auth/terminal-kill'
>;

/** Agent logins (common/api/auth-types.ts); the work is in sessions/agent-auth.ts. */
export function authHandlers(auth: AgentAuth): AuthRequests {
  return {
    'agents/auth-methods': (p) => auth.methods(p),
    'agents/authenticate': (p) => auth.authenticate(p),
    'auth/terminal-start': (p) => auth.startTerminal(p),
    'auth/terminal-input': (p) => auth.input(p?.loginId, p?.data),
    'auth/terminal-resize': (p) => auth.resize(p?.loginId, p?.cols, p?.rows),
    'auth/terminal-kill': (p) => auth.kill(p?.loginId),
  };
}
