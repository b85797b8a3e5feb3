import { historyUi } from '../history/history-store';
import { layout, useLayout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';
import { StatusBadge } from '../panes/StatusBadge';
import { RunsSection } from '../compare/RunsSection';
import { settingsUi } from '../settings/settings-store';
import { baseName } from '../../common/text/base-name';
import { toggleSidebar } from './sidebar-toggle';

/** Live sessions with their status and a badge when they wait for the user. */
export function Sidebar() {
  const order = useSessions((s) => s.order);
  return (
    <nav className="sidebar" data-testid="sidebar" aria-label="Sessions">
      <div className="sidebar-head">
        <h1 className="sidebar-title">ACP Workbench</h1>
        <button type="button" className="icon" data-testid="sidebar-hide" aria-label="Hide the sidebar" title="Hide the sidebar (Ctrl+B): the panes take the whole width" onClick={() => toggleSidebar(true)}>
          «
        </button>
      </div>
      <div className="sidebar-actions">
        <button type="button" className="primary" data-testid="new-session" onClick={() => layout.openNewSession()} title="New session (Ctrl+N)">
          New session
        </button>
        <button type="button" data-testid="open-agents" onClick={() => layout.openAgents()} title="Agents: the catalog and your custom agents">
          Agents
        </button>
        <button type="button" data-testid="open-history" onClick={() => historyUi.open()} title="History: every recorded session (Ctrl+H)">
          History
        </button>
        <button type="button" data-testid="open-settings" onClick={() => settingsUi.openScreen()} title="Settings: defaults for new sessions, capabilities, theme, MCP servers, secrets (Ctrl+,)">
          Settings
        </button>
      </div>
      <section className="sidebar-section">
        <h2>Sessions</h2>
        {order.length === 0 ? (
          <p className="muted" data-testid="sidebar-empty">
            No sessions yet. Start one with an agent.
          </p>
        ) : (
          <ul className="session-list" data-testid="session-list">
            {order.map((id) => (
              <SidebarItem key={id} sessionId={id} />
            ))}
          </ul>
        )}
      </section>
      <RunsSection />
    </nav>
  );
}

function SidebarItem({ sessionId }: { sessionId: string }) {
  const summary = useSessions((s) => s.views[sessionId]?.summary);
  const shown = useLayout((s) => s.panes.includes(sessionId));
  const focused = useLayout((s) => s.focused === sessionId);
  if (!summary) return null;
  const name = summary.title ?? summary.firstPrompt;
  return (
    <li>
      <button
        type="button"
        className={`session-item${focused ? ' focused' : ''}${shown ? ' shown' : ''}`}
        data-testid="session-item"
        data-session-id={sessionId}
        data-status={summary.status.status}
        title={name ? `${name}\n${summary.cwd}` : summary.cwd}
        onClick={() => layout.show(sessionId)}
      >
        <StatusBadge status={summary.status.status} />
        <span className="session-item-label">
          <span className="session-item-agent">
            {summary.run ? `${summary.run.label} · ` : ''}
            {summary.agent.name ?? summary.agent.label}
          </span>
          <span className="session-item-title muted">{name ?? baseName(summary.cwd)}</span>
        </span>
        {summary.waiting > 0 && (
          <span className="badge attention" data-testid="session-waiting-badge" title={`${summary.waiting} permission request(s) waiting`}>
            {summary.waiting}
          </span>
        )}
      </button>
    </li>
  );
}
