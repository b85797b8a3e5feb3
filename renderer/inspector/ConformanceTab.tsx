/**
 * The live conformance report of the connection: the engine's findings as records arrive (rules in
 * docs/conformance.md), each with links that select its messages in the list.
 */
import { useEffect, useState } from 'react';
import type { FindingsResult } from '../../common/api/qa-types';
import { api, errorText } from '../api/api-context';
import { useConnected } from '../state/connection-store';
import { inspectorUi } from './inspector-ui';
import { counted } from '../../common/text/counted';


export function ConformanceTab({ sessionId }: { sessionId: string }) {
  const [report, setReport] = useState<FindingsResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
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
        is explained in docs/conformance.md.
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
