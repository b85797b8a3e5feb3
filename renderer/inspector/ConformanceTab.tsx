/**
 * The live conformance report of the connection: the engine's findings as records arrive (rules in
 * docs/conformance.md), each with links that select its messages in the list.
 */
import { useEffect, useState } from 'react';
import type { FindingsResult } from '../../common/api/qa-types';
import { conformanceMarkdown, EVIDENCE_PER_FINDING, type EvidenceMessage } from '../../common/text/conformance-markdown';
import { counted } from '../../common/text/counted';
import { api, errorText } from '../api/api-context';
import { downloadText } from '../app/download-text';
import { useConnected } from '../state/connection-store';
import { useSessions } from '../state/sessions-store';
import { inspectorUi } from './inspector-ui';

/** The report as a Markdown file, with the first messages of each finding fetched in full. */
async function exportReport(sessionId: string, report: FindingsResult): Promise<string> {
  const agent = useSessions.getState().views[sessionId]?.summary?.agent;
  if (!agent) throw new Error('The session is no longer open: its report is in its trace (acp-workbench trace check).');
  const rows = new Set(report.findings.flatMap((f) => f.rows.slice(0, EVIDENCE_PER_FINDING)));
  const messages = new Map<number, EvidenceMessage>();
  for (const index of rows) {
    const m = await api().request('inspector/message', { sessionId, index });
    messages.set(index, { index, record: m.record });
  }
  const at = Date.now();
  const name = (agent.name ?? agent.label).replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'agent';
  const fileName = `conformance-${name}-${new Date(at).toISOString().slice(0, 19).replace(/[:T]/g, '-')}.md`;
  downloadText(fileName, conformanceMarkdown({ agent, report, messages, at }), 'text/markdown');
  return fileName;
}

export function ConformanceTab({ sessionId }: { sessionId: string }) {
  const [report, setReport] = useState<FindingsResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const connected = useConnected();
  useEffect(() => {
    if (!connected) return;
    let cancelled = false;
    const load = () =>
      api()
        .request('qa/findings', { sessionId })
        .then(
          (r) => !cancelled && (setReport(r), setProblem(null)),
          (err: unknown) => !cancelled && setProblem(errorText(err)),
        );
    void load();
    const off = api().on('qa/findings-changed', (e) => e.sessionId === sessionId && void load());
    return () => {
      cancelled = true;
      off();
    };
  }, [sessionId, connected]);

  if (problem) return <p className="error insp-pane-scroll">{problem}</p>;
  if (!report) return <p className="muted insp-pane-scroll">Loading…</p>;
  const { findings, counts } = report;
  return (
    <div className="insp-pane-scroll qa-conformance" data-testid="qa-findings" data-count={findings.length}>
      <p className="muted small">
        Judged live from what crossed the wire on this connection: <strong className="sev-error">{counted(counts.error, 'error')}</strong>,{' '}
        <strong className="sev-warning">{counted(counts.warning, 'warning')}</strong>, {counted(counts.info, 'note')}. Time rules are judged as later messages arrive. Each rule
        is explained in docs/conformance.md.{' '}
        <button
          type="button"
          className="small"
          data-testid="qa-export-report"
          title="Download the report as Markdown, with the messages each finding points at (to attach to a bug report)"
          onClick={() => {
            setExported('Exporting…');
            exportReport(sessionId, report).then(
              (name) => setExported(`Saved ${name}`),
              (err: unknown) => setExported(`Could not export the report: ${errorText(err)}`),
            );
          }}
        >
          Export report
        </button>
        {exported && (
          <span className="muted small" role="status" data-testid="qa-export-status">
            {' '}
            {exported}
          </span>
        )}
      </p>
      {findings.length === 0 ? (
        <p className="muted" data-testid="qa-findings-empty">
          No findings so far.
        </p>
      ) : (
        <ul className="qa-finding-list">
          {findings.map((f, i) => (
            <li key={`${f.rule}-${i}`} className={`qa-finding qa-finding-${f.severity}`} data-testid="qa-finding" data-rule={f.rule} data-severity={f.severity}>
              <div className="qa-finding-head">
                <span className={`qa-sev sev-${f.severity}`}>{f.severity}</span>
                <code title={f.docs}>{f.rule}</code>
              </div>
              <div className="qa-finding-message">{f.message}</div>
              {f.rationale && (
                <div className="qa-finding-why muted small" data-testid="qa-finding-why">
                  {f.rationale}
                </div>
              )}
              <div className="qa-finding-evidence">
                {f.rows.length > 0 ? (
                  <>
                    <span className="muted small">messages</span>
                    {f.rows.slice(0, 20).map((index) => (
                      <button key={index} type="button" className="insp-chip" data-testid="qa-finding-evidence" data-index={index} onClick={() => inspectorUi.jumpTo(sessionId, index)}>
                        #{index}
                      </button>
                    ))}
                    {f.rows.length > 20 && <span className="muted small">and {f.rows.length - 20} more</span>}
                  </>
                ) : (
                  <span className="muted small">trace lines {f.evidence.join(', ')}</span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
