import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { HistorySessionView, HistorySnippetView, HistoryStatus } from '../../common/api/history-types';
import { api, errorText } from '../api/api-context';
import { Highlighted } from './Highlighted';
import { historyUi, useHistoryUi } from './history-store';
import { AgentSessions } from './AgentSessions';
import { HistoryPreviewPane } from './HistoryPreview';
import { counted } from '../../common/text/counted';
import { describeIndexProgress, indexProgressShare } from '../../common/text/index-progress-text';
import { formatCost } from '../../common/text/cost';
import { formatTokens } from '../../common/text/tokens';

const PAGE = 200;
const ROW_HEIGHT = 68;

interface Row {
  session: HistorySessionView;
  snippets?: HistorySnippetView[];
}

const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Every recorded session: a virtualized list (search with highlighted snippets, filters), a
 * read-only preview, and the actions (resume, fork, rename, tag, export, delete, import).
 */
export function HistoryScreen() {
  const open = useHistoryUi((s) => s.open);
  const selected = useHistoryUi((s) => s.selected);
  const version = useHistoryUi((s) => s.version);
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<HistoryStatus | ''>('');
  const [agent, setAgent] = useState('');
  const [hasChanges, setHasChanges] = useState(false);
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [agentSide, setAgentSide] = useState(false);
  const list = useRef<HTMLDivElement>(null);

  const filters = useMemo(
    () => ({ ...(status ? { status } : {}), ...(agent.trim() ? { agent: agent.trim() } : {}), ...(hasChanges ? { hasChanges: true } : {}) }),
    [status, agent, hasChanges],
  );

  useEffect(() => {
    if (!open) return;
    let stale = false;
    setLoading(true);
    const timer = setTimeout(() => {
      const request = query.trim()
        ? api()
            .request('history/search', { query: query.trim(), limit: PAGE, ...filters })
            .then((r) => ({ rows: r.hits.map((h) => ({ session: h.session, snippets: h.snippets })), total: r.total }))
        : api()
            .request('history/list', { limit: PAGE, ...filters })
            .then((w) => ({ rows: w.items.map((session) => ({ session })), total: w.total ?? w.items.length }));
      request
        .then((r) => {
          if (stale) return;
          setRows(r.rows);
          setTotal(r.total);
          setError(null);
          if (!useHistoryUi.getState().selected && r.rows[0]) historyUi.select(r.rows[0].session.id);
        })
        .catch((err: unknown) => !stale && setError(errorText(err)))
        .finally(() => !stale && setLoading(false));
    }, 150);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [open, query, filters, version]);

  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => list.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  if (!open) return null;

  const index = rows.findIndex((r) => r.session.id === selected);
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') return historyUi.close();
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const next = Math.max(0, Math.min(rows.length - 1, index + (e.key === 'ArrowDown' ? 1 : -1)));
    const row = rows[next];
    if (row) {
      historyUi.select(row.session.id);
      virtual.scrollToIndex(next);
    }
  };

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const r = await api().request('history/import', { fileName: file.name, text: await file.text() });
      historyUi.changed();
      const added = r.sessions.filter((s) => s.status !== 'present').length;
      setError(added ? null : 'Those sessions are already in history.');
      if (r.sessions[0]) historyUi.select(r.sessions[0].id);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <div className="history-screen" role="dialog" aria-label="History" data-testid="history-screen" onKeyDown={onKeyDown}>
      <header className="history-header">
        <h2>History</h2>
        <input
          className="history-search"
          aria-label="Search history"
          placeholder="Search prompts, answers, tool output, file paths…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="history-search"
          autoFocus
        />
        <input className="history-filter" aria-label="Filter by agent" placeholder="Agent" value={agent} onChange={(e) => setAgent(e.target.value)} data-testid="history-filter-agent" />
        <select value={status} aria-label="Filter by status" onChange={(e) => setStatus(e.target.value as HistoryStatus | '')} data-testid="history-filter-status">
          <option value="">Any status</option>
          <option value="ended">Ended</option>
          <option value="running">Running</option>
          <option value="interrupted">Interrupted</option>
          <option value="crashed">Crashed</option>
          <option value="failed">Failed</option>
        </select>
        <label className="inline small">
          <input type="checkbox" checked={hasChanges} onChange={(e) => setHasChanges(e.target.checked)} data-testid="history-filter-changes" />
          changed files
        </label>
        <button type="button" onClick={() => setAgentSide((v) => !v)} aria-pressed={agentSide} data-testid="history-agent-side" title="Sessions an agent keeps itself (session/list), also ones started outside the workbench">
          Agent’s sessions
        </button>
        <label className="button" title="Import a trace file (.jsonl) into history">
          <input type="file" accept=".jsonl,application/jsonl,text/plain" hidden data-testid="history-import" onChange={(e) => void importFile(e.target.files?.[0]).then(() => (e.target.value = ''))} />
          Import…
        </label>
        <button type="button" onClick={() => historyUi.close()} data-testid="history-close" title="Close (Esc)">
          ✕
        </button>
      </header>
      <IndexingBar />
      {error && (
        <p className="error history-error" role="alert" data-testid="history-error">
          {error}
        </p>
      )}
      <div className="history-body">
        <div className="history-list" ref={list} tabIndex={0} data-testid="history-list" data-count={rows.length} data-total={total} aria-busy={loading}>
          {rows.length === 0 &&
            (loading ? (
              <p className="muted history-empty" data-testid="history-loading">
                {query ? 'Searching…' : 'Loading sessions…'}
              </p>
            ) : (
              <p className="muted history-empty" data-testid="history-empty">
                {query ? 'Nothing matches.' : 'No sessions recorded yet.'}
              </p>
            ))}
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {virtual.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              const s = row.session;
              const snippet = row.snippets?.[0];
              return (
                <button
                  type="button"
                  key={s.id}
                  className={`history-row${s.id === selected ? ' selected' : ''}`}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                  onClick={() => historyUi.select(s.id)}
                  onDoubleClick={() => historyUi.select(s.id)}
                  data-testid="history-row"
                  data-session-id={s.id}
                  data-status={s.status}
                  data-origin={s.origin}
                >
                  <span className="history-row-top">
                    <span className="history-row-title">{s.title || '(untitled)'}</span>
                    <span className={`history-status status-${s.status}`}>{s.status}</span>
                  </span>
                  <span className="history-row-meta muted small">
                    {s.agent.name ?? s.agent.label} · {s.cwd ?? ''} · {when(s.updatedMs)} · {counted(s.turns, 'turn')}
                    {s.tokens ? ` · ${formatTokens(s.tokens)} tokens` : ''}
                    {s.cost ? ` · ${formatCost(s.cost.amount, s.cost.currency)}` : ''}
                    {s.lineage?.relation ? ` · ${s.lineage.relation}` : ''}
                  </span>
                  {snippet && (
                    <span className="history-snippet small" data-testid="history-snippet">
                      <Highlighted text={snippet.text} ranges={snippet.highlights} />
                    </span>
                  )}
                </button>
              );
            })}
          </div>
        </div>
        <div className="history-preview">
          {agentSide && <AgentSessions />}
          {selected ? <HistoryPreviewPane id={selected} /> : <p className="muted">Select a session.</p>}
        </div>
      </div>
    </div>
  );
}

/** A long catch-up of the index (a rebuild, a big first look) as it goes, then what it did. */
function IndexingBar() {
  const p = useHistoryUi((s) => s.indexing);
  if (!p) return null;
  const share = indexProgressShare(p);
  return (
    <div className="history-indexing" data-testid="history-indexing" data-done={p.done} data-writing={p.writing} data-traces-done={p.tracesDone} data-traces-total={p.tracesTotal} role="status">
      <span className="small">
        {describeIndexProgress(p)}
        {p.done ? '.' : '…'}
      </span>
      {!p.done && (
        <div className="history-indexing-bar" role="progressbar" aria-label="Indexing history" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)}>
          <div style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
      )}
    </div>
  );
}
