export function Sidebar() {
  return (
    <nav className="sidebar" data-testid="sidebar" aria-label="Agents and sessions">
      <div className="sidebar-title">ACP Workbench</div>
      <section className="sidebar-section">
        <h2>Agents</h2>
        <p className="muted" data-testid="sidebar-agents-empty">
          No agents configured yet.
        </p>
      </section>
      <section className="sidebar-section">
        <h2>Recent sessions</h2>
        <p className="muted">No sessions recorded yet.</p>
      </section>
    </nav>
  );
}
