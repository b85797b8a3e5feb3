import { useEffect, useState } from 'react';
import type { ComparisonView, RunFileTextsView } from '../../common/api/compare-types';
import { api, errorText } from '../api/api-context';
import { DiffView } from '../monaco/DiffView';
import type { FileRow } from './figures';

/** One file's diffs, one column per agent (Monaco diff views from the window's pool). */
export function SideBySideDiffs({ comparison, rows, path, onPath, version }: { comparison: ComparisonView; rows: FileRow[]; path: string | null; onPath: (path: string) => void; version: string }) {
  const [texts, setTexts] = useState<RunFileTextsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!path) return;
    let cancelled = false;
    setError(null);
    api()
      .request('runs/file-texts', { runId: comparison.runId, path })
      .then(
        (t) => !cancelled && setTexts(t),
        (err: unknown) => !cancelled && setError(errorText(err)),
      );
    return () => {
      cancelled = true;
    };
  }, [comparison.runId, path, version]);
  if (!path) return null;
  const current = texts?.path === path ? texts : null;
  return (
    <div className="side-by-side" data-testid="comparison-diffs" data-path={path}>
      <div className="row">
        <label className="inline">
          File
          <select value={path} onChange={(e) => onPath(e.target.value)} data-testid="diff-file-select">
            {rows.map((r) => (
              <option key={r.path} value={r.path}>
                {r.path}
                {r.divergent ? ' (changed differently)' : ''}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="diff-columns" style={{ gridTemplateColumns: `repeat(${comparison.agents.length}, minmax(240px, 1fr))` }}>
        {comparison.agents.map((a) => {
          const t = current?.agents.find((x) => x.index === a.index);
          return (
            <div key={a.index} className="diff-column" data-testid="diff-column" data-agent-index={a.index} data-changed={Boolean(t)}>
              <div className="diff-column-title">
                <strong>{a.label}</strong>
                {t && <span className="muted small"> {t.status === 'A' ? 'added' : t.status === 'D' ? 'deleted' : 'modified'}</span>}
              </div>
              {!current ? (
                <p className="muted small">Loading…</p>
              ) : !t ? (
                <p className="muted small diff-column-empty">Did not change this file.</p>
              ) : t.binary ? (
                <p className="muted small diff-column-empty">Binary file: no text diff.</p>
              ) : t.tooLarge ? (
                <p className="muted small diff-column-empty">Too large to show here; see the exported patch.</p>
              ) : (
                <DiffView oldText={t.oldText} newText={t.newText ?? ''} deleted={t.status === 'D'} path={path} height={360} fit testId="comparison-diff-view" />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
