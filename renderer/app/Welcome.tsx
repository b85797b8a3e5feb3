import { layout } from '../state/layout-store';
import { useConnection } from '../state/connection-store';

export function Welcome() {
  const info = useConnection((s) => s.info);
  const error = useConnection((s) => s.error);
  return (
    <section className="welcome" data-testid="welcome">
      <h1>ACP Workbench</h1>
      <p>Run coding agents that speak the Agent Client Protocol side by side, compare what they did, and inspect every message.</p>
      <p>
        <button type="button" className="primary" onClick={() => layout.openNewSession()} data-testid="welcome-new-session">
          Start a session
        </button>
        <span className="muted"> — try the demo agent if you have no agent installed. Ctrl+Shift+P lists every command.</span>
      </p>
      {error && (
        <p className="error" role="alert" data-testid="welcome-error">
          Could not reach the workbench core: {error}
        </p>
      )}
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
