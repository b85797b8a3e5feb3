import { isAbsolute, resolve } from 'node:path';
import { agentCommandWords } from '../agent-command';
import { resolveAgentLaunch } from '../../core/agents/launch';
import { runCheck, type CheckResult, type CheckStep } from '../../core/qa/check/run-check';
import type { Finding } from '../../core/qa/types';
import type { AgentLaunch } from '../../core/sessions/start-session';
import { parseCommandArgs } from '../args';
import { printFindings } from '../qa/print-findings';
import type { CliCommand, CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';

const USAGE = `Usage: acp-workbench check (--agent-cmd "COMMAND ARGS" | --agent ID) [options]

Run a scripted session against the agent and print its conformance report (docs/conformance.md):
initialize, session/new, each advertised session method, a prompt, a prompt cancelled mid-turn,
prompts with content the agent advertised and content it did not, load/resume/fork/close/delete
when advertised, and probes of the session methods it did not advertise. Permission requests are
rejected: check changes nothing in --cwd. The session is recorded as a trace like any other.

Options:
  --agent-cmd "CMD ARGS"   the agent command line (quotes as in a shell, no expansion)
  --agent ID               an agent of the catalog (see \`acp-workbench agents\`)
  --env KEY=VALUE          set a variable for the agent (repeatable)
  --cwd DIR                the session folder (default: the current folder)
  --prompt TEXT            the first prompt (default: a one-sentence hello without tools)
  --timeout S              time limit of one turn (default 120)
  --cancel-timeout S       how long the agent may take to end a cancelled turn (default 5)
  --json                   print the report as one JSON object

Exit codes: 0 no error-level finding, 1 at least one, 2 usage error, 3 the agent could not be
started or no session could be opened (the report of what happened is still printed).`;

const seconds = (flag: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a number of seconds > 0, got "${raw}"`);
  return n * 1000;
};

async function resolveLaunch(
  v: { 'agent-cmd'?: string; agent?: string },
  env: Record<string, string>,
  cwd: string,
  paths: { configDir: string; dataDir: string },
  processEnv: NodeJS.ProcessEnv,
): Promise<AgentLaunch> {
  if ((v['agent-cmd'] === undefined) === (v.agent === undefined)) throw new UsageError('name the agent with --agent-cmd or --agent (one of them)');
  if (v['agent-cmd'] !== undefined) {
    const { command, args, label } = agentCommandWords(v['agent-cmd']);
    return { command, args, env: { ...processEnv, ...env }, cwd, label, agentId: v['agent-cmd'] };
  }
  const { launch } = await resolveAgentLaunch({ agentId: v.agent!, configDir: paths.configDir, dataDir: paths.dataDir, sessionCwd: cwd, processEnv });
  return { command: launch.command, args: launch.args, env: { ...launch.env, ...env }, cwd: launch.cwd, label: launch.agentId, agentId: launch.agentId, ...(launch.secretEnvNames ? { secretEnvNames: launch.secretEnvNames } : {}) };
}

export const checkCommand: CliCommand = {
  name: 'check',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommandArgs(
      argv,
      {
        'agent-cmd': { type: 'string' },
        agent: { type: 'string' },
        env: { type: 'string', multiple: true },
        cwd: { type: 'string' },
        prompt: { type: 'string' },
        timeout: { type: 'string' },
        'cancel-timeout': { type: 'string' },
      },
      io.env,
    );
    const v = args.values;
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const env: Record<string, string> = {};
    for (const pair of v.env ?? []) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`--env takes KEY=VALUE, got "${pair}"`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    if (v.prompt !== undefined && v.prompt.trim() === '') throw new UsageError('--prompt is empty');
    const cwd = v.cwd === undefined ? io.cwd : isAbsolute(v.cwd) ? v.cwd : resolve(io.cwd, v.cwd);
    const turnTimeoutMs = seconds('--timeout', v.timeout);
    const cancelTimeoutMs = seconds('--cancel-timeout', v['cancel-timeout']);
    let launch: AgentLaunch;
    try {
      launch = await resolveLaunch(v, env, cwd, args.paths, io.env);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      io.stderr(`acp-workbench check: ${(err as Error).message}\n`);
      return ExitCode.agentStartFailed;
    }
    const json = Boolean(v.json);
    if (!json) io.stderr(`Checking ${launch.label}...\n`);
    const result = await runCheck({
      launch,
      sessionCwd: cwd,
      dataDir: args.paths.dataDir,
      ...(v.prompt !== undefined ? { prompt: v.prompt } : {}),
      ...(turnTimeoutMs !== undefined ? { turnTimeoutMs } : {}),
      ...(cancelTimeoutMs !== undefined ? { cancelTimeoutMs } : {}),
      onStep: json ? undefined : (s) => io.stderr(`  ${stepLine(s)}\n`),
    });
    if (json) io.stdout(`${JSON.stringify(jsonReport(result))}\n`);
    else printHuman(io, result);
    if (result.report.counts.error > 0) return ExitCode.checkFailed;
    return result.startError !== undefined ? ExitCode.agentStartFailed : ExitCode.ok;
  },
};

function jsonReport(result: CheckResult) {
  const { report } = result;
  return {
    type: 'check',
    agent: report.agent,
    protocolVersion: report.protocolVersion,
    capabilities: report.capabilities,
    findings: report.findings.map((f: Finding) => ({ rule: f.rule, severity: f.severity, message: f.message, evidence: f.evidence })),
    trace: result.trace,
    steps: result.steps,
    error: result.startError ?? null,
  };
}

const MARK: Record<CheckStep['status'], string> = { ok: 'ok  ', skipped: 'skip', failed: 'FAIL' };

function stepLine(s: CheckStep): string {
  return `${MARK[s.status]} ${s.step}${s.detail ? ` — ${s.detail.split('\n')[0]}` : ''}`;
}

function printHuman(io: CliIo, result: CheckResult): void {
  const { report } = result;
  if (result.startError) io.stderr(`acp-workbench check: ${result.startError}\n`);
  const agent = report.agent ? `${report.agent.name ?? '?'} ${report.agent.version ?? ''}`.trim() : 'the agent';
  io.stdout(`Conformance report for ${agent}${report.protocolVersion !== null ? ` (protocol ${report.protocolVersion})` : ''}\n`);
  if (result.trace) io.stdout(`trace: ${result.trace}\n`);
  io.stdout('\n');
  printFindings(io, report);
}
