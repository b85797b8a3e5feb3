import { useEffect, useState } from 'react';
import type { RunSummary } from '../../common/api/compare-types';
import { api, errorText } from '../api/api-context';
import { useConnected } from '../state/connection-store';
import { lazyUntilOpen } from '../app/lazy-until-open';
import { RunStrip } from './RunStrip';
import { connectRunsStore, runs, useRuns } from './runs-store';
import './compare.css';

// The compare dialogs load with their first opening (start-up, issue #11).
const NewRunDialog = lazyUntilOpen(
  () => useRuns((s) => s.newRunOpen),
  async () => (await import('./NewRunDialog')).NewRunDialog,
);
const ComparisonView = lazyUntilOpen(
  () => useRuns((s) => Boolean(s.comparisonRunId)),
  async () => (await import('./ComparisonView')).ComparisonView,
);

/** Connects the runs store (again after a reconnect) and mounts the compare dialogs. Mount once. */
export function CompareDialogs() {
  const connected = useConnected();
  useEffect(() => {
    if (!connected) return;
    return connectRunsStore(api());
  }, [connected]);
  return (
    <>
      <NewRunDialog />
      <ComparisonView />
    </>
  );
}

/** Above the panes: leftovers of earlier runs offered for cleanup, and the active run's strip. */
export function CompareTop() {
  const leftovers = useRuns((s) => (s.leftoversAnswered ? 0 : s.leftovers.length));
  const active = useRuns((s) => Boolean(s.activeRunId && s.runs[s.activeRunId]));
  if (!leftovers && !active) return null;
  return (
    <div className="compare-top">
      {leftovers > 0 && <LeftoversBanner />}
      <RunStrip />
    </div>
  );
}

function LeftoversBanner() {
  const leftovers = useRuns((s) => s.leftovers);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const discardAll = async () => {
    setBusy(true);
    setError(null);
    const failed: string[] = [];
    for (const r of leftovers) {
      try {
        runs.remember(await api().request('runs/discard', { runId: r.runId }));
      } catch (err) {
        failed.push(`${r.runId}: ${errorText(err)}`);
      }
    }
    setBusy(false);
    if (failed.length) setError(failed.join('\n'));
    else runs.answerLeftovers();
  };
  const reopen = async (r: RunSummary) => {
    setBusy(true);
    setError(null);
    try {
      runs.showPanes(await runs.reopen(r.runId));
    } catch (err) {
      setError(`${r.runId}: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="leftovers-banner" role="status" data-testid="leftovers-banner" data-count={leftovers.length}>
      <div className="row">
        <strong>
          {leftovers.length} compare run{leftovers.length === 1 ? '' : 's'} from earlier still {leftovers.length === 1 ? 'has' : 'have'} workspaces on disk.
        </strong>
        <span className="spacer" />
        <button type="button" className="danger" onClick={() => void discardAll()} disabled={busy} data-testid="leftovers-discard-all" title="Remove their workspaces (their comparisons stay in the runs list)">
          {busy ? 'Discarding…' : 'Discard all'}
        </button>
        <button type="button" onClick={() => runs.answerLeftovers()} disabled={busy} data-testid="leftovers-keep">
          Keep
        </button>
      </div>
      <ul className="leftovers-list">
        {leftovers.map((r) => (
          <li key={r.runId} data-testid="leftover-item" data-run-id={r.runId}>
            <button type="button" className="link" onClick={() => runs.openComparison(r.runId)} title="Open its comparison">
              {new Date(r.createdAt).toLocaleString()} — {r.agents.map((a) => a.label).join(', ')}
            </button>{' '}
            <span className="muted small">
              {r.status} · {r.project}
            </span>{' '}
            <button type="button" className="link" onClick={() => void reopen(r)} disabled={busy} data-testid="leftover-reopen" title="Resume its agents' sessions in their workspaces">
              Reopen
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <pre className="error small" role="alert" data-testid="leftovers-error">
          {error}
        </pre>
      )}
    </div>
  );
}
