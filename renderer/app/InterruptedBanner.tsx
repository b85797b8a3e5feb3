import { useEffect } from 'react';
import { useConnection } from '../state/connection-store';
import { interruptedSessions, useInterrupted } from './interrupted-sessions';

/** After connecting, not on start-up's path: the history index may take a moment to open. */
const LOOK_AFTER_MS = 1000;

/** Above the panes: the sessions the workbench was running when it last stopped without closing them. */
export function InterruptedBanner() {
  const connected = useConnection((s) => s.info !== null);
  const offers = useInterrupted((s) => s.offers);
  const busy = useInterrupted((s) => s.busy);
  const error = useInterrupted((s) => s.error);
  useEffect(() => {
    if (!connected) return;
    const timer = setTimeout(() => void interruptedSessions.lookOnce(), LOOK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [connected]);
  if (offers.length === 0) return null;
  const names = offers.slice(0, 3).map((s) => `“${s.title || s.id}”`);
  const more = offers.length > 3 ? ` and ${offers.length - 3} more` : '';
  return (
    <div className="interrupted-banner" role="status" data-testid="interrupted-banner" data-count={offers.length}>
      <div className="row wrap">
        <span>
          <strong>
            {offers.length === 1 ? 'A session was' : `${offers.length} sessions were`} cut off when the workbench last stopped:
          </strong>{' '}
          {names.join(', ')}
          {more}.
        </span>
        <span className="spacer" />
        <button type="button" className="primary" disabled={busy} onClick={() => void interruptedSessions.resumeAll()} data-testid="interrupted-resume-all" title="Continue each where it stopped (session/resume, else session/load, else a new session primed with its transcript)">
          {busy ? 'Resuming…' : offers.length === 1 ? 'Resume it' : 'Resume all'}
        </button>
        <button type="button" disabled={busy} onClick={() => interruptedSessions.showInHistory()} data-testid="interrupted-show">
          Show in History
        </button>
        <button type="button" disabled={busy} onClick={() => void interruptedSessions.dismiss()} data-testid="interrupted-dismiss" title="Do not offer these again (they stay in History)">
          Dismiss
        </button>
      </div>
      {error && (
        <p className="error small" role="alert" data-testid="interrupted-error">
          {error}
        </p>
      )}
    </div>
  );
}
