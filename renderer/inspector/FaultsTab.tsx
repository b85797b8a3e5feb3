/**
 * Manual mode and fault injection for one connection: the rules (first in line for every request
 * from the agent), the requests held for a manual answer with a JSON editor for each, and the
 * client capabilities this connection advertised.
 */
import { useEffect, useState } from 'react';
import { FAULT_METHODS, type FaultAction, type FaultActionType, type FaultRuleInput, type ManualRequestView } from '../../common/api/qa-types';
import { api, errorText } from '../api/api-context';
import { parseJson } from './format';
import { inspectorUi, useQaLive } from './inspector-ui';
import { JsonTree } from './JsonTree';

const METHOD_LABEL: Record<string, string> = { '?': '? (methods we do not implement)', '*': '* (every request)', 'terminal/*': 'terminal/* (every terminal request)' };

const ACTIONS: Array<{ type: FaultActionType; label: string }> = [
  { type: 'manual', label: 'Answer by hand' },
  { type: 'error', label: 'Answer an error' },
  { type: 'delay', label: 'Delay, then as usual' },
  { type: 'deny', label: 'Deny' },
  { type: 'content', label: 'Other file content (fs reads)' },
];

function defaultAction(type: FaultActionType): FaultAction {
  switch (type) {
    case 'manual':
      return { type: 'manual' };
    case 'deny':
      return { type: 'deny' };
    case 'error':
      return { type: 'error', code: -32603, message: 'Internal error (injected)' };
    case 'delay':
      return { type: 'delay', ms: 2000 };
    case 'content':
      return { type: 'content', text: '' };
  }
}

export function FaultsTab({ sessionId }: { sessionId: string }) {
  const [rules, setRules] = useState<FaultRuleInput[]>([]);
  const [applied, setApplied] = useState<string>('[]');
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const [capabilities, setCapabilities] = useState<unknown>(null);
  const { pending } = useQaLive(sessionId);

  useEffect(() => {
    let cancelled = false;
    api()
      .request('qa/state', { sessionId })
      .then(
        (state) => {
          if (cancelled) return;
          setRules(state.rules);
          setApplied(JSON.stringify(state.rules));
          setCapabilities(state.clientCapabilities);
          inspectorUi.setLive(sessionId, { pending: state.pending });
        },
        (err: unknown) => !cancelled && setStatus({ error: true, text: errorText(err) }),
      );
    return () => {
      cancelled = true;
    };
  }, [sessionId]);

  const dirty = JSON.stringify(rules) !== applied;
  const apply = async (next = rules) => {
    try {
      const saved = await api().request('qa/set-rules', { sessionId, rules: next });
      setRules(saved);
      setApplied(JSON.stringify(saved));
      setStatus({ error: false, text: saved.length ? `${saved.filter((r) => r.enabled).length} rule(s) active` : 'No rules: every request is answered as usual' });
    } catch (err) {
      setStatus({ error: true, text: errorText(err) });
    }
  };
  const change = (i: number, patch: Partial<FaultRuleInput>) => setRules(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <div className="insp-pane-scroll qa-faults" data-testid="qa-faults">
      <section className="qa-section">
        <h3>Requests waiting for your answer</h3>
        {pending.length === 0 ? (
          <p className="muted" data-testid="qa-manual-empty">
            None. Add a rule “Answer by hand” to hold the agent’s requests here.
          </p>
        ) : (
          pending.map((p) => <ManualCard key={p.key} sessionId={sessionId} request={p} />)
        )}
      </section>

      <section className="qa-section">
        <h3>Rules</h3>
        <p className="muted small">
          Asked first, in order, for every request from the agent; the first enabled rule that matches decides. The pattern is matched against the file path, the
          terminal command or the permission’s tool-call title (<code>*</code> is a wildcard).
        </p>
        <datalist id="qa-fault-methods">
          {FAULT_METHODS.map((m) => (
            <option key={m} value={m}>
              {METHOD_LABEL[m] ?? m}
            </option>
          ))}
        </datalist>
        {rules.length > 0 && (
          <div className="qa-rules">
            {rules.map((rule, i) => (
              <RuleRow key={rule.id ?? `new-${i}`} rule={rule} onChange={(p) => change(i, p)} onRemove={() => setRules(rules.filter((_, j) => j !== i))} />
            ))}
          </div>
        )}
        <div className="row qa-rule-actions">
          <button type="button" data-testid="qa-rule-add" onClick={() => setRules([...rules, { method: 'fs/read_text_file', action: { type: 'manual' }, enabled: true }])}>
            + Rule
          </button>
          <button
            type="button"
            data-testid="qa-manual-all"
            title="Hold every request from the agent for a manual answer"
            onClick={() => void apply([...rules, { method: '*', action: { type: 'manual' }, enabled: true }])}
          >
            Answer everything by hand
          </button>
          <span className="spacer" />
          {dirty && (
            <button type="button" onClick={() => setRules(JSON.parse(applied) as FaultRuleInput[])} data-testid="qa-rules-revert">
              Revert
            </button>
          )}
          <button type="button" className="primary" disabled={!dirty} onClick={() => void apply()} data-testid="qa-rules-apply">
            Apply
          </button>
        </div>
        {status && (
          <p className={status.error ? 'error small' : 'muted small'} data-testid={status.error ? 'qa-rules-error' : 'qa-rules-status'} role={status.error ? 'alert' : 'status'}>
            {status.text}
          </p>
        )}
      </section>

      <section className="qa-section">
        <h3>Client capabilities advertised</h3>
        <p className="muted small">Chosen before initialize, in the New session dialog (“Advertise to the agent”). Start a new session to change them.</p>
        <div data-testid="qa-capabilities">{capabilities !== null && <JsonTree value={capabilities} openDepth={3} testId="qa-capabilities-json" />}</div>
      </section>
    </div>
  );
}

