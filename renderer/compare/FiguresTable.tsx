import type { ReactNode } from 'react';
import type { ComparedAgentView, ComparisonView } from '../../common/api/compare-types';
import { formatMs, kindsText, usageText, verifyText } from './figures';

interface Metric {
  id: string;
  title: string;
  value(a: ComparedAgentView): string | number | null;
  render?(a: ComparedAgentView): ReactNode;
  /** Lower is better: the lowest value is marked. */
  lowerIsBetter?: boolean;
}

const METRICS: Metric[] = [
  { id: 'status', title: 'Status', value: (a) => a.status, render: (a) => (a.error ? <span className="error" title={a.error}>{a.status}: {a.error}</span> : a.status) },
  { id: 'stopReason', title: 'Stop reason', value: (a) => a.stopReason ?? (a.error ? 'error' : null) },
  { id: 'firstUpdateMs', title: 'Time to first update', value: (a) => a.firstUpdateMs, render: (a) => formatMs(a.firstUpdateMs), lowerIsBetter: true },
  { id: 'durationMs', title: 'Total duration', value: (a) => a.durationMs, render: (a) => formatMs(a.durationMs), lowerIsBetter: true },
  { id: 'workingMs', title: 'Working time (less the waits for permission)', value: (a) => a.workingMs, render: (a) => formatMs(a.workingMs), lowerIsBetter: true },
  { id: 'permissionWaitMs', title: 'Waiting for permission', value: (a) => a.permissionWaitMs, render: (a) => formatMs(a.permissionWaitMs) },
  { id: 'turns', title: 'Turns', value: (a) => a.turns },
  {
    id: 'toolCalls',
    title: 'Tool calls',
    value: (a) => a.toolCalls,
    render: (a) => (
      <>
        {a.toolCalls}
        {a.toolCalls > 0 && (
          <span className="muted small" data-testid="figure-tool-kinds">
            {' '}
            ({kindsText(a.toolCallsByKind)})
          </span>
        )}
      </>
    ),
  },
  { id: 'permissionRequests', title: 'Permission requests', value: (a) => a.permissionRequests },
  { id: 'usage', title: 'Tokens / cost', value: (a) => usageText(a.usage), render: (a) => usageText(a.usage) ?? <span className="muted">not reported</span> },
  { id: 'filesChanged', title: 'Files changed', value: (a) => a.filesChanged.length },
  {
    id: 'lines',
    title: 'Lines',
    value: (a) => `+${a.linesAdded} −${a.linesRemoved}`,
    render: (a) => (
      <span className="stat">
        <span className="stat-add">+{a.linesAdded}</span> <span className="stat-del">−{a.linesRemoved}</span>
      </span>
    ),
  },
  {
    id: 'verify',
    title: 'Verification',
    value: (a) => verifyText(a).state,
    render: (a) => {
      const v = verifyText(a);
      return <span className={`verify-${v.state}`}>{v.text}</span>;
    },
  },
];

/** Lowest value per metric (when at least two agents have one and they differ). */
function bestOf(c: ComparisonView, m: Metric): number | null {
  if (!m.lowerIsBetter) return null;
  const values = c.agents.map((a) => m.value(a)).filter((v): v is number => typeof v === 'number');
  if (values.length < 2 || new Set(values).size < 2) return null;
  return Math.min(...values);
}

/** Per agent (columns) the figures of the run (rows), its workspace, and its actions. */
export function FiguresTable({ comparison, workspaces, live, onPromote, onShowSession }: { comparison: ComparisonView; workspaces: boolean; live: boolean; onPromote: (index: number) => void; onShowSession: (sessionId: string) => void }) {
  const c = comparison;
  const busy = c.status === 'running' || c.status === 'preparing';
  return (
    <div className="comparison-scroll-x">
      <table className="comparison-table figures" data-testid="comparison-figures">
        <thead>
          <tr>
            <th scope="col" className="metric-name" />
            {c.agents.map((a) => (
              <th key={a.index} scope="col" data-testid="figures-agent" data-agent-index={a.index}>
                <span className="agent-label" title={a.agentId}>
                  {a.label}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {METRICS.map((m) => {
            const best = bestOf(c, m);
            return (
              <tr key={m.id}>
                <th scope="row" className="metric-name">
                  {m.title}
                </th>
                {c.agents.map((a) => {
                  const value = m.value(a);
                  return (
                    <td key={a.index} data-testid="figure" data-metric={m.id} data-agent-index={a.index} data-value={value ?? ''} className={best !== null && value === best ? 'best' : undefined}>
                      {m.render ? m.render(a) : (value ?? '—')}
                    </td>
                  );
                })}
              </tr>
            );
          })}
          <tr>
            <th scope="row" className="metric-name">
              Workspace
            </th>
            {c.agents.map((a) => (
              <td key={a.index} data-testid="workspace-path" data-agent-index={a.index} data-exists={workspaces} className="workspace-cell">
                <code title={a.workspace}>{a.workspace}</code>
                {!workspaces && <span className="muted small"> (removed)</span>}
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row" className="metric-name" />
            {c.agents.map((a) => (
              <td key={a.index} className="agent-actions">
                <button
                  type="button"
                  className="primary"
                  disabled={!workspaces || busy || a.filesChanged.length === 0}
                  onClick={() => onPromote(a.index)}
                  data-testid="promote-agent"
                  data-agent-index={a.index}
                  title={a.filesChanged.length === 0 ? 'This agent changed no files' : `Apply ${a.label}'s changes to ${c.source.root}`}
                >
                  Promote
                </button>
                {live && a.sessionId && (
                  <button type="button" onClick={() => onShowSession(a.sessionId!)} data-testid="show-session" data-agent-index={a.index} title={`Show the run's panes, ${a.label}'s focused`}>
                    Show pane
                  </button>
                )}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
