import { useState } from 'react';
import type { AgentAuthParams, AgentAuthView, AuthMethodView } from '../../common/api/auth-types';
import type { LiveSessionSummary, StartSessionParams } from '../../common/api/session-api-types';
import { TerminalLogin } from './TerminalLogin';

interface Props {
  view: AgentAuthView;
  /** Which agent: a choice and folder, or a live session's. */
  target: AgentAuthParams;
  /** An agent-type method was picked (the parent sends authenticate, or starts again with it). */
  onAuthenticate: (methodId: string) => void;
  busy?: boolean;
  /** Passed to terminal logins: the session start to retry after exit 0. */
  retry?: StartSessionParams;
  /** With a session target: restart that session after a terminal login instead. */
  restartSession?: boolean;
  onSession?: (session: LiveSessionSummary) => void;
  onLoggedIn?: () => void;
}

/**
 * The ways an agent offers to log in (acp-reference §13), a button each: "Authenticate" for
 * agent-type methods, "Log in in terminal" for terminal-type ones (or, where the app cannot run a
 * terminal, the command to run in your own).
 */
export function AuthMethods({ view, target, onAuthenticate, busy, retry, restartSession, onSession, onLoggedIn }: Props) {
  const [terminal, setTerminal] = useState<{ methodId: string; n: number } | null>(null);
  const button = (m: AuthMethodView) => {
    if (m.kind === 'agent') {
      return (
        <button type="button" disabled={busy} data-testid="auth-method-authenticate" onClick={() => onAuthenticate(m.id)}>
          Authenticate
        </button>
      );
    }
    if (m.kind === 'terminal' && view.terminal.available) {
      return (
        <button type="button" disabled={busy} data-testid="auth-method-terminal" onClick={() => setTerminal({ methodId: m.id, n: (terminal?.n ?? 0) + 1 })}>
          Log in in terminal
        </button>
      );
    }
    return null;
  };
  return (
    <section className="auth-methods" data-testid="auth-methods" aria-label={`Log in to ${view.agent}`}>
      <h3>Log in to {view.agent}</h3>
      {view.methods.length === 0 && <p className="muted">The agent lists no way to log in; see its documentation.</p>}
      <ul>
        {view.methods.map((m) => (
          <li key={m.id} data-testid="auth-method" data-method-id={m.id} data-kind={m.kind}>
            <span className="auth-method-name">
              {m.name}
              {m.description && <span className="muted small"> — {m.description}</span>}
            </span>
            {button(m)}
            {m.kind === 'terminal' && !view.terminal.available && m.command && (
              <span className="small" data-testid="auth-method-command">
                The app cannot run this login ({view.terminal.reason ?? 'no terminal'}). Run it in your own terminal, then retry: <code>{m.command}</code>
              </span>
            )}
            {m.kind === 'other' && <span className="muted small">{m.type ?? 'this kind of'} login is not supported by the app</span>}
          </li>
        ))}
      </ul>
      {terminal && (
        <TerminalLogin
          key={terminal.n}
          target={target}
          methodId={terminal.methodId}
          {...(retry ? { retry } : {})}
          {...(restartSession ? { restartSession } : {})}
          {...(onSession ? { onSession } : {})}
          {...(onLoggedIn ? { onLoggedIn } : {})}
        />
      )}
    </section>
  );
}
