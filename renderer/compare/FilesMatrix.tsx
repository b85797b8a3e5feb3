import type { ComparisonView } from '../../common/api/compare-types';
import { statText, type FileRow } from './figures';
import { counted } from '../../common/text/counted';

const STATUS_WORD = { A: 'added', M: 'modified', D: 'deleted', T: 'type changed' } as const;

/**
 * Every file any agent changed (rows) per agent (columns) with +/− lines; files several agents
 * changed differently are marked. Each cell can be picked for a promote of files from several
 * agents (one agent per path); clicking a path shows its diffs side by side.
 */
export function FilesMatrix({
  comparison,
  rows,
  picks,
  selected,
  canPick,
  onPick,
  onSelect,
  onPromotePicked,
}: {
  comparison: ComparisonView;
  rows: FileRow[];
  picks: Record<string, number>;
  selected: string | null;
  canPick: boolean;
  onPick: (path: string, agentIndex: number) => void;
  onSelect: (path: string) => void;
  onPromotePicked: () => void;
}) {
  const count = Object.keys(picks).length;
  if (rows.length === 0) {
    return (
      <p className="muted" data-testid="comparison-no-files">
        No agent changed any file.
      </p>
    );
  }
  return (
    <>
      <div className="comparison-scroll-x">
        <table className="comparison-table files" data-testid="comparison-files">
          <thead>
            <tr>
              <th scope="col">File</th>
              {comparison.agents.map((a) => (
                <th key={a.index} scope="col">
                  {a.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.path} data-testid="file-row" data-path={r.path} data-divergent={r.divergent} className={`${r.divergent ? 'divergent' : ''}${selected === r.path ? ' selected' : ''}`}>
                <th scope="row" className="file-path">
                  <button type="button" className="link" onClick={() => onSelect(r.path)} data-testid="file-show-diff" title="Show this file's diffs side by side">
                    {r.path}
                  </button>
                  {r.divergent && (
                    <span className="badge divergent-badge" data-testid="file-divergent" title="Several agents changed this file, each differently">
                      changed differently
                    </span>
                  )}
                  {!r.divergent && r.shared && (
                    <span className="badge same-badge" title="Several agents made the same change">
                      same change
                    </span>
                  )}
                </th>
                {r.cells.map((f, i) => {
                  const agent = comparison.agents[i]!;
                  if (!f) return <td key={agent.index} className="muted" data-testid="file-cell" data-agent-index={agent.index} data-status="" />;
                  const picked = picks[r.path] === agent.index;
                  return (
                    <td key={agent.index} data-testid="file-cell" data-agent-index={agent.index} data-status={f.status} data-added={f.added ?? ''} data-removed={f.removed ?? ''} className={picked ? 'picked' : undefined}>
                      <label className="file-cell-label" title={`${STATUS_WORD[f.status]} by ${agent.label}${canPick ? ' — pick to promote this file from this agent' : ''}`}>
                        {canPick && <input type="checkbox" checked={picked} onChange={() => onPick(r.path, agent.index)} data-testid="file-pick" data-agent-index={agent.index} aria-label={`Pick ${r.path} from ${agent.label}`} />}
                        <span className={`file-status file-status-${f.status}`}>{f.status}</span>
                        <span className="stat" data-testid="file-stat">
                          {f.binary ? (
                            'binary'
                          ) : (
                            <>
                              <span className="stat-add">+{f.added ?? 0}</span> <span className="stat-del">−{f.removed ?? 0}</span>
                            </>
                          )}
                        </span>
                        <span className="sr-only">{statText(f)}</span>
                      </label>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canPick && (
        <div className="row comparison-pick-actions">
          <span className="muted small">Pick files from different agents (one agent per file), then promote them together.</span>
          <span className="spacer" />
          <button type="button" className="primary" disabled={count === 0} onClick={onPromotePicked} data-testid="promote-picked">
            Promote {counted(count, 'picked file')}
          </button>
        </div>
      )}
    </>
  );
}
