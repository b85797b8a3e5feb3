import { useEffect, useRef, useState } from 'react';
import type { CatalogAgentView } from '../../common/api/session-api-types';
import { api, errorText } from '../api/api-context';
import { settingsUi, useSettings } from './settings-store';
import { AgentOptions } from '../agents/AgentOptions';

const STATE_TEXT = { encrypted: 'encrypted', plain: 'not encrypted', unreadable: 'cannot be read here' } as const;

/**
 * API keys per agent, entered here instead of settings.json. Only names are ever shown: a value
 * goes to the core once and is not sent back.
 */
export function SecretsSection() {
  const secrets = useSettings((s) => s.secrets);
  const [catalog, setCatalog] = useState<CatalogAgentView[]>([]);
  const [agentId, setAgentId] = useState('');
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const valueRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    api()
      .request('agents/catalog')
      .then((list) => {
        setCatalog(list);
        setAgentId((id) => id || list.find((a) => !a.demo)?.id || list[0]?.id || '');
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, []);
  const names = secrets?.agents[agentId] ?? [];
  useEffect(() => {
    if (agentId && !secrets?.agents[agentId]) {
      void api()
        .request('secrets/list', { agentId })
        .then((r) => settingsUi.setSecrets(r))
        .catch((err: unknown) => setError(errorText(err)));
    }
  }, [agentId, secrets]);
  const run = async (p: Promise<Parameters<typeof settingsUi.setSecrets>[0]>) => {
    setError(null);
    try {
      settingsUi.setSecrets(await p);
      return true;
    } catch (err) {
      setError(errorText(err));
      return false;
    }
  };
  const save = async () => {
    if (await run(api().request('secrets/set', { agentId, name: name.trim(), value }))) {
      setName('');
      setValue('');
    }
  };
  return (
    <section className="settings-section" aria-labelledby="settings-secrets">
      <h3 id="settings-secrets">Secrets</h3>
      {secrets && (
        <p className={`small ${secrets.protection.encrypted ? 'muted' : 'warn-text'}`} data-testid="settings-secrets-protection" data-encrypted={String(secrets.protection.encrypted)}>
          {secrets.protection.summary}
        </p>
      )}
      <label>
        Agent
        <select value={agentId} onChange={(e) => setAgentId(e.target.value)} data-testid="settings-secrets-agent">
          <AgentOptions catalog={catalog} />
        </select>
      </label>
      {names.length === 0 ? (
        <p className="muted small" data-testid="settings-secrets-empty">
          No secrets for this agent. They are passed to it as environment variables when it starts. From a terminal:{' '}
          <code>acp-workbench agents secrets {agentId} set NAME</code> (the value is read from stdin).
        </p>
      ) : (
        <ul className="settings-list" data-testid="settings-secrets-list">
          {names.map((s) => (
            <li key={s.name} data-testid="settings-secret-row" data-name={s.name} data-state={s.state}>
              <code>{s.name}</code>
              <span className={`small ${s.state === 'unreadable' ? 'warn-text' : 'muted'} settings-list-detail`} title={s.note ?? ''}>
                {STATE_TEXT[s.state]}
                {s.note ? `: ${s.note}` : ''}
              </span>
              <span className="row">
                <button
                  type="button"
                  onClick={() => {
                    setName(s.name);
                    setValue('');
                    valueRef.current?.focus();
                  }}
                  data-testid="settings-secret-replace"
                >
                  Replace
                </button>
                <button type="button" className="danger" onClick={() => window.confirm(`Delete the secret ${s.name} of this agent?`) && void run(api().request('secrets/delete', { agentId, name: s.name }))} data-testid="settings-secret-delete">
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="row settings-secret-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="NAME (e.g. ANTHROPIC_API_KEY)" aria-label="Secret name" spellCheck={false} autoComplete="off" data-testid="settings-secret-name" required />
        <input ref={valueRef} type="password" value={value} onChange={(e) => setValue(e.target.value)} placeholder="value" aria-label="Secret value" autoComplete="off" data-testid="settings-secret-value" required />
        <button type="submit" disabled={!agentId} data-testid="settings-secret-save">
          {names.some((s) => s.name === name.trim()) ? 'Replace' : 'Set'}
        </button>
      </form>
      {error && (
        <p className="error" role="alert" data-testid="settings-secrets-error">
          {error}
        </p>
      )}
    </section>
  );
}
