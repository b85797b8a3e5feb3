import { useEffect, useRef, useState } from 'react';
import type { AgentAuthView } from '../../common/api/auth-types';
import type { CatalogAgentView } from '../../common/api/session-api-types';
import { AuthMethods } from '../auth/AuthMethods';
import { parseEnvLines } from '../../common/text/env-lines';
import { splitShellWords } from '../../common/text/shell-words';
import { api, errorText } from '../api/api-context';
import { layout, useLayout } from '../state/layout-store';

interface Draft {
  id?: string;
  name: string;
  commandLine: string;
  env: string;
}

const emptyDraft: Draft = { name: '', commandLine: '', env: '' };

const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** The agents the workbench knows; custom agents are added, edited, duplicated and removed here (settings.json). */
export function AgentsDialog() {
  const open = useLayout((s) => s.agentsOpen);
  const [agents, setAgents] = useState<CatalogAgentView[]>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** "Log in…" of one agent: its methods (asked from a started agent), and what happened. */
  const [login, setLogin] = useState<{ agentId: string; view?: AgentAuthView; busy: boolean; message?: string } | null>(null);
  const reload = () =>
    api()
      .request('agents/catalog')
      .then(setAgents)
      .catch((err: unknown) => setError(errorText(err)));
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) void reload();
    if (open) setLogin(null);
  }, [open]);
  // The dialog takes the focus when it opens (keys reach it, Tab starts inside) and gives it back.
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus();
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, [open]);
  if (!open) return null;

  const save = async (d: Draft) => {
    setError(null);
    try {
      const words = splitShellWords(d.commandLine);
      if (!words.length) throw new Error('Type the command line that starts the agent');
      const env = parseEnvLines(d.env);
      const input = { name: d.name, command: words[0]!, args: words.slice(1), env };
      if (d.id) await api().request('agents/edit-custom', { id: d.id, ...input });
      else await api().request('agents/add-custom', input);
      setDraft(null);
      await reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const showLogin = async (agentId: string) => {
    setError(null);
    setLogin({ agentId, busy: true, message: 'Starting the agent to ask how it logs in…' });
    try {
      setLogin({ agentId, busy: false, view: await api().request('agents/auth-methods', { agent: { agentId } }) });
    } catch (err) {
      setLogin(null);
      setError(errorText(err));
    }
  };
  const authenticate = async (agentId: string, view: AgentAuthView, methodId: string) => {
    setLogin({ agentId, view, busy: true, message: 'Logging in…' });
    try {
      await api().request('agents/authenticate', { agent: { agentId }, methodId });
      setLogin({ agentId, view, busy: false, message: 'Logged in.' });
    } catch (err) {
      setLogin({ agentId, view, busy: false, message: errorText(err) });
    }
  };
  const act = (p: Promise<unknown>) => {
    setError(null);
    p.then(reload).catch((err: unknown) => setError(errorText(err)));
  };

  return (
    <div className="dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && layout.openAgents(false)}>
      <div ref={dialogRef} tabIndex={-1} className="dialog agents" role="dialog" aria-modal="true" aria-label="Agents" data-testid="agents-dialog" onKeyDown={(e) => e.key === 'Escape' && layout.openAgents(false)}>
        <h2>Agents</h2>
        <ul className="agent-list" data-testid="agent-list">
          {agents.map((a) => (
            <li key={a.id} data-testid="agent-row" data-agent-id={a.id} data-source={a.source}>
              <span className="agent-row-name">
                {a.name}
                <span className="muted small"> {a.demo ? 'demo' : a.source}</span>
              </span>
              <span className="agent-row-desc muted small" title={a.description}>
                {a.description}
              </span>
              <button type="button" data-testid="agent-login" onClick={() => void showLogin(a.id)} disabled={login?.busy}>
                Log in…
              </button>
              {a.custom && (
                <span className="row">
                  <button type="button" data-testid="agent-edit" onClick={() => setDraft({ id: a.id, name: a.name, commandLine: [a.custom!.command, ...a.custom!.args].map(quote).join(' '), env: Object.entries(a.custom!.env).map(([k, v]) => `${k}=${v}`).join('\n') })}>
                    Edit
                  </button>
                  <button type="button" data-testid="agent-duplicate" onClick={() => act(api().request('agents/duplicate-custom', { id: a.id }))}>
                    Duplicate
                  </button>
                  <button type="button" className="danger" data-testid="agent-remove" onClick={() => window.confirm(`Remove the agent "${a.name}" from your settings?`) && act(api().request('agents/remove-custom', { id: a.id }))}>
                    Remove
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
        {login && (
          <div className="agent-login" data-testid="agent-login-panel" data-agent-id={login.agentId}>
            {login.view && (
              <AuthMethods
                view={login.view}
                target={{ agent: { agentId: login.agentId } }}
                busy={login.busy}
                onAuthenticate={(methodId) => void authenticate(login.agentId, login.view!, methodId)}
                onLoggedIn={() => setLogin((l) => l && { ...l, message: 'Logged in. New sessions of this agent start logged in.' })}
              />
            )}
            {login.message && (
              <p className="small" role="status" data-testid="agent-login-message">
                {login.message}
              </p>
            )}
            <button type="button" onClick={() => setLogin(null)} disabled={login.busy}>
              Done
            </button>
          </div>
        )}
        {draft ? (
          <form
            className="agent-form"
            data-testid="agent-form"
            onSubmit={(e) => {
              e.preventDefault();
              void save(draft);
            }}
          >
            <label>
              Name
              <input value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} data-testid="agent-form-name" required autoFocus />
            </label>
            <label>
              Command line
              <input value={draft.commandLine} onChange={(e) => setDraft({ ...draft, commandLine: e.target.value })} data-testid="agent-form-command" placeholder="my-agent --acp" spellCheck={false} required />
            </label>
            <label>
              Environment (KEY=VALUE, one per line; secrets do not belong here)
              <textarea value={draft.env} onChange={(e) => setDraft({ ...draft, env: e.target.value })} data-testid="agent-form-env" rows={2} spellCheck={false} />
            </label>
            <div className="dialog-actions">
              <button type="button" onClick={() => setDraft(null)}>
                Cancel
              </button>
              <button type="submit" className="primary" data-testid="agent-form-save">
                {draft.id ? 'Save' : 'Add agent'}
              </button>
            </div>
          </form>
        ) : (
          <div className="dialog-actions">
            <button type="button" onClick={() => setDraft(emptyDraft)} data-testid="agent-add">
              Add a custom agent…
            </button>
            <span className="spacer" />
            <button type="button" onClick={() => layout.openAgents(false)}>
              Close
            </button>
          </div>
        )}
        {error && (
          <p className="error" role="alert" data-testid="agents-error">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