function RuleRow({ rule, onChange, onRemove }: { rule: FaultRuleInput; onChange: (p: Partial<FaultRuleInput>) => void; onRemove: () => void }) {
  const a = rule.action;
  return (
    <div className="qa-rule" data-testid="qa-rule" data-id={rule.id ?? ''} data-enabled={rule.enabled ? 'true' : 'false'}>
      <input type="checkbox" checked={rule.enabled} onChange={(e) => onChange({ enabled: e.target.checked })} data-testid="qa-rule-enabled" aria-label="Enabled" />
      <input className="qa-rule-method" list="qa-fault-methods" value={rule.method} onChange={(e) => onChange({ method: e.target.value })} data-testid="qa-rule-method" aria-label="Method" spellCheck={false} />
      <input className="qa-rule-pattern" value={rule.pattern ?? ''} placeholder="pattern (optional)" onChange={(e) => onChange({ pattern: e.target.value })} data-testid="qa-rule-pattern" aria-label="Pattern" spellCheck={false} />
      <select value={a.type} onChange={(e) => onChange({ action: defaultAction(e.target.value as FaultActionType) })} data-testid="qa-rule-action" aria-label="Action">
        {ACTIONS.map((x) => (
          <option key={x.type} value={x.type}>
            {x.label}
          </option>
        ))}
      </select>
      {a.type === 'error' && (
        <>
          <input className="qa-num" type="number" value={a.code} onChange={(e) => onChange({ action: { ...a, code: Number(e.target.value) } })} data-testid="qa-rule-code" aria-label="Error code" />
          <input className="qa-rule-text" value={a.message} onChange={(e) => onChange({ action: { ...a, message: e.target.value } })} data-testid="qa-rule-message" aria-label="Error message" />
        </>
      )}
      {a.type === 'delay' && (
        <label className="qa-inline">
          <input className="qa-num" type="number" min={0} value={a.ms} onChange={(e) => onChange({ action: { ...a, ms: Number(e.target.value) } })} data-testid="qa-rule-ms" aria-label="Delay in ms" /> ms
        </label>
      )}
      {a.type === 'content' && (
        <textarea className="qa-rule-content" rows={2} value={a.text} onChange={(e) => onChange({ action: { ...a, text: e.target.value } })} data-testid="qa-rule-text" aria-label="File content" spellCheck={false} />
      )}
      <button type="button" className="icon" onClick={onRemove} data-testid="qa-rule-remove" title="Remove the rule">
        ✕
      </button>
    </div>
  );
}

function ManualCard({ sessionId, request }: { sessionId: string; request: ManualRequestView }) {
  const [text, setText] = useState(() => JSON.stringify(request.example, null, 2));
  const [code, setCode] = useState(-32603);
  const [message, setMessage] = useState('Internal error');
  const [problem, setProblem] = useState<string | null>(null);
  const send = async (answer: { result: unknown } | { error: { code: number; message: string } }) => {
    try {
      const { answered } = await api().request('qa/manual-answer', { sessionId, key: request.key, ...answer });
      if (!answered) setProblem('Already answered (or the session closed).');
    } catch (err) {
      setProblem(errorText(err));
    }
  };
  return (
    <div className="qa-manual" data-testid="qa-manual-request" data-method={request.method} data-key={request.key} data-withdrawn={request.withdrawn ? 'true' : 'false'}>
      <div className="qa-manual-head">
        <strong>{request.method}</strong>
        <span className="muted">id {JSON.stringify(request.requestId)}</span>
        <span className="muted">{new Date(request.receivedAt).toLocaleTimeString()}</span>
        {request.withdrawn && <span className="insp-tag">withdrawn by the agent — it still needs an answer</span>}
      </div>
      <JsonTree value={request.params} openDepth={2} testId="qa-manual-params" />
      <label className="qa-manual-label">
        Result (JSON)
        <textarea rows={Math.min(12, Math.max(3, text.split('\n').length))} value={text} onChange={(e) => setText(e.target.value)} data-testid="qa-manual-json" spellCheck={false} />
      </label>
      <div className="row qa-manual-actions">
        <button
          type="button"
          className="primary"
          data-testid="qa-manual-send-result"
          onClick={() => {
            const parsed = parseJson(text);
            if (!parsed.ok) return setProblem(`Not JSON: ${parsed.message}`);
            setProblem(null);
            void send({ result: parsed.value });
          }}
        >
          Send result
        </button>
        <span className="muted small">or an error</span>
        <input className="qa-num" type="number" value={code} onChange={(e) => setCode(Number(e.target.value))} data-testid="qa-manual-error-code" aria-label="Error code" />
        <input value={message} onChange={(e) => setMessage(e.target.value)} data-testid="qa-manual-error-message" aria-label="Error message" />
        <button type="button" data-testid="qa-manual-send-error" onClick={() => void send({ error: { code, message } })}>
          Send error
        </button>
      </div>
      {problem && (
        <p className="error small" role="alert" data-testid="qa-manual-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
