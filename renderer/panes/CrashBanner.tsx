import { useState } from 'react';
import type { AgentAuthView } from '../../common/api/auth-types';
import type { LiveSessionSummary } from '../../common/api/session-api-types';
import { api, errorText } from '../api/api-context';
import { AuthMethods } from '../auth/AuthMethods';
import { drafts } from '../composer/drafts';
import { layout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';

/**
 * A crashed agent: what happened, the tail of its stderr, and a restart that opens a new session in
 * its place. When the restarted agent wants a login first, its methods are offered here.
 */
export function CrashBanner({ sessionId }: { sessionId: string }) {
  const status = useSessions((s) => s.views[sessionId]?.summary.status);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [auth, setAuth] = useState<AgentAuthView | null>(null);
  if (status?.status !== 'crashed') return null;
  const replaced = (fresh: LiveSessionSummary) => {
    drafts.move(sessionId, fresh.sessionId);
    layout.replace(sessionId, fresh.sessionId);
  };
  const restart = async (authMethodId?: string) => {
    setBusy(true);
    setError(null);
    try {
      replaced(await api().request('session/restart', { sessionId, ...(authMethodId ? { authMethodId } : {}) }));
    } catch (err) {
      setError(errorText(err));
      const e = err as { code?: string; data?: AgentAuthView };
      setAuth(e.code === 'auth_required' && e.data ? e.data : null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="crash-banner" role="alert" data-testid="crash-banner">
      <div className="crash-reason" data-testid="crash-reason">
        {status.reason ?? 'The agent stopped.'}
      </div>
      {status.stderrTail?.length ? (
        <pre className="stderr-tail" data-testid="crash-stderr">
          {status.stderrTail.join('\n')}
        </pre>
      ) : null}
      <div className="row">
        <button type="button" className="primary" onClick={() => void restart()} disabled={busy} data-testid="restart-session">
          {busy ? 'Restarting…' : 'Restart agent'}
        </button>
        {error && (
          <span className="error" data-testid="restart-error">
            {error}
          </span>
        )}
      </div>
      {auth && <AuthMethods view={auth} target={{ sessionId }} busy={busy} restartSession onAuthenticate={(methodId) => void restart(methodId)} onSession={replaced} />}
    </div>
  );
}
