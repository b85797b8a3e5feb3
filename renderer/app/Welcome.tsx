import { useState } from 'react';
import { api, errorText } from '../api/api-context';
import { layout } from '../state/layout-store';
import { useConnection } from '../state/connection-store';
import { RecentSessions } from './RecentSessions';
import { runs } from '../compare/runs-store';
import { historyUi } from '../history/history-store';

/** A demo session in the demo's own scratch folder, in one click. */
async function startDemo(onError: (message: string | null) => void): Promise<void> {
  onError(null);
  try {
    const { path } = await api().request('agents/demo-workspace');
    const summary = await api().request('sessions/start', { agent: { agentId: 'demo' }, cwd: path, policy: 'ask' });
    layout.show(summary.sessionId);
  } catch (err) {
    onError(errorText(err));
  }
}

export function Welcome() {
  const info = useConnection((s) => s.info);
  const error = useConnection((s) => s.error);
  const [demoError, setDemoError] = useState<string | null>(null);
  return (
    <section className="welcome" data-testid="welcome">
      <h1>ACP Workbench</h1>
      <p>Run coding agents that speak the Agent Client Protocol side by side, compare what they did, and inspect every message.</p>
      <p>
        <button type="button" className="primary" onClick={() => layout.openNewSession()} data-testid="welcome-new-session">
          Start a session
        </button>{' '}
        <button type="button" onClick={() => void startDemo(setDemoError)} data-testid="welcome-demo">
          Try the demo agent
        </button>{' '}
        <button type="button" onClick={() => runs.openNewRun(true)} data-testid="welcome-compare" title="One prompt to several agents, each in its own copy of the project, then a comparison of what each did">
          Compare agents…
        </button>{' '}
        <button type="button" onClick={() => historyUi.open()} data-testid="welcome-history" title="Every recorded session: search, resume, fork, what it changed (Ctrl+H)">
          History
        </button>
      </p>
      <p className="muted">
        The demo agent is scripted (no model, no network): it shows a plan, a tool call with a diff, a permission request and a terminal in a scratch folder. Ctrl+Shift+P lists every command, Ctrl+/ every keyboard shortcut.
      </p>
      {demoError && (
        <p className="error" role="alert" data-testid="welcome-demo-error">
          {demoError}
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="welcome-error">
          Could not reach the workbench core: {error}
        </p>
      )}
      <RecentSessions />
      {info && (
        <dl className="facts" data-testid="welcome-facts">
          <dt>Version</dt>
          <dd data-testid="app-version">{info.version}</dd>
          <dt>Running in</dt>
          <dd data-testid="app-host">{info.host}</dd>
          <dt>Data folder</dt>
          <dd data-testid="app-data-dir">{info.dataDir}</dd>
        </dl>
      )}
    </section>
  );
}
