import { useState } from 'react';
import type { ElicitationAnswer, ElicitationProperty, ElicitationView } from '../../common/api/elicitation-types';
import { api, errorText } from '../api/api-context';
import { useSessions } from '../state/sessions-store';
import { choicesOf, contentOf, initialValues, validate, type FieldValue } from './form-values';

const EMPTY: ElicitationView[] = [];

/** The agent's requests for input in this session: forms generated from their schema, or a URL to confirm. */
export function Elicitations({ sessionId }: { sessionId: string }) {
  const pending = useSessions((s) => s.views[sessionId]?.elicitations ?? EMPTY);
  if (pending.length === 0) return null;
  return (
    <div className="elicitations">
      {pending.map((e) => (
        <ElicitationCard key={e.key} view={e} />
      ))}
    </div>
  );
}

function ElicitationCard({ view }: { view: ElicitationView }) {
  const [values, setValues] = useState<Record<string, FieldValue>>(() => initialValues(view.requestedSchema));
  const [shown, setShown] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const send = async (answer: ElicitationAnswer) => {
    setError(null);
    try {
      const r = await api().request('session/answer-elicitation', { sessionId: view.sessionId, key: view.key, answer });
      if (!r.answered) setError('Already answered elsewhere.');
    } catch (err) {
      setError(errorText(err));
    }
  };
  const accept = () => {
    const problems = validate(view.requestedSchema, values);
    setShown(problems);
    if (Object.keys(problems).length) return;
    void send({ action: 'accept', content: contentOf(view.requestedSchema, values) });
  };
  return (
    <section className="elicitation-card" data-testid="elicitation" data-mode={view.mode} aria-label="The agent asks for input">
      <div className="elicitation-message">{view.message}</div>
      {view.mode === 'url' && view.url ? (
        <UrlRequest url={view.url} onOpen={() => void send({ action: 'accept' })} onDecline={() => void send({ action: 'decline' })} />
      ) : (
        <form
          className="elicitation-form"
          onSubmit={(e) => {
            e.preventDefault();
            accept();
          }}
        >
          {Object.entries(view.requestedSchema?.properties ?? {}).map(([name, prop]) => (
            <Field
              key={name}
              name={name}
              prop={prop}
              required={view.requestedSchema?.required?.includes(name) ?? false}
              value={values[name]!}
              problem={shown[name]}
              onChange={(v) => setValues((old) => ({ ...old, [name]: v }))}
            />
          ))}
          <div className="row">
            <button type="submit" className="primary" data-testid="elicitation-accept">
              Send
            </button>
            <button type="button" data-testid="elicitation-decline" onClick={() => void send({ action: 'decline' })}>
              Decline
            </button>
            <button type="button" data-testid="elicitation-cancel" onClick={() => void send({ action: 'cancel' })}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function UrlRequest({ url, onOpen, onDecline }: { url: string; onOpen: () => void; onDecline: () => void }) {
  let host = '';
  try {
    host = new URL(url).host;
  } catch {
    host = '(not a valid URL)';
  }
  const safe = /^https?:\/\//i.test(url);
  return (
    <div className="elicitation-url">
      <div>
        The agent asks you to open a page on <strong data-testid="elicitation-url-host">{host}</strong>:
      </div>
      <code className="elicitation-url-full" data-testid="elicitation-url">
        {url}
      </code>
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={!safe}
          title={safe ? 'Open in your browser' : 'Only http and https links can be opened'}
          data-testid="elicitation-open"
          onClick={() => {
            window.open(url, '_blank', 'noopener');
            onOpen();
          }}
        >
          Open in browser
        </button>
        <button type="button" data-testid="elicitation-decline" onClick={onDecline}>
          Decline
        </button>
      </div>
    </div>
  );
}

function Field(props: { name: string; prop: ElicitationProperty; required: boolean; value: FieldValue; problem: string | undefined; onChange: (v: FieldValue) => void }) {
  const { name, prop, required, value, problem, onChange } = props;
  const label = `${prop.title ?? name}${required ? ' *' : ''}`;
  const choices = choicesOf(prop);
  // Told to assistive technology too, not only by the asterisk and the red text.
  const state = { 'aria-required': required || undefined, 'aria-invalid': problem ? true : undefined };
  let input: React.ReactNode;
  if (prop.type === 'boolean') {
    input = <input type="checkbox" {...state} checked={value === true} onChange={(e) => onChange(e.target.checked)} data-testid="elicitation-field" data-field={name} />;
  } else if (prop.type === 'array' && choices) {
    const list = Array.isArray(value) ? value : [];
    input = (
      <span className="elicitation-multi" data-testid="elicitation-field" data-field={name}>
        {choices.map((c) => (
          <label key={c.value} className="inline">
            <input type="checkbox" checked={list.includes(c.value)} onChange={(e) => onChange(e.target.checked ? [...list, c.value] : list.filter((v) => v !== c.value))} />
            {c.label}
          </label>
        ))}
      </span>
    );
  } else if (choices) {
    input = (
      <select {...state} value={String(value)} onChange={(e) => onChange(e.target.value)} data-testid="elicitation-field" data-field={name}>
        <option value="">—</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  } else if (prop.type === 'number' || prop.type === 'integer') {
    input = (
      <input
        type="number"
        {...state}
        step={prop.type === 'integer' ? 1 : 'any'}
        value={value === '' ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
        data-testid="elicitation-field"
        data-field={name}
      />
    );
  } else {
    const type = prop.format === 'email' ? 'email' : prop.format === 'date' ? 'date' : prop.format === 'uri' ? 'url' : 'text';
    input = <input type={type} {...state} value={String(value)} onChange={(e) => onChange(e.target.value)} data-testid="elicitation-field" data-field={name} />;
  }
  return (
    <label className="elicitation-field">
      <span>{label}</span>
      {input}
      {prop.description && <span className="muted small">{prop.description}</span>}
      {problem && (
        <span className="error small" data-testid="elicitation-problem" data-field={name}>
          {problem}
        </span>
      )}
    </label>
  );
}
