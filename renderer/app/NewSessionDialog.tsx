import { useEffect, useRef, useState } from 'react';
import { FolderInput } from './FolderInput';
import { useSecondsSince, useStoppableStart } from './start-wait';
import type { AgentAuthView } from '../../common/api/auth-types';
import type { CatalogAgentView, LiveSessionSummary, StartSessionParams } from '../../common/api/session-api-types';
import { AuthMethods } from '../auth/AuthMethods';
import { api, errorText } from '../api/api-context';
import { parseEnvLines } from '../../common/text/env-lines';
import { splitShellWords } from '../../common/text/shell-words';
import { layout, useLayout } from '../state/layout-store';
import { useConnection } from '../state/connection-store';
import { POLICY_ORDER, POLICY_TEXT } from '../settings/settings-texts';
import { AgentOptions } from '../agents/AgentOptions';

const LAST_KEY = 'acp-workbench.new-session.v1';

interface LastChoice {
  agentId: string;
  command: string;
  env: string;
  cwd: string;
  policy: 'ask' | 'all' | 'reads' | 'none';
}

const CAP_LABEL = { readTextFile: 'File reads', writeTextFile: 'File writes', terminal: 'Terminals', elicitationForm: 'Elicitation forms', elicitationUrl: 'Elicitation URLs' } as const;

function loadLast(): Partial<LastChoice> {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) ?? '{}') as Partial<LastChoice>;
  } catch {
    return {};
  }
}

/**
 * Pick an agent (catalog or a command line with its environment), a folder, the permission policy
 * and which client capabilities to advertise — preselected from the settings (default agent,
 * folder, policy, capabilities), else from the last choice; shows progress while the agent starts, and the
 * error with the agent's stderr and a retry when it fails.
 */
