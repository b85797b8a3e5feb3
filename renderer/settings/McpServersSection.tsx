import { useState } from 'react';
import type { McpServerView, SettingsView } from '../../common/api/settings-types';
import { parseEnvLines } from '../../common/text/env-lines';
import { splitShellWords } from '../../common/text/shell-words';
import { settingsUi, useSettings } from './settings-store';

interface Draft {
  /** Index in the list being edited; undefined for a new server. */
  index?: number;
  type: 'stdio' | 'http' | 'sse';
  name: string;
  commandLine: string;
  url: string;
  /** env (stdio) or headers (http/sse), NAME=VALUE per line. */
  pairs: string;
  enabled: boolean;
}

type RemoteServer = Extract<McpServerView, { type: 'http' | 'sse' }>;
type StdioServer = Exclude<McpServerView, RemoteServer>;
const isRemote = (s: McpServerView): s is RemoteServer => s.type === 'http' || s.type === 'sse';

const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

function draftOf(server: McpServerView, index: number): Draft {
  if (isRemote(server)) {
    const pairs = server.headers.map((p) => `${p.name}=${p.value}`).join('\n');
    return { index, type: server.type, name: server.name, commandLine: '', url: server.url, pairs, enabled: server.enabled };
  }
  const stdio: StdioServer = server;
  const pairs = stdio.env.map((p) => `${p.name}=${p.value}`).join('\n');
  return { index, type: 'stdio', name: stdio.name, commandLine: [stdio.command, ...stdio.args].map(quote).join(' '), url: '', pairs, enabled: stdio.enabled };
}

function serverOf(d: Draft): McpServerView {
  const pairs = Object.entries(parseEnvLines(d.pairs)).map(([name, value]) => ({ name, value }));
  if (d.type === 'stdio') {
    const words = splitShellWords(d.commandLine);
    return { name: d.name.trim(), command: words[0] ?? '', args: words.slice(1), env: pairs, enabled: d.enabled };
  }
  return { type: d.type, name: d.name.trim(), url: d.url.trim(), headers: pairs, enabled: d.enabled };
}

const describe = (s: McpServerView) => (isRemote(s) ? `${s.type} ${s.url}` : `stdio ${[(s as StdioServer).command, ...(s as StdioServer).args].join(' ')}`);

