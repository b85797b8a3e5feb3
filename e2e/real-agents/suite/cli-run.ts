/**
 * One `acp-workbench run --json` of a real agent: the workbench's own code path, as a user or a
 * script runs it. The agent's launch (command, throw-away env) comes from agents.ts and goes in
 * through `--agent-cmd` and `--env`; the CLI itself gets only PATH, the locale and the run's HOME
 * and TMPDIR, so nothing from this machine's environment reaches the agent.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { AgentLaunch } from '../agents';

export interface CliRunOptions {
  cli: string;
  launch: AgentLaunch;
  projectDir: string;
  dataDir: string;
  configDir: string;
  prompt: string;
  approve: 'ask' | 'all' | 'reads' | 'none';
  /** Client capabilities withheld from the agent (agents.ts `withhold`), as `--capability NAME=off`. */
  withhold?: readonly ('readTextFile' | 'writeTextFile' | 'terminal')[];
  cancelAfterMs?: number;
  timeoutS: number;
  /** Hard limit for the CLI process itself (its --timeout should end it first). */
  killAfterMs: number;
  /** Where to keep the raw stdout (events) and stderr. */
  eventsFile: string;
  stderrFile: string;
}

export interface CliEvent {
  type: string;
  [key: string]: unknown;
}

export interface CliRunResult {
  exitCode: number | null;
  signal: string | null;
  events: CliEvent[];
  /** stdout lines that were not JSON objects (the CLI promises there are none with --json). */
  badLines: string[];
  stderr: string;
  wallMs: number;
  killed: boolean;
}

/** Quote a word for `--agent-cmd` (POSIX single quotes; the CLI splits like a shell, no expansion). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function cliArgs(o: CliRunOptions): string[] {
  const args = [
    o.cli,
    'run',
    '--json',
    '--agent-cmd',
    [o.launch.command, ...o.launch.args].map(shellQuote).join(' '),
    '--cwd',
    o.projectDir,
    '--prompt',
    o.prompt,
    '--approve',
    o.approve,
    '--timeout',
    String(o.timeoutS),
    '--data-dir',
    o.dataDir,
    '--config-dir',
    o.configDir,
  ];
  for (const [key, value] of Object.entries(o.launch.env)) if (value !== undefined) args.push('--env', `${key}=${value}`);
  for (const name of o.withhold ?? []) args.push('--capability', `${name === 'terminal' ? name : `fs.${name}`}=off`);
  if (o.cancelAfterMs !== undefined) args.push('--cancel-after', String(o.cancelAfterMs));
  return args;
}

/** Process groups of CLI runs still going, for the suite to kill on Ctrl-C. */
export const runningGroups = new Set<number>();

export function runCli(o: CliRunOptions): Promise<CliRunResult> {
  const env = o.launch.env;
  return runCliArgs({
    args: cliArgs(o),
    env: { PATH: env['PATH'], LANG: env['LANG'], HOME: env['HOME'], TMPDIR: env['TMPDIR'] },
    cwd: o.projectDir,
    killAfterMs: o.killAfterMs,
    eventsFile: o.eventsFile,
    stderrFile: o.stderrFile,
  });
}

/** The `--env KEY=VALUE` flags that hand an agent launch's whole environment to the agent. */
export function envFlags(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out.push('--env', `${key}=${value}`);
  return out;
}

export interface CliArgsRun {
  /** The CLI's argv after `node` (the bundled CLI first). */
  args: string[];
  /** The CLI's own environment (ACP_WORKBENCH_LOGIN_SHELL=0 is added). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  killAfterMs: number;
  eventsFile: string;
  stderrFile: string;
}

/** Any acp-workbench command line, in its own process group, stdout parsed as JSON lines. */
export function runCliArgs(o: CliArgsRun): Promise<CliRunResult> {
  const cliEnv: NodeJS.ProcessEnv = { ...o.env, ACP_WORKBENCH_LOGIN_SHELL: '0' };
  const started = Date.now();
  return new Promise((resolvePromise) => {
    // Own process group: a hung run is killed as a whole.
    const child = spawn(process.execPath, o.args, { cwd: o.cwd, env: cliEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid) runningGroups.add(child.pid);
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      killed = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone already
      }
    }, o.killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (child.pid) runningGroups.delete(child.pid);
      writeFileSync(o.eventsFile, stdout);
      writeFileSync(o.stderrFile, stderr);
      const events: CliEvent[] = [];
      const badLines: string[] = [];
      for (const line of stdout.split('\n')) {
        if (!line.trim()) continue;
        try {
          const value = JSON.parse(line) as unknown;
          if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as CliEvent).type === 'string') events.push(value as CliEvent);
          else badLines.push(line);
        } catch {
          badLines.push(line);
        }
      }
      resolvePromise({ exitCode: code, signal, events, badLines, stderr, wallMs: Date.now() - started, killed });
    });
  });
}
