/**
 * The raw request composer: any method with JSON params, sent through the unchecked path (marked
 * so in the trace, so conformance does not blame the agent for answering -32601); templates for
 * every agent method of the spec and the extensions the agent named in `_meta`; the answer shown.
 */
import { useEffect, useState } from 'react';
import type { ComposerTemplate, RawRequestResult } from '../../common/api/qa-types';
import { api, errorText } from '../api/api-context';
import { parseJson } from './format';
import { JsonTree } from './JsonTree';

interface Sent {
  method: string;
  notification: boolean;
  result: RawRequestResult;
}

export function ComposerTab({ sessionId }: { sessionId: string }) {
  const [templates, setTemplates] = useState<ComposerTemplate[]>([]);
  const [method, setMethod] = useState('');
  const [params, setParams] = useState('{}');
  const [notification, setNotification] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<Sent[]>([]);

  useEffect(() => {
    let cancelled = false;
    api()
      .request('qa/templates', { sessionId })
      .then(
        (list) => !cancelled && setTemplates(list),
        (err: unknown) => !cancelled && setProblem(errorText(err)),
      );
    return () => {
      cancelled = true;
    };
  }, [sessionId]);

  const applyTemplate = (name: string) => {
    const t = templates.find((x) => x.method === name);
    if (!t) return;
    setMethod(t.method);
    setParams(JSON.stringify(t.params, null, 2));
    setNotification(t.kind === 'notification');
  };

  const send = async () => {
    const parsed = parseJson(params);
    if (!method.trim()) return setProblem('Type the method to send');
    if (!parsed.ok) return setProblem(`The params are not JSON: ${parsed.message}`);
    setProblem(null);
    setBusy(true);
    try {
      const result = await api().request('qa/raw-request', { sessionId, method: method.trim(), params: parsed.value, notification });
      setSent((list) => [{ method: method.trim(), notification, result }, ...list].slice(0, 10));
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const spec = templates.filter((t) => t.source === 'spec');
  const ext = templates.filter((t) => t.source === 'extension');
  const label = (t: ComposerTemplate) => `${t.method}${t.kind === 'notification' ? ' (notification)' : ''}${t.advertised === false ? ' — not advertised' : ''}${t.note ? ` — ${t.note}` : ''}`;
  const [latest, ...earlier] = sent;
  return (
    <div className="insp-pane-scroll qa-composer" data-testid="raw-composer">
      <p className="muted small">
        Sent as is, even when the agent did not advertise the method (the trace marks it <code>unchecked</code>). The message and its answer also appear in Messages.
      </p>
      <div className="row qa-composer-row">
        <select value="" onChange={(e) => applyTemplate(e.target.value)} data-testid="raw-template" aria-label="Template">
          <option value="">Template…</option>
          <optgroup label="Agent methods (spec)">
            {spec.map((t) => (
              <option key={t.method} value={t.method}>
                {label(t)}
              </option>
            ))}
          </optgroup>
          {ext.length > 0 && (
            <optgroup label="Extensions named in _meta">
              {ext.map((t) => (
                <option key={t.method} value={t.method}>
                  {label(t)}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        <input className="qa-composer-method" value={method} onChange={(e) => setMethod(e.target.value)} placeholder="method, e.g. session/list or _vendor/x" data-testid="raw-method" aria-label="Method" spellCheck={false} />
        <label className="qa-inline">
          <input type="checkbox" checked={notification} onChange={(e) => setNotification(e.target.checked)} data-testid="raw-notification" /> notification
        </label>
      </div>
      <label className="qa-manual-label">
        Params (JSON)
        <textarea
          rows={Math.min(14, Math.max(4, params.split('\n').length))}
          value={params}
          onChange={(e) => setParams(e.target.value)}
          onKeyDown={(e) => (e.ctrlKey || e.metaKey) && e.key === 'Enter' && void send()}
          data-testid="raw-params"
          spellCheck={false}
        />
      </label>
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => void send()} data-testid="raw-send">
          {busy ? 'Waiting for the answer…' : notification ? 'Send notification' : 'Send request'}
        </button>
        <span className="muted small">Ctrl+Enter</span>
      </div>
      {problem && (
        <p className="error small" role="alert" data-testid="raw-problem">
          {problem}
        </p>
      )}
      {latest && <SentResult sent={latest} testId="raw-result" />}
      {earlier.length > 0 && (
        <details className="qa-earlier">
          <summary>Earlier ({earlier.length})</summary>
          {earlier.map((s, i) => (
            <SentResult key={i} sent={s} testId="raw-result-earlier" />
          ))}
        </details>
      )}
    </div>
  );
}

function SentResult({ sent, testId }: { sent: Sent; testId: string }) {
  const r = sent.result;
  return (
    <div className={`qa-result${r.ok ? '' : ' failed'}`} data-testid={testId} data-ok={r.ok ? 'true' : 'false'} data-code={r.error?.code ?? ''}>
      <div className="qa-manual-head">
        <strong>{sent.method}</strong>
        <span className={r.ok ? 'qa-ok' : 'insp-err'}>{r.notification ? (r.ok ? 'sent' : 'not sent') : r.timedOut ? 'no answer' : r.ok ? 'result' : `error ${r.error?.code ?? ''}`}</span>
        <span className="muted">{r.ms} ms</span>
      </div>
      {r.ok && !r.notification && <JsonTree value={r.result ?? null} openDepth={3} testId="raw-result-json" />}
      {!r.ok && r.error && <JsonTree value={r.error} openDepth={3} testId="raw-error-json" />}
    </div>
  );
}
