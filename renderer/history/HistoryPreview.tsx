import { useEffect, useState } from 'react';
import type { CatalogAgentView } from '../../common/api/session-api-types';
import type { HistoryPreview, LineageNodeView, LineageTreeView } from '../../common/api/history-types';
import type { Entry } from '../../common/transcript/model';
import { api, errorText } from '../api/api-context';
import { downloadText } from '../app/download-text';
import { layout } from '../state/layout-store';
// The markdown's look (.tx-md …) lives with the transcript; a preview may open before any pane loaded it.
import '../transcript/transcript.css';
import { historyUi, useHistoryUi } from './history-store';
import { relativesUi } from './relatives-store';
import { useRunningHere } from './running-here';
import { counted } from '../../common/text/counted';
import { compareRecipe } from '../compare/compare-session';
import { runs } from '../compare/runs-store';
import { recordedPrompt } from './recorded-prompt';
import { HistoryChanges } from './HistoryChanges';
import { HISTORY_PAGE, HistoryTranscript } from './HistoryTranscript';

/** A read-only preview of one recorded session, its lineage, and what can be done with it. */
export function HistoryPreviewPane({ id }: { id: string }) {
  const version = useHistoryUi((s) => s.version);
  const [preview, setPreview] = useState<HistoryPreview | null>(null);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [tree, setTree] = useState<LineageTreeView | null>(null);
  const [agents, setAgents] = useState<CatalogAgentView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('');
  const [before, setBefore] = useState<string>('end');
  const [forkAgent, setForkAgent] = useState<string>('same');
  const [title, setTitle] = useState('');
  const [tag, setTag] = useState('');
  const [agentSideDelete, setAgentSideDelete] = useState(false);
  const running = useRunningHere(id);

  useEffect(() => {
    let stale = false;
    setError(null);
    Promise.all([api().request('history/preview', { id }), api().request('history/entries', { id, limit: HISTORY_PAGE }), api().request('history/tree', { id }).catch(() => null)])
      .then(([p, w, t]) => {
        if (stale) return;
        setPreview(p);
        setEntries(w.items);
        setTree(t);
        setTitle(p.session.title);
      })
      .catch((err: unknown) => !stale && setError(errorText(err)));
    return () => {
      stale = true;
    };
  }, [id, version]);
  useEffect(() => {
    void api().request('agents/catalog').then(setAgents).catch(() => undefined);
  }, []);

  if (error) return <p className="error" role="alert">{error}</p>;
  if (!preview) return <p className="muted">Loading…</p>;
  const s = preview.session;

  const act = async (name: string, fn: () => Promise<void>) => {
    setBusy(name);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };
  const continueWith = (kind: 'resume' | 'fork') =>
    act(kind, async () => {
      const params = {
        id,
        ...(prompt.trim() ? { prompt: prompt.trim() } : {}),
        ...(kind === 'fork' && before !== 'end' ? { beforeMessage: Number(before) } : {}),
        ...(kind === 'fork' && forkAgent !== 'same' ? { agent: { agentId: forkAgent } } : {}),
      };
      const result = await api().request(kind === 'resume' ? 'history/resume' : 'history/fork', params);
      layout.show(result.live.sessionId);
      historyUi.changed();
      historyUi.close();
    });
  const download = (format: 'md' | 'json' | 'jsonl') =>
    act('export', async () => {
      const file = await api().request('history/export', { id, format });
      downloadText(file.fileName, file.text, file.mimeType);
    });

  return (
    <div className="history-detail" data-testid="history-preview" data-session-id={id}>
      <div className="history-detail-head">
        <h3 data-testid="history-preview-title">{s.title || '(untitled)'}</h3>
        <div className="muted small">
          {s.agent.name ?? s.agent.label}
          {s.agent.version ? ` ${s.agent.version}` : ''} · {s.cwd} · {counted(s.turns, 'turn')} · {counted(s.filesChanged, 'file')} changed · {s.status}
          {s.origin === 'agent' ? ' · listed by the agent' : ''}
        </div>
        {s.tags.length > 0 && (
          <div className="history-tags" data-testid="history-tags">
            {s.tags.map((t) => (
              <span key={t} className="tag">
                {t}
                <button type="button" className="icon" aria-label={`Remove tag ${t}`} onClick={() => void act('tag', async () => void (await api().request('history/tag', { id, remove: [t] }), historyUi.changed()))}>
                  ✕
                </button>
              </span>
            ))}
          </div>
        )}
      </div>

      <section className="history-actions">
        <textarea rows={2} placeholder="Your next prompt (optional: you can also type it in the pane)" value={prompt} onChange={(e) => setPrompt(e.target.value)} data-testid="history-prompt" />
        <div className="row wrap">
          {running && (
            <button
              type="button"
              className="primary"
              onClick={() => {
                layout.show(id);
                historyUi.close();
              }}
              data-testid="history-show-live"
              title="This session is still running here: show its pane"
            >
              Show live pane
            </button>
          )}
          <button type="button" className={running ? undefined : 'primary'} disabled={busy !== null} onClick={() => void continueWith('resume')} data-testid="history-resume"
            title={`${running ? 'Start a second live copy of this session' : 'Continue this session live'} (session/resume, else session/load, else a new session primed with the transcript)`}>
            {busy === 'resume' ? 'Resuming…' : 'Resume'}
          </button>
          <span className="row wrap history-fork-row">
            <button type="button" disabled={busy !== null} onClick={() => void continueWith('fork')} data-testid="history-fork">
              {busy === 'fork' ? 'Forking…' : 'Fork'}
            </button>
            <select value={before} onChange={(e) => setBefore(e.target.value)} data-testid="history-fork-at" title="Where the fork starts">
              <option value="end">from the end</option>
              {preview.messages.map((m) => (
                <option key={m.index} value={m.index}>
                  before message {m.index}: {m.text.slice(0, 40)}
                </option>
              ))}
            </select>
            <select value={forkAgent} onChange={(e) => setForkAgent(e.target.value)} data-testid="history-fork-agent" title="Fork onto another agent (primed with the transcript)">
              <option value="same">same agent</option>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  onto {a.name}
                </option>
              ))}
            </select>
          </span>
        </div>
        <div className="row wrap">
          <input value={title} onChange={(e) => setTitle(e.target.value)} data-testid="history-rename-input" aria-label="Title" />
          <button
            type="button"
            onClick={() =>
              void act('rename', async () => {
                await api().request('history/rename', { id, title: title.trim() || null });
                // Running here: its pane's header and the sidebar say it at once too.
                if (running) await api().request('session/rename', { sessionId: id, title: title.trim() || null });
                historyUi.changed();
              })
            }
            data-testid="history-rename"
          >
            Rename
          </button>
          <input value={tag} placeholder="tag" onChange={(e) => setTag(e.target.value)} data-testid="history-tag-input" aria-label="Tag" size={10} />
          <button type="button" disabled={!tag.trim()} onClick={() => void act('tag', async () => void (await api().request('history/tag', { id, add: [tag.trim()] }), setTag(''), historyUi.changed()))} data-testid="history-tag">
            Tag
          </button>
          <button
            type="button"
            title="Start the recorded agent as a fake agent (acp-workbench replay) that answers as it did; it stops at the first difference"
            data-testid="history-replay"
            onClick={() =>
              void act('replay', async () => {
                const live = await api().request('history/replay-as-agent', { id });
                layout.show(live.sessionId);
                historyUi.close();
              })
            }
          >
            Replay as agent
          </button>
          <button
            type="button"
            disabled={busy !== null}
            title="A new compare run with this session's folder and last prompt, its agent first"
            data-testid="history-compare"
            onClick={() =>
              void act('compare', async () => {
                const prompt = await recordedPrompt(id, preview.messages.at(-1));
                historyUi.close();
                runs.openNewRun(true, { kind: 'session', recipe: compareRecipe(s.cwd, s.agent.id, prompt) });
              })
            }
          >
            Compare across agents…
          </button>
          <span className="spacer" />
          {/* One group, so a narrow preview wraps it whole rather than leaving "trace" alone on a line. */}
          <span className="row" role="group" aria-label="Export">
            <span className="muted small">Export</span>
            <button type="button" onClick={() => void download('md')} data-testid="history-export-md" title="The transcript as Markdown">
              Markdown
            </button>
            <button type="button" onClick={() => void download('json')} data-testid="history-export-json" title="The transcript as JSON">
              JSON
            </button>
            <button type="button" onClick={() => void download('jsonl')} data-testid="history-export-jsonl" title="The recorded trace (.jsonl): replayable, importable">
              Trace
            </button>
          </span>
        </div>
        <div className="row wrap">
          <label className="inline small">
            <input type="checkbox" checked={agentSideDelete} onChange={(e) => setAgentSideDelete(e.target.checked)} data-testid="history-delete-agent-side" />
            also delete the agent’s copy (session/delete)
          </label>
          <button
            type="button"
            className="danger"
            data-testid="history-delete"
            onClick={() =>
              window.confirm(`Delete "${s.title || id}" from history?${agentSideDelete ? ' The agent will be asked to delete its copy too.' : ''}`) &&
              void act('delete', async () => {
                await api().request('history/delete', { id, agentSide: agentSideDelete });
                historyUi.select(null);
                historyUi.changed();
              })
            }
          >
            Delete
          </button>
        </div>
      </section>

      {tree && (
        <section className="history-lineage" data-testid="history-lineage">
          <h4>Lineage</h4>
          <LineageNode node={tree.root} focus={id} />
        </section>
      )}

      {s.origin === 'workbench' && <HistoryChanges id={id} cwd={s.cwd} version={version} />}

      <HistoryTranscript id={id} total={preview.entryCount} first={entries} />
    </div>
  );
}

function LineageNode({ node, focus, parent }: { node: LineageNodeView; focus: string; parent?: LineageNodeView }) {
  return (
    <ul className="lineage">
      <li>
        {parent && (
          <button
            type="button"
            className="icon small"
            title="Open this session and its parent side by side, from the fork point"
            data-testid="lineage-side-by-side"
            data-session-id={node.id}
            onClick={() => relativesUi.open({ left: parent.id, right: node.id, beforeMessage: node.beforeMessage })}
          >
            ⇆
          </button>
        )}
        <button type="button" className={`lineage-node${node.id === focus ? ' focus' : ''}`} onClick={() => historyUi.select(node.id)} data-testid="lineage-node" data-session-id={node.id} data-relation={node.relation ?? 'root'}>
          {node.relation ? `${node.relation}${node.beforeMessage ? ` before message ${node.beforeMessage}` : ''}${node.by ? ` (${node.by})` : ''}: ` : ''}
          {node.title || node.id} <span className="muted small">{node.agent}</span>
        </button>
        {node.children.map((c) => (
          <LineageNode key={c.id} node={c} focus={focus} parent={node} />
        ))}
      </li>
    </ul>
  );
}