export function NewSessionDialog() {
  const open = useLayout((s) => s.newSessionOpen);
  const info = useConnection((s) => s.info);
  const [catalog, setCatalog] = useState<CatalogAgentView[]>([]);
  const last = loadLast();
  const [agentId, setAgentId] = useState(last.agentId ?? 'demo');
  const [command, setCommand] = useState(last.command ?? '');
  const [env, setEnv] = useState(last.env ?? '');
  const [cwd, setCwd] = useState(last.cwd ?? '');
  const [policy, setPolicy] = useState<LastChoice['policy']>(last.policy ?? 'ask');
  const [caps, setCaps] = useState({ readTextFile: true, writeTextFile: true, terminal: true, elicitationForm: true, elicitationUrl: true });
  const [phase, setPhase] = useState<'idle' | 'starting' | 'failed'>('idle');
  const [error, setError] = useState<string | null>(null);
  /** Fields changed since the dialog opened: the settings' defaults, arriving later, leave them alone. */
  const touched = useRef(new Set<'agent' | 'cwd' | 'policy' | 'caps'>());
  /** The agent wants a login: its methods and the start to retry once logged in. */
  const [auth, setAuth] = useState<{ view: AgentAuthView; params: StartSessionParams } | null>(null);
  /** The start under way, so Cancel can stop it (the core closes its agent). */
  const starting = useStoppableStart((startId) => void api().request('sessions/abort-start', { startId }).catch(() => undefined));
  const waited = useSecondsSince(phase === 'starting');

  useEffect(() => {
    if (!open) return;
    setPhase('idle');
    setError(null);
    setAuth(null);
    touched.current.clear();
    // The settings' defaults win over the last choice; the last choice fills what they leave open.
    Promise.all([api().request('agents/catalog'), api().request('settings/get')])
      .then(([list, { values, defaultFolderResolved }]) => {
        setCatalog(list);
        const free = (field: 'agent' | 'cwd' | 'policy' | 'caps') => !touched.current.has(field);
        if (free('agent') && values.defaultAgent && list.some((a) => a.id === values.defaultAgent)) setAgentId(values.defaultAgent);
        if (free('cwd') && defaultFolderResolved) setCwd(defaultFolderResolved);
        if (free('policy')) setPolicy(values.permissionPolicy);
        const c = values.clientCapabilities;
        if (free('caps'))
          setCaps((old) => ({ ...old, readTextFile: c.fs.readTextFile, writeTextFile: c.fs.writeTextFile, terminal: c.terminal }));
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, [open]);
  // The demo agent needs no project: with no folder chosen, it gets its scratch folder.
  const isDemo = catalog.some((a) => a.id === agentId && a.demo);
  useEffect(() => {
    if (!open || !isDemo || cwd.trim() !== '') return;
    let current = true;
    api()
      .request('agents/demo-workspace')
      .then(({ path }) => current && setCwd((old) => (old.trim() === '' ? path : old)))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [open, isDemo, cwd]);
  // Esc closes from anywhere while the dialog is open: after a failed start the focus may be on
  // the page (the Start button was disabled under it), where the form's own handler does not hear it.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) cancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, phase]);
  useEffect(() => {
    if (!cwd && info?.dataDir) setCwd('');
  }, [info, cwd]);
  if (!open) return null;

  const opened = (summary: LiveSessionSummary) => {
    layout.show(summary.sessionId);
    layout.openNewSession(false);
  };

  /** Closes the dialog; a start under way is stopped (its agent closed in the core) rather than waited out. */
  const cancel = () => {
    if (starting.stop()) setPhase('idle');
    layout.openNewSession(false);
  };

  const start = async (authMethodId?: string) => {
    const startId = starting.begin();
    setPhase('starting');
    setError(null);
    let params: StartSessionParams | undefined;
    try {
      const envPairs = parseEnvLines(env);
      if (!cwd.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(cwd)) throw new Error('The project folder must be an absolute path');
      let agent;
      if (agentId === '__command__') {
        const words = splitShellWords(command);
        if (!words.length) throw new Error('Type the command that starts the agent');
        agent = { command: words[0]!, args: words.slice(1), env: envPairs };
      } else agent = { agentId };
      localStorage.setItem(LAST_KEY, JSON.stringify({ agentId, command, env, cwd, policy }));
      params = { agent, cwd, policy, switches: caps };
      const summary = await api().request('sessions/start', { ...params, startId, ...(authMethodId ? { authMethodId } : {}) });
      if (starting.finish(startId)) opened(summary);
    } catch (err) {
      // Stopped by Cancel: the dialog is already closed, and that was what the user asked.
      if (!starting.finish(startId)) return;
      setPhase('failed');
      setError(errorText(err));
      const e = err as { code?: string; data?: AgentAuthView };
      setAuth(e.code === 'auth_required' && e.data && params ? { view: e.data, params } : null);
    }
  };

  return (
    <div className="dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && phase !== 'starting' && layout.openNewSession(false)}>
      <form
        className="dialog new-session"
        role="dialog"
        aria-label="New session"
        data-testid="new-session-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <h2>New session</h2>
        <label>
          Agent
          <select value={agentId} onChange={(e) => {
              touched.current.add('agent');
              setAgentId(e.target.value);
            }} data-testid="new-session-agent" autoFocus>
            <AgentOptions catalog={catalog} />
            <option value="__command__">Custom command…</option>
          </select>
        </label>
        {agentId === '__command__' && (
          <>
            <label>
              Command line
              <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="my-agent --acp" data-testid="new-session-command" spellCheck={false} />
            </label>
            <label>
              Environment (KEY=VALUE, one per line)
              <textarea value={env} onChange={(e) => setEnv(e.target.value)} rows={2} data-testid="new-session-env" spellCheck={false} />
            </label>
          </>
        )}
        <label>
          Project folder
          <FolderInput value={cwd} onValue={(v) => {
              touched.current.add('cwd');
              setCwd(v);
            }} placeholder="/home/you/project" data-testid="new-session-cwd" spellCheck={false} required />
        </label>
        <label>
          Permission requests
          <select value={policy} onChange={(e) => {
              touched.current.add('policy');
              setPolicy(e.target.value as LastChoice['policy']);
            }} data-testid="new-session-policy" title={POLICY_TEXT[policy].explanation}>
            {POLICY_ORDER.map((p) => (
              <option key={p} value={p} title={POLICY_TEXT[p].explanation}>
                {POLICY_TEXT[p].label}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Advertise to the agent</legend>
          {(['readTextFile', 'writeTextFile', 'terminal', 'elicitationForm', 'elicitationUrl'] as const).map((k) => (
            <label key={k} className="inline">
              <input type="checkbox" checked={caps[k]} onChange={(e) => {
                  touched.current.add('caps');
                  setCaps({ ...caps, [k]: e.target.checked });
                }} data-testid={`new-session-cap-${k}`} />
              {CAP_LABEL[k]}
            </label>
          ))}
        </fieldset>
        {phase === 'starting' && (
          <p className="progress" data-testid="new-session-progress" role="status">
            <span className="spinner" aria-hidden="true" />
            {/* One run of text: the progress row is a flex row, and a second span would be a column. */}
            <span>
              Starting the agent and opening a session…
              {waited >= 3 ? (
                <span className="muted" data-testid="new-session-waited" data-seconds={waited}>
                  {' '}
                  {waited} s without an answer yet. Cancel stops the agent.
                </span>
              ) : null}
            </span>
          </p>
        )}
        {error && (
          <pre className="error start-error" role="alert" data-testid="new-session-error">
            {error}
          </pre>
        )}
        {auth && (
          <AuthMethods
            view={auth.view}
            target={{ agent: auth.params.agent, cwd: auth.params.cwd }}
            busy={phase === 'starting'}
            retry={auth.params}
            onAuthenticate={(methodId) => void start(methodId)}
            onSession={opened}
          />
        )}
        <div className="dialog-actions">
          <button type="button" onClick={cancel} data-testid="new-session-cancel" title={phase === 'starting' ? 'Stop the agent that is starting and close' : undefined}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={phase === 'starting'} data-testid="new-session-start">
            {phase === 'failed' ? 'Retry' : 'Start'}
          </button>
        </div>
      </form>
    </div>
  );
}
