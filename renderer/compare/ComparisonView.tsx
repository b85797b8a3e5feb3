import { useEffect, useMemo, useRef, useState } from 'react';
import type { ComparisonView as Comparison, PromoteResultView, RunSummary } from '../../common/api/compare-types';
import { api, errorText } from '../api/api-context';
import { downloadText } from '../app/download-text';
import { defaultDiffPath, fileRows, pickedFiles, togglePick } from './figures';
import { FiguresTable } from './FiguresTable';
import { FilesMatrix } from './FilesMatrix';
import { runs, useRuns } from './runs-store';
import { SideBySideDiffs } from './SideBySideDiffs';
import { VerifySection } from './VerifySection';
import './compare.css';
import { counted } from '../../common/text/counted';

type Confirm = { kind: 'agent'; index: number } | { kind: 'picked' } | { kind: 'discard' } | null;

/**
 * A run's comparison, full window: per-agent figures, files changed with +/− (those several
 * agents changed differently marked), the diffs side by side, verification, export, promote
 * (one agent, or files picked from several) and discard. Refreshes when the run changes.
 */
export function ComparisonView() {
  const runId = useRuns((s) => s.comparisonRunId);
  if (!runId) return null;
  return <ComparisonDialog key={runId} runId={runId} />;
}

function ComparisonDialog({ runId }: { runId: string }) {
  const summary = useRuns((s) => s.runs[runId]);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picks, setPicks] = useState<Record<string, number>>({});
  const [diffPath, setDiffPath] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const [promoted, setPromoted] = useState<(PromoteResultView & { what: string }) | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const version = summary?.updatedAt ?? '';

  useEffect(() => {
    let cancelled = false;
    api()
      .request('runs/comparison', { runId })
      .then(
        (c) => {
          if (cancelled) return;
          setComparison(c);
          setError(null);
        },
        (err: unknown) => !cancelled && setError(errorText(err)),
      );
    return () => {
      cancelled = true;
    };
  }, [runId, version]);

  useEffect(() => {
    if (summary) return;
    void api()
      .request('runs/get', { runId })
      .then(runs.remember, () => undefined);
  }, [runId, summary]);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        runs.openComparison(null);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const rows = useMemo(() => (comparison ? fileRows(comparison) : []), [comparison]);
  const shownPath = diffPath && rows.some((r) => r.path === diffPath) ? diffPath : defaultDiffPath(rows);
  const workspaces = summary?.workspaces ?? comparison?.status !== 'discarded';
  const live = summary?.live ?? false;
  const status = summary?.status ?? comparison?.status ?? 'running';
  const working = status === 'running' || status === 'preparing';

  const act = async (fn: () => Promise<void>) => {
    setBusy(true);
    setActionError(null);
    try {
      await fn();
    } catch (err) {
      setActionError(errorText(err));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };
  const promote = (c: Exclude<Confirm, null | { kind: 'discard' }>) =>
    act(async () => {
      const label = c.kind === 'agent' ? comparison!.agents[c.index]!.label : `${Object.keys(picks).length} picked files`;
      const result = await api().request('runs/promote', c.kind === 'agent' ? { runId, agentIndex: c.index } : { runId, files: pickedFiles(picks) });
      setPromoted({ ...result, what: label });
      if (result.applied && c.kind === 'picked') setPicks({});
    });
  const discard = () =>
    act(async () => {
      runs.remember(await api().request('runs/discard', { runId }));
      setPicks({});
    });
  const reopen = () =>
    act(async () => {
      const run = await runs.reopen(runId);
      runs.showPanes(run);
      runs.openComparison(null);
    });
  const runAgain = () => act(() => runs.runAgain(runId));
  const exportAs = (format: 'md' | 'json') =>
    act(async () => {
      const file = await api().request('runs/export', { runId, format });
      downloadText(file.fileName, file.text, file.mimeType);
    });

  return (
    <div className="comparison-backdrop" onMouseDown={(e) => e.target === e.currentTarget && runs.openComparison(null)}>
      <div className="comparison" role="dialog" aria-modal="true" aria-label="Comparison of the run" data-testid="comparison-view" data-run-id={runId} data-status={status} data-loaded={Boolean(comparison)}>
        <header className="comparison-header">
          <div className="comparison-title">
            <h2>Compare run</h2>
            <span className={`run-status run-status-${status}`} data-testid="comparison-status">
              {status}
            </span>
            <span className="muted small" title={comparison?.source.cwd}>
              {comparison ? `${comparison.source.cwd} · ${comparison.source.isolation === 'worktree' ? `git worktrees of ${comparison.base.slice(0, 10)}${comparison.source.branch ? ` on ${comparison.source.branch.replace(/^refs\/heads\//, '')}` : ''}` : 'copies of the folder'}` : ''}
            </span>
          </div>
          <div className="comparison-actions">
            {live && summary && (
              <button type="button" onClick={() => (runs.showPanes(summary), runs.openComparison(null))} data-testid="comparison-show-panes">
                Show panes
              </button>
            )}
            {!live && workspaces && summary && status !== 'promoted' && (
              <button type="button" onClick={() => void reopen()} disabled={busy} data-testid="comparison-reopen" title="Resume every agent's session in its workspace, so follow-ups and pane prompts work again">
                Reopen sessions
              </button>
            )}
            <button type="button" onClick={() => void runAgain()} disabled={busy} data-testid="comparison-run-again" title="A new compare run like this one: the same agents, folder, prompt and commands, to change before it starts">
              Run again…
            </button>
            <button type="button" onClick={() => void exportAs('md')} disabled={!comparison || busy} data-testid="export-md">
              Export Markdown
            </button>
            <button type="button" onClick={() => void exportAs('json')} disabled={!comparison || busy} data-testid="export-json">
              Export JSON
            </button>
            <button type="button" className="danger" onClick={() => setConfirm({ kind: 'discard' })} disabled={!workspaces || busy} data-testid="comparison-discard" title="Stop the agents and remove the workspaces (the comparison stays)">
              Discard
            </button>
            <button ref={closeRef} type="button" className="icon" onClick={() => runs.openComparison(null)} aria-label="Close the comparison (Esc)" data-testid="comparison-close">
              ✕
            </button>
          </div>
        </header>
        {confirm && <ConfirmBar confirm={confirm} comparison={comparison} picks={picks} busy={busy} onCancel={() => setConfirm(null)} onPromote={(c) => void promote(c)} onDiscard={() => void discard()} />}
        {actionError && (
          <p className="error comparison-error" role="alert" data-testid="comparison-action-error">
            {actionError}
          </p>
        )}
        {promoted && <PromoteOutcome result={promoted} root={comparison?.source.root ?? ''} onClose={() => setPromoted(null)} />}
        <div className="comparison-body">
          {error && (
            <p className="error" role="alert" data-testid="comparison-error">
              {error}
            </p>
          )}
          {!comparison && !error && <p className="muted">Loading the comparison…</p>}
          {comparison && (
            <>
              {working && (
                <p className="notice-line" data-testid="comparison-working">
                  Agents are still working: figures and files fill in as each one finishes.
                </p>
              )}
              {status === 'discarded' && (
                <p className="notice-line" data-testid="comparison-discarded">
                  The workspaces were removed; the figures and the diffs stay.
                </p>
              )}
              {summary?.promoted && (
                <p className="notice-line" data-testid="comparison-promoted">
                  Promoted {counted(summary.promoted.paths.length, 'file')} on {new Date(summary.promoted.at).toLocaleString()}.
                </p>
              )}
              <section className="comparison-section">
                <FiguresTable comparison={comparison} workspaces={workspaces} live={live} onPromote={(index) => setConfirm({ kind: 'agent', index })} onShowSession={(sessionId) => summary && (runs.showPanes(summary, sessionId), runs.openComparison(null))} />
              </section>
              {comparison.agents.some((a) => a.lastAnswer) && (
                <section className="comparison-section">
                  <h3>Last answers</h3>
                  <LastAnswers comparison={comparison} />
                </section>
              )}
              <section className="comparison-section">
                <h3>Files changed</h3>
                {comparison.divergentFiles.length > 0 && (
                  <p className="small" data-testid="divergent-summary">
                    Changed differently by several agents: {comparison.divergentFiles.map((d) => d.path).join(', ')}
                  </p>
                )}
                <FilesMatrix
                  comparison={comparison}
                  rows={rows}
                  picks={picks}
                  selected={shownPath}
                  canPick={workspaces && !working}
                  onPick={(path, index) => setPicks((p) => togglePick(p, path, index))}
                  onSelect={setDiffPath}
                  onPromotePicked={() => setConfirm({ kind: 'picked' })}
                />
              </section>
              {shownPath && (
                <section className="comparison-section">
                  <h3>Diffs side by side</h3>
                  <SideBySideDiffs comparison={comparison} rows={rows} path={shownPath} onPath={setDiffPath} version={version} />
                </section>
              )}
              <section className="comparison-section">
                <h3>Verification</h3>
                <VerifySection comparison={comparison} runId={runId} canRun={workspaces && !working} summary={summary as RunSummary | undefined} />
              </section>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

/** Each agent's own account of what it did (its last message), side by side; text as sent, never markup. */
function LastAnswers({ comparison }: { comparison: Comparison }) {
  return (
    <div className="last-answers" data-testid="last-answers" style={{ gridTemplateColumns: `repeat(${comparison.agents.length}, minmax(0, 1fr))` }}>
      {comparison.agents.map((a) => (
        <div key={a.index} className="last-answer" data-testid="last-answer" data-agent-index={a.index}>
          <div className="last-answer-label">{a.label}</div>
          {a.lastAnswer ? <div className="last-answer-text">{a.lastAnswer}</div> : <div className="muted small">No message from this agent.</div>}
        </div>
      ))}
    </div>
  );
}

function ConfirmBar({
  confirm,
  comparison,
  picks,
  busy,
  onCancel,
  onPromote,
  onDiscard,
}: {
  confirm: Exclude<Confirm, null>;
  comparison: Comparison | null;
  picks: Record<string, number>;
  busy: boolean;
  onCancel: () => void;
  onPromote: (c: Exclude<Confirm, null | { kind: 'discard' }>) => void;
  onDiscard: () => void;
}) {
  let text: string;
  if (confirm.kind === 'discard') text = 'Stop this run’s agents and remove every workspace? The comparison, figures and diffs stay in the runs list.';
  else if (confirm.kind === 'agent') {
    const a = comparison?.agents[confirm.index];
    text = `Apply ${a?.label ?? 'this agent'}’s ${a?.filesChanged.length ?? 0} changed file(s) to ${comparison?.source.root ?? 'your folder'}? Everything is checked first: on any conflict nothing is written.`;
  } else text = `Apply ${Object.keys(picks).length} picked file(s) to ${comparison?.source.root ?? 'your folder'}? On any conflict nothing is written.`;
  return (
    <div className={`confirm-bar${confirm.kind === 'discard' ? ' danger' : ''}`} role="alertdialog" aria-label="Confirm" data-testid={confirm.kind === 'discard' ? 'discard-confirm' : 'promote-confirm'}>
      <span>{text}</span>
      <span className="spacer" />
      <button type="button" onClick={onCancel} disabled={busy} data-testid="confirm-cancel">
        Cancel
      </button>
      <button
        type="button"
        className={confirm.kind === 'discard' ? 'danger' : 'primary'}
        disabled={busy}
        autoFocus
        onClick={() => (confirm.kind === 'discard' ? onDiscard() : onPromote(confirm))}
        data-testid="confirm-apply"
      >
        {busy ? 'Working…' : confirm.kind === 'discard' ? 'Discard' : 'Apply'}
      </button>
    </div>
  );
}

function PromoteOutcome({ result, root, onClose }: { result: PromoteResultView & { what: string }; root: string; onClose: () => void }) {
  return (
    <div className={`promote-result ${result.applied ? 'applied' : 'refused'}`} data-testid="promote-result" data-applied={result.applied} role="status">
      <div className="row">
        <strong>{result.applied ? `Promoted ${result.what}: ${result.paths.length} file(s) written to ${root}` : `Not promoted (${result.what}): these changes do not apply to ${root}. Nothing was written.`}</strong>
        <span className="spacer" />
        <button type="button" className="icon" onClick={onClose} aria-label="Dismiss" data-testid="promote-result-close">
          ✕
        </button>
      </div>
      <ul>
        {result.applied
          ? result.paths.map((p) => (
              <li key={p} data-testid="promote-path" data-path={p}>
                <code>{p}</code>
              </li>
            ))
          : result.conflicts.map((c) => (
              <li key={c.path} data-testid="promote-conflict" data-path={c.path}>
                <code>{c.path}</code>: {c.reason.startsWith(`${c.path}: `) ? c.reason.slice(c.path.length + 2) : c.reason}
              </li>
            ))}
      </ul>
    </div>
  );
}
