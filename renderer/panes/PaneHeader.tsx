import { layout, useLayout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';
import { api } from '../api/api-context';
import { InspectorToggle } from '../inspector/InspectorToggle';
import { AgentControls } from './AgentControls';
import { StatusBadge, STATUS_LABEL } from './StatusBadge';
import { TurnTimer } from './TurnTimer';
import { UsageMeter } from './UsageMeter';
import { renaming, useRenaming } from './rename-store';

export function PaneHeader({ sessionId, index }: { sessionId: string; index: number }) {
  const summary = useSessions((s) => s.views[sessionId]?.summary);
  const session = useSessions((s) => s.views[sessionId]?.transcript.session);
  const selected = useLayout((s) => s.selected.includes(sessionId));
  const paneCount = useLayout((s) => s.panes.length);
  const editing = useRenaming((s) => s.sessionId === sessionId);
  if (!summary) return null;
  const title = session?.userTitle ?? session?.title ?? summary.title;
  // What the user titled it: the field starts from it (not from the agent's title it would freeze).
  const userTitle = session?.userTitle ?? null;
  const status = summary.status.status;
  return (
    <header className="pane-header" data-testid="pane-header">
      <div className="pane-title-row">
        <span className="pane-identity">
          <StatusBadge status={status} />
          <span className="pane-agent" data-testid="pane-agent" title={[summary.run?.label, summary.agent.name ?? summary.agent.label, summary.agent.version].filter(Boolean).join(' ')}>
            {summary.run && (
              <span className="run-label" data-testid="pane-run-label" title="This agent's label in its compare run">
                {summary.run.label}
              </span>
            )}
            {summary.agent.name ?? summary.agent.label}
            {summary.agent.version && <span className="muted"> {summary.agent.version}</span>}
          </span>
          <span className={`pane-status status-text-${status}`} data-testid="pane-status" data-status={status}>
            {STATUS_LABEL[status]}
            {summary.waiting > 0 && ` (${summary.waiting})`}
          </span>
          <TurnTimer active={status === 'prompting' || status === 'waiting'} />
        </span>
        {/* The actions never shrink or wrap inside: on a narrow pane they move to a line of their own. */}
        <span className="pane-actions">
          <label className="pane-select" title="Include this pane when sending to selected panes">
            <input type="checkbox" checked={selected} onChange={() => layout.toggleSelected(sessionId)} data-testid="pane-select" />
            <span className="sr-only">Select pane</span>
          </label>
          <button type="button" className="icon" onClick={() => layout.move(sessionId, -1)} disabled={index === 0} title="Move left" aria-label="Move left" data-testid="pane-move-left">
            ◀
          </button>
          <button type="button" className="icon" onClick={() => layout.move(sessionId, 1)} disabled={index === paneCount - 1} title="Move right" aria-label="Move right" data-testid="pane-move-right">
            ▶
          </button>
          <InspectorToggle sessionId={sessionId} />
          <button type="button" className="icon" onClick={() => layout.toggleChanges(sessionId)} title="Files changed" aria-label="Files changed" data-testid="toggle-changes">
            Δ
          </button>
          <button type="button" className="icon" onClick={() => layout.hide(sessionId)} title="Hide pane (the session keeps running)" aria-label="Hide pane (the session keeps running)" data-testid="pane-hide">
            —
          </button>
        </span>
      </div>
      {editing ? (
        <input
          className="pane-rename-input"
          data-testid="pane-rename-input"
          aria-label="Session title (Enter saves, Esc cancels; empty: the agent's title or the first prompt)"
          placeholder={session?.title ?? summary.firstPrompt ?? 'A title for this session'}
          defaultValue={userTitle ?? title ?? ''}
          maxLength={500}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void renaming.save(sessionId, e.currentTarget.value, userTitle);
            else if (e.key === 'Escape') {
              e.stopPropagation();
              renaming.stop();
            }
          }}
          onBlur={(e) => void renaming.save(sessionId, e.currentTarget.value, userTitle)}
        />
      ) : (
        title && (
          <div className="pane-session-title" data-testid="pane-session-title" title={`${title}\nDouble-click or F2 to rename`} onDoubleClick={() => renaming.start(sessionId)}>
            {title}
          </div>
        )
      )}
      <div className="pane-controls-row">
        <AgentControls sessionId={sessionId} />
        <span className="spacer" />
        <UsageMeter sessionId={sessionId} />
        {/* Apart from the view buttons above (Hide pane is one of them), and worded as what it does. */}
        <button
          type="button"
          className="danger pane-close"
          title="Close the session and stop the agent (to keep it running out of sight, hide the pane instead)"
          data-testid="pane-close"
          onClick={() => {
            layout.hide(sessionId);
            void api().request('session/close', { sessionId });
          }}
        >
          Close session
        </button>
      </div>
    </header>
  );
}
