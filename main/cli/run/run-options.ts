import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseCommandArgs } from '../args';
import { UsageError } from '../exit-codes';
import { agentCommandWords } from '../agent-command';
import { APPROVE_POLICIES } from '../../core/sessions/permission-policy';
import type { ApprovePolicy } from '../../core/sessions/permission-chain';
import type { WorkbenchPaths } from '../../core/paths';
import type { McpServerSettings } from '../../core/agents/settings-schema';
import { MAX_RUN_AGENTS } from '../../core/workspace/run-types';
import type { ClientCapabilitySwitches } from '../../core/acp/client-capabilities';
import { parseCapabilityFlags } from './capability-flags';

export const RUN_USAGE = `Usage: acp-workbench run (--agent-cmd "COMMAND ARGS" | --agent ID)... --prompt TEXT [options]

Start each agent, open a session in --cwd, send the prompt, stream the transcript, and end with a
summary per agent. Several agents run at once.

Options:
  --agent-cmd "CMD ARGS"   an agent command line (repeatable; quotes as in a shell, no expansion)
  --agent ID               an agent of the catalog (repeatable; see \`acp-workbench agents\`)
  --env KEY=VALUE          set a variable for the agents (repeatable; they inherit yours otherwise)
  --cwd DIR                the project folder (default: the current folder)
  --prompt TEXT            the prompt
  --prompt-file FILE       read the prompt from FILE ("-" = stdin)
  --approve POLICY         permission requests: ask (a terminal asks you; without one = none),
                           all (allow, except sensitive files), reads (allow read/search/fetch/think,
                           reject the rest), none (reject) — default ask
  --capability NAME=on|off switch a client capability for every agent (repeatable): fs.readTextFile,
                           fs.writeTextFile, terminal (e.g. fs.readTextFile=off for gemini)
  --allow-sensitive        let the agents read and write sensitive files (.env, private keys, ...)
                           in --cwd through fs requests without asking; otherwise each such read
                           or write needs a person's yes at the terminal, and is refused without one
  --mode ID                set the session mode before the prompt
  --model ID               set the model before the prompt
  --config ID=VALUE        set a config option before the prompt (repeatable)
  --cancel-after MS        send session/cancel MS milliseconds after the prompt
  --timeout S              give up on a turn after S seconds (exit 4)
  --shared-cwd             let several agents work in the same folder
  --isolate                give each agent its own workspace (a git worktree of a snapshot of
                           --cwd, or a copy of a folder not in git) and compare them at the end
  --setup-cmd "CMD"        with --isolate: run CMD in each workspace before the prompt
  --verify-cmd "CMD"       with --isolate: run CMD in each workspace after the turns (e.g. tests)
  --link DIR               with --isolate: link DIR of --cwd into each workspace (repeatable),
                           e.g. node_modules
  --json                   one JSON event per line; each agent ends with a "summary" event`;

export interface RunOptions {
  /** From settings.json: each goes to the agents that support its transport. */
  mcpServerSettings?: readonly McpServerSettings[];
  agents: Array<{ kind: 'cmd'; command: string; args: string[]; text: string } | { kind: 'catalog'; id: string }>;
  env: Record<string, string>;
  cwd: string;
  prompt: string;
  approve: ApprovePolicy;
  /** `--allow-sensitive`: fs reads/writes of sensitive files need no person's yes. */
  allowSensitive?: boolean;
  /** `--capability`: client capabilities switched for every agent, over the catalog's. */
  capabilities: Partial<ClientCapabilitySwitches>;
  mode?: string;
  model?: string;
  config: Array<[string, string]>;
  cancelAfterMs?: number;
  timeoutMs?: number;
  sharedCwd: boolean;
  /** `--isolate`: a compare run, each agent in its own workspace (main/core/workspace). */
  isolate: boolean;
  setupCommand?: string;
  verifyCommand?: string;
  links: string[];
  json: boolean;
  paths: WorkbenchPaths;
}

const number = (flag: string, raw: string | undefined, min: number): number | undefined => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`${flag} must be a number ≥ ${min}, got "${raw}"`);
  return n;
};

