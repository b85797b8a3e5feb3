/**
 * `sessions resume ID --prompt TEXT` and `sessions fork ID [--at N] [--agent-cmd "..." | --agent ID]
 * --prompt TEXT`: continue a recorded session live (main/core/history/continue), then run the
 * prompt like `run` does — the same events and summary, plus how it was continued and its parent.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { agentCommandWords } from '../agent-command';
import { switchesFromSettings } from '../../core/agents/capability-switches';
import { resolveAgentLaunch } from '../../core/agents/launch';
import { SecretStore } from '../../core/agents/secrets';
import { ContinueError, planContinuation, type ContinueKind } from '../../core/history/continue/continue-session';
import { DEFAULT_PRIMER_MAX_CHARS } from '../../core/history/continue/primer';
import type { ApprovePolicy } from '../../core/sessions/permission-chain';
import { PermissionBroker } from '../../core/sessions/permission-broker';
import { AlwaysMemory, APPROVE_POLICIES, standardPermissionChain } from '../../core/sessions/permission-policy';
import { PermissionQueue } from '../../core/sessions/permission-queue';
import { startAgentSession, type AgentLaunch } from '../../core/sessions/start-session';
import { parseCommandArgs } from '../args';
import type { CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';
import { HumanOutput } from '../run/human-output';
import { parseCapabilityFlags } from '../run/capability-flags';
import { runOneAgent } from '../run/run-agent';
import type { RunEvent } from '../run/run-events';
import type { RunOptions } from '../run/run-options';
import { askOnTerminal } from '../run/tty-permissions';
import { withStore } from './common';

const OPTIONS = {
  prompt: { type: 'string' },
  'prompt-file': { type: 'string' },
  env: { type: 'string', multiple: true },
  approve: { type: 'string' },
  'primer-max-chars': { type: 'string' },
  at: { type: 'string' },
  'agent-cmd': { type: 'string' },
  agent: { type: 'string' },
  capability: { type: 'string', multiple: true },
} as const;

async function otherAgent(v: { 'agent-cmd'?: string; agent?: string }, io: CliIo, paths: RunOptions['paths'], cwd: string): Promise<AgentLaunch | undefined> {
  if (v['agent-cmd'] !== undefined && v.agent !== undefined) throw new UsageError('give --agent-cmd or --agent, not both');
  if (v['agent-cmd'] !== undefined) {
    const { command, args, label } = agentCommandWords(v['agent-cmd']);
    return { command, args, env: { ...io.env }, cwd, label, agentId: v['agent-cmd'] };
  }
  if (v.agent === undefined) return undefined;
  const { launch, capabilities } = await resolveAgentLaunch({ agentId: v.agent, configDir: paths.configDir, dataDir: paths.dataDir, sessionCwd: cwd, processEnv: io.env });
  return {
    command: launch.command,
    args: launch.args,
    env: launch.env,
    cwd: launch.cwd,
    label: launch.agentId,
    agentId: launch.agentId,
    switches: switchesFromSettings(capabilities, { canRunTerminalLogins: false }),
    ...(launch.secretEnvNames ? { secretEnvNames: launch.secretEnvNames } : {}),
  };
}

export async function runContinue(kind: ContinueKind, argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseCommandArgs(argv, OPTIONS, io.env);
  const v = args.values;
  const [id, ...extra] = args.positionals;
  if (!id) throw new UsageError('missing session ID');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (kind === 'resume' && (v.at !== undefined || v['agent-cmd'] !== undefined || v.agent !== undefined)) {
    throw new UsageError('--at, --agent-cmd and --agent belong to fork (a resume goes on with the same agent from the end)');
  }
  if (v.prompt !== undefined && v['prompt-file'] !== undefined) throw new UsageError('give --prompt or --prompt-file, not both');
  let prompt = v.prompt;
  if (v['prompt-file'] !== undefined) {
    try {
      prompt = v['prompt-file'] === '-' ? readFileSync(0, 'utf8') : readFileSync(resolve(io.cwd, v['prompt-file']), 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --prompt-file ${v['prompt-file']}: ${(err as Error).message}`);
    }
  }
  if (prompt === undefined || prompt.trim() === '') throw new UsageError('give a prompt with --prompt TEXT or --prompt-file FILE');
  const env: Record<string, string> = {};
  for (const pair of v.env ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env takes KEY=VALUE, got "${pair}"`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const approve = (v.approve ?? 'ask') as ApprovePolicy;
  if (!APPROVE_POLICIES.includes(approve)) throw new UsageError(`--approve must be one of ${APPROVE_POLICIES.join(', ')}, got "${v.approve}"`);
  const at = v.at === undefined ? undefined : Number(v.at);
  if (at !== undefined && (!Number.isInteger(at) || at < 1)) throw new UsageError(`--at takes a user message number ≥ 1, got "${v.at}"`);
  const maxChars = v['primer-max-chars'] === undefined ? DEFAULT_PRIMER_MAX_CHARS : Number(v['primer-max-chars']);
  if (!Number.isInteger(maxChars) || maxChars < 200) throw new UsageError(`--primer-max-chars must be a whole number ≥ 200, got "${v['primer-max-chars']}"`);
  const capabilities = parseCapabilityFlags(v.capability ?? []);
  const json = Boolean(v.json);
  const name = kind;

  return withStore(args.paths.dataDir, io, name, async (store) => {
    const secrets = await SecretStore.open(args.paths.dataDir).catch(() => undefined);
    let plan;
    try {
      const agent = await otherAgent(v, io, args.paths, store.require(id).cwd ?? io.cwd);
      plan = await planContinuation({
        store,
        id,
        kind,
        ...(at !== undefined ? { beforeMessage: at } : {}),
        ...(agent ? { agent } : {}),
        env,
        ...(secrets ? { secrets } : {}),
        processEnv: io.env,
        primerMaxChars: maxChars,
      });
    } catch (err) {
      if (!(err instanceof ContinueError) && !(err as { fix?: string }).fix) throw err;
      const e = err as Error & { fix?: string };
      io.stderr(`acp-workbench sessions ${name}: ${e.message}${e.fix ? `\n${e.fix}` : ''}\n`);
      return ExitCode.usage;
    }
    for (const w of plan.warnings) io.stderr(`acp-workbench sessions ${name}: warning: ${w}\n`);
    const opts: RunOptions = { agents: [], env, cwd: plan.sessionCwd, prompt, approve, capabilities: {}, config: [], sharedCwd: false, isolate: false, links: [], json, paths: args.paths };
    const interactive = approve === 'ask' && io.interactive && !json;
    const queue = new PermissionQueue();
    const memory = new AlwaysMemory();
    const broker = new PermissionBroker({ deciders: standardPermissionChain({ memory }), queue, memory });
    const human = new HumanOutput(io, false);
    const emit = (event: RunEvent) => (json ? io.stdout(`${JSON.stringify(event)}\n`) : human.event(event));
    const asking = interactive ? askOnTerminal(queue, () => plan.launch.label, io.stderr) : undefined;
    try {
      const result = await runOneAgent({ index: 0, label: plan.launch.label }, plan.launch, opts, broker, interactive, emit, {
        start: (o) => startAgentSession({ ...o, ...plan.startOptions(), switches: capabilities }),
        prompt: (text) => plan.firstPrompt(text),
      });
      const how = kind === 'resume' ? { resumedBy: plan.by ?? null } : { forkedBy: plan.by ?? null };
      if (json) io.stdout(`${JSON.stringify({ ...result.summary, ...how, parent: plan.parent.id })}\n`);
      else {
        human.event(result.summary);
        io.stdout(`${kind === 'resume' ? 'resumed' : 'forked'} by ${plan.by ?? '(not opened)'} from ${plan.parent.id}${result.summary.id ? ` as ${result.summary.id}` : ''}\n`);
      }
      return result.exitCode;
    } finally {
      asking?.dispose();
    }
  });
}