/** MCP servers passed to agents in session/new, load, resume and fork: add, edit, enable, remove. */
export function McpServersSection({ view }: { view: SettingsView }) {
  const servers = view.values.mcpServers;
  const errors = useSettings((s) => s.errors);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const listErrors = Object.entries(errors).filter(([f]) => f === 'mcpServers' || f.startsWith('mcpServers['));
  const save = async (list: McpServerView[]) => settingsUi.update({ mcpServers: list });
  const submit = async (d: Draft) => {
    setFormError(null);
    let server: McpServerView;
    try {
      server = serverOf(d);
    } catch (err) {
      setFormError(err instanceof Error ? err.message : String(err));
      return;
    }
    const list = d.index === undefined ? [...servers, server] : servers.map((s, i) => (i === d.index ? server : s));
    if (await save(list)) setDraft(null);
  };
  const draftIndex = draft ? (draft.index ?? servers.length) : -1;
  const draftErrors = listErrors.filter(([f]) => f.startsWith(`mcpServers[${draftIndex}]`));
  return (
    <section className="settings-section" aria-labelledby="settings-mcp">
      <h3 id="settings-mcp">MCP servers</h3>
      <p className="muted small">Sent to agents when a session opens: stdio to every agent, http and sse only to agents that advertise them.</p>
      {servers.length === 0 ? (
        <p className="muted small" data-testid="settings-mcp-empty">
          No MCP servers.
        </p>
      ) : (
        <ul className="settings-list" data-testid="settings-mcp-list">
          {servers.map((s, i) => (
            <li key={`${s.name}-${i}`} data-testid="settings-mcp-row" data-name={s.name} data-enabled={String(s.enabled)}>
              <label className="inline" title={s.enabled ? 'Enabled: sent to agents' : 'Disabled: kept, sent nowhere'}>
                <input type="checkbox" checked={s.enabled} onChange={(e) => void save(servers.map((x, j) => (j === i ? { ...x, enabled: e.target.checked } : x)))} data-testid="settings-mcp-enabled" aria-label={`Enable ${s.name}`} />
                <strong>{s.name}</strong>
              </label>
              <span className="muted small settings-list-detail" title={describe(s)}>
                {describe(s)}
              </span>
              <span className="row">
                <button type="button" onClick={() => setDraft(draftOf(s, i))} data-testid="settings-mcp-edit">
                  Edit
                </button>
                <button type="button" className="danger" onClick={() => window.confirm(`Remove the MCP server "${s.name}"?`) && void save(servers.filter((_, j) => j !== i))} data-testid="settings-mcp-remove">
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {!draft && listErrors.length > 0 && (
        <ul className="error small" role="alert" data-testid="settings-error-mcpServers">
          {listErrors.map(([f, m]) => (
            <li key={f}>
              <code>{f}</code>: {m}
            </li>
          ))}
        </ul>
      )}
      {draft ? (
        <form
          className="settings-form"
          data-testid="settings-mcp-form"
          onSubmit={(e) => {
            e.preventDefault();
            void submit(draft);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setDraft(null);
            }
          }}
        >
          <div className="row">
            <label>
              Type
              <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value as Draft['type'] })} data-testid="settings-mcp-type">
                <option value="stdio">stdio (a local process)</option>
                <option value="http">http</option>
                <option value="sse">sse (deprecated by MCP)</option>
              </select>
            </label>
            <label className="grow">
              Name
              <input value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} data-testid="settings-mcp-name" required autoFocus />
            </label>
          </div>
          {draft.type === 'stdio' ? (
            <label>
              Command line
              <input value={draft.commandLine} onChange={(e) => setDraft({ ...draft, commandLine: e.target.value })} placeholder="npx -y @modelcontextprotocol/server-filesystem /path" spellCheck={false} data-testid="settings-mcp-command" required />
            </label>
          ) : (
            <label>
              URL
              <input value={draft.url} onChange={(e) => setDraft({ ...draft, url: e.target.value })} placeholder="https://mcp.example.com/mcp" spellCheck={false} data-testid="settings-mcp-url" required />
            </label>
          )}
          <label>
            {draft.type === 'stdio' ? 'Environment' : 'Headers'} (NAME=VALUE, one per line; stored in settings.json as plain text)
            <textarea value={draft.pairs} onChange={(e) => setDraft({ ...draft, pairs: e.target.value })} rows={2} spellCheck={false} data-testid="settings-mcp-pairs" />
          </label>
          {(formError || draftErrors.length > 0) && (
            <ul className="error small" role="alert" data-testid="settings-mcp-form-error">
              {formError && <li>{formError}</li>}
              {draftErrors.map(([f, m]) => (
                <li key={f}>
                  <code>{f.replace(/^mcpServers\[\d+\]\.?/, '') || 'server'}</code>: {m}
                </li>
              ))}
            </ul>
          )}
          <div className="dialog-actions">
            <button type="button" onClick={() => setDraft(null)} data-testid="settings-mcp-cancel">
              Cancel
            </button>
            <button type="submit" className="primary" data-testid="settings-mcp-save">
              {draft.index === undefined ? 'Add server' : 'Save server'}
            </button>
          </div>
        </form>
      ) : (
        <div>
          <button type="button" onClick={() => setDraft({ type: 'stdio', name: '', commandLine: '', url: '', pairs: '', enabled: true })} data-testid="settings-mcp-add">
            Add an MCP server…
          </button>
        </div>
      )}
    </section>
  );
}
