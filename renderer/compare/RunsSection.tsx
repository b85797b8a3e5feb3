import { runs, useRuns } from './runs-store';
import './compare.css';

const when = (iso: string) => {
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
};

/** The sidebar's "Runs": every compare run (history); a click opens its comparison. */
export function RunsSection() {
  const order = useRuns((s) => s.order);
  const all = useRuns((s) => s.runs);
  const active = useRuns((s) => s.activeRunId);
  return (
    <section className="sidebar-section runs-section" data-testid="runs-section">
      <div className="runs-section-head">
        <h2>Runs</h2>
        <button type="button" className="icon" onClick={() => runs.openNewRun()} data-testid="new-compare-run" title="New compare run: one prompt to several agents" aria-label="New compare run">
          + Compare
        </button>
      </div>
      {order.length === 0 ? (
        <p className="muted small" data-testid="runs-empty">
          No compare runs yet.
        </p>
      ) : (
        <ul className="run-list" data-testid="run-list">
          {order.map((id) => {
            const r = all[id];
            if (!r) return null;
            return (
              <li key={id}>
                <button
                  type="button"
                  className={`run-item${active === id ? ' active' : ''}`}
                  data-testid="run-item"
                  data-run-id={id}
                  data-status={r.status}
                  onClick={() => {
                    runs.openComparison(id);
                    if (r.live) runs.setActive(id);
                  }}
                  title={`${r.prompt}\n${r.project}`}
                >
                  <span className={`run-dot run-status-${r.status}`} aria-hidden="true" />
                  <span className="run-item-label">
                    <span className="run-item-agents">{r.agents.map((a) => a.label).join(' · ')}</span>
                    <span className="run-item-prompt muted">
                      {when(r.createdAt)} · {r.status}
                      {r.prompt ? ` · ${r.prompt}` : ''}
                    </span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
