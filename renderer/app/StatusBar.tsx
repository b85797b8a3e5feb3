import { useConnection } from '../state/connection-store';

const STATE_LABEL = { connecting: 'Connecting…', open: 'Connected', closed: 'Disconnected — retrying' } as const;

export function StatusBar() {
  const state = useConnection((s) => s.state);
  const transport = useConnection((s) => s.transport);
  const info = useConnection((s) => s.info);
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span className={`status-dot status-${state}`} aria-hidden="true" />
      <span data-testid="status-connection" data-state={state}>
        {STATE_LABEL[state]}
        {transport ? ` (${transport === 'electron' ? 'desktop' : 'web'})` : ''}
      </span>
      <span className="spacer" />
      {info && <span data-testid="status-version">v{info.version}</span>}
    </footer>
  );
}
