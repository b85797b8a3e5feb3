import { useEffect, useState } from 'react';
import type { HistorySessionView } from '../../common/api/history-types';
import { baseName } from '../../common/text/base-name';
import { counted } from '../../common/text/counted';
import { api, errorText } from '../api/api-context';
import { historyUi, useHistoryUi } from '../history/history-store';
import { useRunningHere } from '../history/running-here';
import { useConnected } from '../state/connection-store';
import { layout } from '../state/layout-store';
import { sessionAge } from './session-age';

/** How many of the last recorded sessions the welcome screen lists. */
export const RECENT_SESSIONS = 5;

/**
 * The last sessions recorded, on the welcome screen (no pane open: a fresh start, or every pane
 * closed): resume one where it stopped in a click, or open it in History. What the workbench did
 * before a restart is one step away instead of behind a screen and a search.
 */
export function RecentSessions() {
  const connected = useConnected();
  const version = useHistoryUi((s) => s.version);
  const [sessions, setSessions] = useState<HistorySessionView[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ id: string; text: string } | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!connected) return undefined;
    let stale = false;
    api()
      .request('history/list', { limit: RECENT_SESSIONS })
      .then((page) => {
        if (stale) return;
        setSessions(page.items.filter((s) => s.origin === 'workbench'));
        setNow(Date.now());
      })
      .catch(() => !stale && setSessions([])); // History has its own screen to say what is wrong.
    return () => {
      stale = true;
    };
  }, [connected, version]);

  if (!sessions?.length) return null;

  const resume = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      const result = await api().request('history/resume', { id });
      layout.show(result.live.sessionId);
      historyUi.changed();
    } catch (err) {
      setError({ id, text: errorText(err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="recent-sessions" aria-labelledby="recent-sessions-title" data-testid="recent-sessions">
      <h2 id="recent-sessions-title">Recent sessions</h2>
      <ul>
        {sessions.map((s) => (
          <RecentSession key={s.id} session={s} now={now} busy={busy} error={error?.id === s.id ? error.text : null} resume={resume} />
        ))}
      </ul>
    </section>
  );
}

function RecentSession({ session: s, now, busy, error, resume }: { session: HistorySessionView; now: number; busy: string | null; error: string | null; resume: (id: string) => void }) {
  const running = useRunningHere(s.id);
  return (
    <li data-testid="recent-session" data-session-id={s.id}>
      <div className="recent-session-text">
        <span className="recent-session-title">{s.title || '(untitled)'}</span>
        <span className="muted small" title={s.cwd}>
          {s.agent.name ?? s.agent.label} · {sessionAge(s.updatedMs, now)} · {counted(s.turns, 'turn')}
          {s.cwd ? ` · in ${baseName(s.cwd)}` : ''}
        </span>
        {error && (
          <span className="error small" role="alert" data-testid="recent-session-error">
            Could not resume it: {error}
          </span>
        )}
      </div>
      {running ? (
        <button type="button" onClick={() => layout.show(s.id)} data-testid="recent-session-show" title="This session is still running here: show its pane">
          Show
        </button>
      ) : (
        <button type="button" disabled={busy !== null} onClick={() => resume(s.id)} data-testid="recent-session-resume" title="Continue this session live">
          {busy === s.id ? 'Resuming…' : 'Resume'}
        </button>
      )}
      <button type="button" onClick={() => historyUi.open(s.id)} data-testid="recent-session-open">
        Open in History
      </button>
    </li>
  );
}
