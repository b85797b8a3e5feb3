import { useState } from 'react';
import { api, errorText } from '../api/api-context';
import { layout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';

/** A crashed agent: what happened, the tail of its stderr, and a restart that opens a new session in its place. */
export function CrashBanner({ sessionId }: { sessionId: string }) {
  const status = useSessions((s) => s.views[sessionId]?.summary.status);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (status?.status !== 'crashed') return null;
  const restart = async () => {
    setBusy(true);
    setError(null);
    try {
      const fresh = await api().request('session/restart', { sessionId });
      layout.replace(sessionId, fresh.sessionId);
    } catch (err) {
      setError(errorText(err));
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
        {error && <span className="error">{error}</span>}
      </div>
    </div>
  );
}
