/**
 * The "New compare run" form as data, and its conversion into `runs/create` params (pure):
 * agent rows (catalog id or a command line, label, mode / model / config as text), checks with
 * messages a user can act on.
 */
import type { CreateRunParams, RunAgentParams, RunPolicy } from '../../common/api/compare-types';
import { joinShellWords, splitShellWords } from '../../common/text/shell-words';
import type { ContentBlock } from '../../common/transcript/acp-types';

export const MIN_RUN_AGENTS = 2;
export const MAX_RUN_AGENTS = 6;
export const CUSTOM_COMMAND = '__command__';

export interface AgentRow {
  key: number;
  /** A catalog id, or CUSTOM_COMMAND. */
  agentId: string;
  command: string;
  label: string;
  mode: string;
  model: string;
  /** `configId=value`, one per line or separated by commas. */
  config: string;
}

export interface RunForm {
  agents: AgentRow[];
  cwd: string;
  prompt: string;
  policy: RunPolicy;
  setupCommand: string;
  verifyCommand: string;
}

let nextKey = 1;
/** A new row (a fresh key even when copied from another row). */
export function agentRow(partial: Partial<AgentRow> = {}): AgentRow {
  return { agentId: 'demo', command: '', label: '', mode: '', model: '', config: '', ...partial, key: nextKey++ };
}

export function parseConfig(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const item of text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new Error(`Config values are configId=value; "${item}" is not`);
    out.push([item.slice(0, eq).trim(), item.slice(eq + 1).trim()]);
  }
  return out;
}

/** The params of `runs/create`, or an Error saying what to fix. */
export function toCreateParams(form: RunForm, attachments: readonly ContentBlock[] = []): CreateRunParams {
  if (form.agents.length < MIN_RUN_AGENTS || form.agents.length > MAX_RUN_AGENTS) throw new Error(`A compare run takes ${MIN_RUN_AGENTS} to ${MAX_RUN_AGENTS} agents`);
  const cwd = form.cwd.trim();
  if (!cwd.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(cwd)) throw new Error('The project folder must be an absolute path');
  if (!form.prompt.trim() && attachments.length === 0) throw new Error('Type the prompt every agent gets');
  const agents: RunAgentParams[] = form.agents.map((row, i) => {
    let agent: RunAgentParams['agent'];
    if (row.agentId === CUSTOM_COMMAND) {
      const words = splitShellWords(row.command);
      if (!words.length) throw new Error(`Agent ${i + 1}: type the command that starts it`);
      agent = { command: words[0]!, args: words.slice(1) };
    } else agent = { agentId: row.agentId };
    let config: Array<[string, string]>;
    try {
      config = parseConfig(row.config);
    } catch (err) {
      throw new Error(`Agent ${i + 1}: ${(err as Error).message}`);
    }
    return {
      agent,
      ...(row.label.trim() ? { label: row.label.trim() } : {}),
      ...(row.mode.trim() ? { mode: row.mode.trim() } : {}),
      ...(row.model.trim() ? { model: row.model.trim() } : {}),
      ...(config.length ? { config } : {}),
    };
  });
  const prompt: ContentBlock[] = [...(form.prompt.trim() ? [{ type: 'text' as const, text: form.prompt }] : []), ...attachments];
  return {
    cwd,
    agents,
    prompt,
    policy: form.policy,
    ...(form.setupCommand.trim() ? { setupCommand: form.setupCommand.trim() } : {}),
    ...(form.verifyCommand.trim() ? { verifyCommand: form.verifyCommand.trim() } : {}),
  };
}

/**
 * The form that `toCreateParams` turns into these params (a recorded run's, for "Run again"), and
 * the prompt's blocks other than its text, which the dialog shows as attachments.
 */
export function formFromParams(params: CreateRunParams): { form: RunForm; attachments: ContentBlock[] } {
  const agents = params.agents.map((a) =>
    agentRow({
      ...('agentId' in a.agent ? { agentId: a.agent.agentId } : { agentId: CUSTOM_COMMAND, command: joinShellWords([a.agent.command, ...(a.agent.args ?? [])]) }),
      label: a.label ?? '',
      mode: a.mode ?? '',
      model: a.model ?? '',
      config: (a.config ?? []).map(([id, value]) => `${id}=${value}`).join(', '),
    }),
  );
  const text = params.prompt.filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text').map((b) => b.text);
  return {
    form: { agents, cwd: params.cwd, prompt: text.join('\n\n'), policy: params.policy, setupCommand: params.setupCommand ?? '', verifyCommand: params.verifyCommand ?? '' },
    attachments: params.prompt.filter((b) => b.type !== 'text'),
  };
}
