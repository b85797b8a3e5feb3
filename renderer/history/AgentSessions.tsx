import { useEffect, useState } from 'react';
import type { HistorySessionView } from '../../common/api/history-types';
import type { CatalogAgentView } from '../../common/api/session-api-types';
import { api, errorText } from '../api/api-context';
import { layout } from '../state/layout-store';
import { historyUi } from './history-store';

/**
 * The sessions an agent itself keeps for a folder (`session/list`, also ones started outside the
 * workbench), merged with ours and marked by origin; paged with the agent's cursor; opening one
 * loads or resumes it into a live pane.
 */
export function AgentSessions() {
  const [agents, setAgents] = useState<CatalogAgentView[]>([]);
  const [agentId, setAgentId] = useState('');
  const [cwd, setCwd] = useState('');
  const [items, setItems] = useState<HistorySessionView[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [listed, setListed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void api()
      .request('agents/catalog')
      .then((list) => {
        setAgents(list);
        setAgentId((id) => id || list.find((a) => !a.demo)?.id || list[0]?.id || '');
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, []);

  const load = async (more: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const page = await api().request('history/agent-sessions', { agent: { agentId }, cwd, ...(more && cursor ? { cursor } : {}) });
      setItems((old) => (more ? [...old, ...page.items] : page.items));
      setCursor(page.nextCursor);
      setListed(true);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const open = async (s: HistorySessionView) => {
    setError(null);
    try {
      if (s.origin === 'workbench') return historyUi.select(s.id);
      const live = await api().request('history/open-agent-session', { agent: { agentId }, cwd, agentSessionId: s.agentSessionId! });
      layout.show(live.sessionId);
      historyUi.close();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="agent-sessions" data-testid="agent-sessions">
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void load(false);
        }}
      >
        <select value={agentId} onChange={(e) => setAgentId(e.target.value)} data-testid="agent-sessions-agent" aria-label="Agent">
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
        <input value={cwd} onChange={(e) => setCwd(e.target.value)} placeholder="/absolute/project/folder" data-testid="agent-sessions-cwd" aria-label="Folder" required />
        <button type="submit" disabled={busy || !agentId} data-testid="agent-sessions-list">
          {busy ? 'Asking the agent…' : 'List its sessions'}
        </button>
      </form>
      {error && (
        <p className="error small" role="alert" data-testid="agent-sessions-error">
          {error}
        </p>
      )}
      {listed && items.length === 0 && <p className="muted small">The agent has no sessions for this folder.</p>}
      <ul className="agent-sessions-list">
        {items.map((s) => (
          <li key={s.id} data-testid="agent-session" data-origin={s.origin} data-agent-session-id={s.agentSessionId ?? ''}>
            <span className={`origin origin-${s.origin}`}>{s.origin === 'agent' ? 'agent' : 'recorded'}</span>
            <span className="agent-session-title">{s.title}</span>
            <button type="button" onClick={() => void open(s)} data-testid="agent-session-open">
              {s.origin === 'agent' ? 'Open' : 'Show'}
            </button>
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" disabled={busy} onClick={() => void load(true)} data-testid="agent-sessions-more">
          More
        </button>
      )}
    </section>
  );
}
