import { useEffect, useRef, useState } from 'react';
import { FolderInput } from '../app/FolderInput';
import { useSecondsSince, useStoppableStart } from '../app/start-wait';
import type { RunCreateProgress, RunPolicy } from '../../common/api/compare-types';
import { createProgressText } from '../../common/text/create-progress-text';
import type { CatalogAgentView } from '../../common/api/session-api-types';
import { api, errorText } from '../api/api-context';
import { blockAttachment, fileAttachment, type Attachment } from '../composer/attachments';
import { agentRow, CUSTOM_COMMAND, formFromParams, MAX_RUN_AGENTS, MIN_RUN_AGENTS, toCreateParams, type AgentRow, type RunForm } from './run-form';
import { useLayout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';
import { runs, useRuns, type NewRunStart } from './runs-store';
import './compare.css';

const LAST_KEY = 'acp-workbench.new-run.v1';

function loadLast(): RunForm {
  const fallback: RunForm = { agents: [agentRow(), agentRow()], cwd: '', prompt: '', policy: 'ask', setupCommand: '', verifyCommand: '' };
  try {
    const last = JSON.parse(localStorage.getItem(LAST_KEY) ?? 'null') as Partial<RunForm> | null;
    if (!last) return fallback;
    const agents = Array.isArray(last.agents) && last.agents.length >= MIN_RUN_AGENTS ? last.agents.slice(0, MAX_RUN_AGENTS).map((a) => agentRow(a)) : fallback.agents;
    return { ...fallback, ...last, agents, prompt: '' };
  } catch {
    return fallback;
  }
}

/**
 * Start a compare run: 2–6 agents (the same agent twice with other mode/model/config is fine),
 * the project folder, one prompt with attachments, the permission policy, optional setup and
 * verification commands. On start the run's sessions replace the visible panes.
 */
export function NewRunDialog() {
  const open = useRuns((s) => s.newRunOpen);
  const from = useRuns((s) => s.newRunFrom);
  if (!open) return null;
  // A new form for each run it starts from.
  return <NewRunForm key={from?.kind ?? 'new'} from={from} />;
}

const HEADINGS: Record<NewRunStart['kind'] | 'new', { title: string; intro: string }> = {
  new: { title: 'New compare run', intro: 'One prompt to several agents at once, each in its own copy of the project (a git worktree, or a copy of a plain folder).' },
  again: { title: 'Run again', intro: 'The agents, folder, prompt and commands of the earlier run: change what you like, then start.' },
  session: { title: 'Compare across agents', intro: "The session's folder and last prompt, its agent first: choose the agents to compare it with, each in its own copy of the project." },
};

/** The form to start with: a recorded run's or a session's, else the last one used. */
function initialForm(from: NewRunStart | null): { form: RunForm; attachments: Attachment[] } {
  if (!from) return { form: loadLast(), attachments: [] };
  const { form, attachments } = formFromParams(from.recipe.params);
  return { form, attachments: attachments.map(blockAttachment) };
}

function NewRunForm({ from }: { from: NewRunStart | null }) {
  const [catalog, setCatalog] = useState<CatalogAgentView[]>([]);
  const [initial] = useState(() => initialForm(from));
  const [form, setForm] = useState<RunForm>(initial.form);
  const [attachments, setAttachments] = useState<Attachment[]>(initial.attachments);
  const [phase, setPhase] = useState<'idle' | 'starting' | 'failed'>('idle');
  const [error, setError] = useState<string | null>(null);
  /** The creation under way, so Cancel can stop it (the core closes its agents and removes its workspaces). */
  const starting = useStoppableStart((startId) => void api().request('runs/abort-create', { startId }).catch(() => undefined));
  const waited = useSecondsSince(phase === 'starting');
  /** The latest step of the creation this dialog started (`run/create-progress` of its startId). */
  const [progress, setProgress] = useState<RunCreateProgress | null>(null);
  const progressOf = useRef<string | null>(null);
  useEffect(() => api().on('run/create-progress', (p) => p.startId === progressOf.current && setProgress(p)), []);
  /** Closes the dialog; a run being created is stopped (its agents closed, its workspaces removed in the core). */
  const close = () => {
    if (starting.stop()) setPhase('idle');
    runs.openNewRun(false);
  };

  // Esc closes it wherever the focus is (stopping a run being created, as Cancel does).
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    api()
      .request('agents/catalog')
      .then(setCatalog)
      .catch((err: unknown) => setError(errorText(err)));
  }, []);

  // No folder from the last run: the focused pane's project, else the settings' default folder.
  const cwdTouched = useRef(false);
  useEffect(() => {
    if (form.cwd.trim() !== '') return;
    const focused = useLayout.getState().focused;
    const paneCwd = focused ? useSessions.getState().views[focused]?.summary.cwd : undefined;
    if (paneCwd) return setForm((f) => (f.cwd.trim() === '' ? { ...f, cwd: paneCwd } : f));
    let current = true;
    api()
      .request('settings/get')
      .then(({ defaultFolderResolved }) => {
        if (current && defaultFolderResolved && !cwdTouched.current) setForm((f) => (f.cwd.trim() === '' ? { ...f, cwd: defaultFolderResolved } : f));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // Once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setAgent = (key: number, patch: Partial<AgentRow>) => setForm((f) => ({ ...f, agents: f.agents.map((a) => (a.key === key ? { ...a, ...patch } : a)) }));
  const removeAgent = (key: number) => setForm((f) => ({ ...f, agents: f.agents.filter((a) => a.key !== key) }));
  const addAgent = (from?: AgentRow) =>
    setForm((f) => (f.agents.length >= MAX_RUN_AGENTS ? f : { ...f, agents: [...f.agents, agentRow(from)] }));

  const start = async () => {
    setError(null);
    let params: ReturnType<typeof toCreateParams>;
    try {
      params = toCreateParams(form, attachments.map((a) => a.block));
    } catch (err) {
      setPhase('failed');
      setError(errorText(err));
      return;
    }
    const startId = starting.begin();
    progressOf.current = startId;
    setProgress(null);
    setPhase('starting');
    localStorage.setItem(LAST_KEY, JSON.stringify({ ...form, prompt: '' }));
    try {
      const run = await api().request('runs/create', { ...params, startId });
      if (!starting.finish(startId)) return;
      runs.remember(run);
      runs.showPanes(run);
      runs.openNewRun(false);
    } catch (err) {
      // Stopped by Cancel: the dialog is closed already, as the user asked.
      if (!starting.finish(startId)) return;
      setPhase('failed');
      setError(errorText(err));
    }
  };

  return (
    <div className="dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <form
        className="dialog new-run"
        role="dialog"
        aria-label="New compare run"
        data-testid="new-run-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <h2>{HEADINGS[from?.kind ?? 'new'].title}</h2>
        <p className="muted small">{HEADINGS[from?.kind ?? 'new'].intro} Your folder is left alone until you promote.</p>
        {from && from.recipe.notes.length > 0 && (
          <ul className="new-run-notes small" data-testid="new-run-notes">
            {from.recipe.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        )}
        <fieldset className="new-run-agents">
          <legend>
            Agents ({form.agents.length} of {MIN_RUN_AGENTS}–{MAX_RUN_AGENTS})
          </legend>
          {form.agents.map((row, i) => (
            <div key={row.key} className="new-run-agent" data-testid="new-run-agent" data-index={i}>
              <div className="new-run-agent-main">
                <span className="new-run-agent-no">{i + 1}</span>
                <select value={row.agentId} onChange={(e) => setAgent(row.key, { agentId: e.target.value })} data-testid="new-run-agent-select" aria-label={`Agent ${i + 1}`} autoFocus={i === 0}>
                  {catalog.map((a) => (
                    <option key={a.id} value={a.id} title={a.description}>
                      {a.name}
                      {a.demo ? ' (demo)' : ''}
                    </option>
                  ))}
                  {!catalog.some((a) => a.id === row.agentId) && row.agentId !== CUSTOM_COMMAND && <option value={row.agentId}>{row.agentId}</option>}
                  <option value={CUSTOM_COMMAND}>Custom command…</option>
                </select>
                <input value={row.label} onChange={(e) => setAgent(row.key, { label: e.target.value })} placeholder="label (optional)" aria-label={`Label of agent ${i + 1}`} data-testid="new-run-agent-label" className="new-run-label" spellCheck={false} />
                <button type="button" className="small" onClick={() => addAgent(row)} disabled={form.agents.length >= MAX_RUN_AGENTS} title="Add the same agent again (then change its mode, model or config)" data-testid="new-run-duplicate-agent">
                  Duplicate
                </button>
                <button type="button" className="icon" onClick={() => removeAgent(row.key)} disabled={form.agents.length <= MIN_RUN_AGENTS} title="Remove this agent" aria-label={`Remove agent ${i + 1}`} data-testid="new-run-remove-agent">
                  ✕
                </button>
              </div>
              {row.agentId === CUSTOM_COMMAND && (
                <input value={row.command} onChange={(e) => setAgent(row.key, { command: e.target.value })} placeholder="my-agent --acp" aria-label={`Command line of agent ${i + 1}`} data-testid="new-run-agent-command" spellCheck={false} />
              )}
              <div className="new-run-agent-settings">
                <input value={row.mode} onChange={(e) => setAgent(row.key, { mode: e.target.value })} placeholder="mode id" aria-label={`Mode of agent ${i + 1}`} data-testid="new-run-agent-mode" spellCheck={false} />
                <input value={row.model} onChange={(e) => setAgent(row.key, { model: e.target.value })} placeholder="model id" aria-label={`Model of agent ${i + 1}`} data-testid="new-run-agent-model" spellCheck={false} />
                <input value={row.config} onChange={(e) => setAgent(row.key, { config: e.target.value })} placeholder="config: id=value, id=value" aria-label={`Config options of agent ${i + 1}`} data-testid="new-run-agent-config" spellCheck={false} />
              </div>
            </div>
          ))}
          <button type="button" onClick={() => addAgent()} disabled={form.agents.length >= MAX_RUN_AGENTS} data-testid="new-run-add-agent">
            + Add an agent
          </button>
        </fieldset>
        <label>
          Project folder
          <FolderInput value={form.cwd} onValue={(v) => {
              cwdTouched.current = true;
              setForm({ ...form, cwd: v });
            }} placeholder="/home/you/project" data-testid="new-run-cwd" spellCheck={false} required />
        </label>
        <label>
          Prompt
          <textarea value={form.prompt} onChange={(e) => setForm({ ...form, prompt: e.target.value })} rows={4} data-testid="new-run-prompt" placeholder="What every agent should do" />
        </label>
        <div className="row new-run-attach">
          <label className="button small" title="Attach files (sent as embedded resources)">
            Attach files…
            <input
              type="file"
              multiple
              className="sr-only"
              data-testid="new-run-attach"
              onChange={(e) => {
                const files = [...(e.target.files ?? [])];
                e.target.value = '';
                void Promise.all(files.map(fileAttachment)).then((list) => setAttachments((a) => [...a, ...list]));
              }}
            />
          </label>
          <ul className="attachments">
            {attachments.map((a) => (
              <li key={a.id} data-testid="new-run-attachment">
                {a.name}
                <button type="button" className="icon" aria-label={`Remove ${a.name}`} onClick={() => setAttachments((list) => list.filter((x) => x.id !== a.id))}>
                  ✕
                </button>
              </li>
            ))}
          </ul>
        </div>
        <label>
          Permission requests (every agent of the run)
          <select value={form.policy} onChange={(e) => setForm({ ...form, policy: e.target.value as RunPolicy })} data-testid="new-run-policy">
            <option value="ask">Ask me (answered in each agent’s pane)</option>
            <option value="reads">Allow reads, reject the rest</option>
            <option value="all">Allow all (sensitive files still ask)</option>
            <option value="none">Reject all</option>
          </select>
        </label>
        <div className="new-run-commands">
          <label>
            Setup command (optional, in each workspace first)
            <input value={form.setupCommand} onChange={(e) => setForm({ ...form, setupCommand: e.target.value })} placeholder="npm ci" data-testid="new-run-setup" spellCheck={false} />
          </label>
          <label>
            Verification command (optional, when all are done)
            <input value={form.verifyCommand} onChange={(e) => setForm({ ...form, verifyCommand: e.target.value })} placeholder="npm test" data-testid="new-run-verify" spellCheck={false} />
          </label>
        </div>
        {phase === 'starting' && (
          <p className="progress" data-testid="new-run-progress" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>
              <span data-testid="new-run-step" data-step={progress?.step}>
                {progress ? createProgressText(progress, form.agents.map((row) => row.label.trim() || catalog.find((a) => a.id === row.agentId)?.name || '')) : `Making the workspaces and starting ${form.agents.length} agents…`}
              </span>
              {waited >= 3 ? (
                <span className="muted" data-testid="new-run-waited" data-seconds={waited}>
                  {' '}
                  {waited} s so far. Cancel stops the run and removes its workspaces.
                </span>
              ) : null}
            </span>
          </p>
        )}
        {error && (
          <pre className="error start-error" role="alert" data-testid="new-run-error">
            {error}
          </pre>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={close} data-testid="new-run-cancel" title={phase === 'starting' ? 'Stop the run being created and close' : undefined}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={phase === 'starting'} data-testid="new-run-start">
            {phase === 'failed' ? 'Retry' : `Start ${form.agents.length} agents`}
          </button>
        </div>
      </form>
    </div>
  );
}

