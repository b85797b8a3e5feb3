import { useConnection } from '../state/connection-store';
import { layout, useLayout } from '../state/layout-store';
import { toggleSidebar } from './sidebar-toggle';
import { useSessions } from '../state/sessions-store';
import { counted } from '../../common/text/counted';
import { statusNote, useStatusNote } from '../state/status-note';

const STATE_LABEL = { connecting: 'Connecting…', open: 'Connected', closed: 'Disconnected — retrying' } as const;

export function StatusBar() {
  const state = useConnection((s) => s.state);
  const transport = useConnection((s) => s.transport);
  const info = useConnection((s) => s.info);
  const counts = useSessions((s) => {
    let running = 0;
    let waiting = 0;
    for (const v of Object.values(s.views)) {
      if (v.summary.status.status === 'prompting' || v.summary.status.status === 'waiting') running++;
      waiting += v.summary.waiting;
    }
    return `${Object.keys(s.views).length}|${running}|${waiting}`;
  });
  const [total, running, waiting] = counts.split('|').map(Number) as [number, number, number];
  const note = useStatusNote((s) => s.note);
  const sidebarHidden = useLayout((s) => s.sidebarHidden);
  return (
    <footer className="status-bar" data-testid="status-bar">
      {sidebarHidden && (
        <button
          type="button"
          className="status-sidebar"
          data-testid="sidebar-show"
          title="Show the sidebar (Ctrl+B): sessions, runs, New session, History, Settings"
          onClick={() => toggleSidebar(false)}
        >
          ☰ Sidebar{waiting ? ` (${waiting} waiting)` : ''}
        </button>
      )}
      <span className={`status-dot status-${state === 'open' ? 'ready' : state === 'closed' ? 'crashed' : 'starting'}`} aria-hidden="true" />
      <span data-testid="status-connection" data-state={state}>
        {STATE_LABEL[state]}
        {transport ? ` (${transport === 'electron' ? 'desktop' : 'web'})` : ''}
      </span>
      {total > 0 && (
        <span data-testid="status-sessions">
          {counted(total, 'session')}
          {running ? `, ${running} working` : ''}
          {waiting ? `, ${waiting} waiting for you` : ''}
        </span>
      )}
      <span className="spacer" />
      {note && (
        <span className={`status-note status-note-${note.kind}`} role={note.kind === 'error' ? 'alert' : 'status'} data-testid="status-note" data-kind={note.kind} title={note.text}>
          <span className="status-note-text">{note.text}</span>
          <button type="button" className="icon" aria-label="Dismiss" onClick={() => statusNote.dismiss()} data-testid="status-note-dismiss">
            ×
          </button>
        </span>
      )}
      <button type="button" className="status-sidebar" data-testid="shortcuts-open" title="Keyboard shortcuts (Ctrl+/)" onClick={() => layout.openShortcuts()}>
        ⌨ Shortcuts
      </button>
      {info && <span data-testid="status-version">v{info.version}</span>}
    </footer>
  );
}