export function parseRunOptions(argv: string[], io: { env: NodeJS.ProcessEnv; cwd: string; readStdin: () => string }): RunOptions {
  const args = parseCommandArgs(
    argv,
    {
      'agent-cmd': { type: 'string', multiple: true },
      agent: { type: 'string', multiple: true },
      env: { type: 'string', multiple: true },
      cwd: { type: 'string' },
      prompt: { type: 'string' },
      'prompt-file': { type: 'string' },
      approve: { type: 'string' },
      'allow-sensitive': { type: 'boolean' },
      capability: { type: 'string', multiple: true },
      mode: { type: 'string' },
      model: { type: 'string' },
      config: { type: 'string', multiple: true },
      'cancel-after': { type: 'string' },
      timeout: { type: 'string' },
      'shared-cwd': { type: 'boolean' },
      isolate: { type: 'boolean' },
      'setup-cmd': { type: 'string' },
      'verify-cmd': { type: 'string' },
      link: { type: 'string', multiple: true },
    },
    io.env,
  );
  const v = args.values;
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const agents: RunOptions['agents'] = [];
  for (const text of v['agent-cmd'] ?? []) {
    const { command, args } = agentCommandWords(text);
    agents.push({ kind: 'cmd', command, args, text });
  }
  for (const id of v.agent ?? []) agents.push({ kind: 'catalog', id });
  if (agents.length === 0) throw new UsageError('name at least one agent with --agent-cmd or --agent');

  if (v.prompt !== undefined && v['prompt-file'] !== undefined) throw new UsageError('give --prompt or --prompt-file, not both');
  let prompt = v.prompt;
  if (v['prompt-file'] !== undefined) {
    const file = v['prompt-file'];
    try {
      prompt = file === '-' ? io.readStdin() : readFileSync(resolve(io.cwd, file), 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --prompt-file ${file}: ${(err as Error).message}`);
    }
  }
  if (prompt === undefined || prompt.trim() === '') throw new UsageError('give a prompt with --prompt TEXT or --prompt-file FILE');

  const env: Record<string, string> = {};
  for (const pair of v.env ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env takes KEY=VALUE, got "${pair}"`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const config: Array<[string, string]> = [];
  for (const pair of v.config ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--config takes ID=VALUE, got "${pair}"`);
    config.push([pair.slice(0, eq), pair.slice(eq + 1)]);
  }
  const approve = (v.approve ?? 'ask') as ApprovePolicy;
  if (!APPROVE_POLICIES.includes(approve)) throw new UsageError(`--approve must be one of ${APPROVE_POLICIES.join(', ')}, got "${v.approve}"`);

  const cwd = v.cwd === undefined ? io.cwd : isAbsolute(v.cwd) ? v.cwd : resolve(io.cwd, v.cwd);
  const isolate = Boolean(v.isolate);
  for (const flag of ['setup-cmd', 'verify-cmd', 'link'] as const) {
    if (v[flag] !== undefined && !isolate) throw new UsageError(`--${flag} needs --isolate`);
  }
  for (const flag of ['setup-cmd', 'verify-cmd'] as const) {
    if (v[flag] !== undefined && v[flag].trim() === '') throw new UsageError(`--${flag} needs a command`);
  }
  if (isolate && agents.length > MAX_RUN_AGENTS) throw new UsageError(`--isolate takes at most ${MAX_RUN_AGENTS} agents, got ${agents.length}`);
  if (agents.length > 1 && !v['shared-cwd'] && !isolate) {
    throw new UsageError('several agents in one folder would overwrite each other\'s changes: add --isolate to give each its own workspace, or --shared-cwd to allow it');
  }
  const cancelAfterMs = number('--cancel-after', v['cancel-after'], 0);
  const timeoutS = number('--timeout', v.timeout, 0.001);
  return {
    agents,
    env,
    cwd,
    prompt,
    approve,
    ...(v['allow-sensitive'] ? { allowSensitive: true } : {}),
    capabilities: parseCapabilityFlags(v.capability ?? []),
    ...(v.mode !== undefined ? { mode: v.mode } : {}),
    ...(v.model !== undefined ? { model: v.model } : {}),
    config,
    ...(cancelAfterMs !== undefined ? { cancelAfterMs } : {}),
    ...(timeoutS !== undefined ? { timeoutMs: timeoutS * 1000 } : {}),
    sharedCwd: Boolean(v['shared-cwd']),
    isolate,
    ...(v['setup-cmd'] !== undefined ? { setupCommand: v['setup-cmd'] } : {}),
    ...(v['verify-cmd'] !== undefined ? { verifyCommand: v['verify-cmd'] } : {}),
    links: v.link ?? [],
    json: Boolean(v.json),
    paths: args.paths,
  };
}
