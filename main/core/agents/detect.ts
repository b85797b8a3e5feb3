/**
 * Which catalog agents can run here, and which version: the launch is resolved exactly as it would
 * be for a session (login-shell PATH), then an installed command is asked `--version`.
 */
import { spawn } from 'node:child_process';
import { LaunchError, resolveLaunch } from './launch';
import type { AgentDefinition, LaunchKind } from './types';

export interface Detection {
  id: string;
  /** An installed command (or the shipped script) would run — no download, no package runner. */
  installed: boolean;
  /** A launch resolves: installed, or through npx/uvx. */
  runnable: boolean;
  via?: LaunchKind;
  /** What would run (absolute path). */
  commandPath?: string;
  /** `--version` of an installed command, or the version npx/uvx would fetch. */
  version?: string;
  /** Why it is not runnable, or what went wrong asking for the version. */
  problem?: string;
  /** What the user can do when it is not runnable. */
  fix?: string;
}

export interface DetectOptions {
  /** The login-shell environment (`getLoginShellEnv`). */
  env: NodeJS.ProcessEnv;
  sessionCwd?: string;
  /** Per `--version` run; default 5 s. */
  versionTimeoutMs?: number;
  /** `--version` runs at a time; default 4. */
  concurrency?: number;
  platform?: NodeJS.Platform;
}

const VERSION_RE = /\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?/;

export interface CommandVersion {
  version?: string;
  /** The first non-empty output line, for display when no version number was found. */
  firstLine?: string;
  error?: string;
}

/** Run `command ...args` (default `--version`) without stdin, in its own process group, with a timeout. */
export function commandVersion(
  commandPath: string,
  options: { args?: string[]; env: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string },
): Promise<CommandVersion> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((done) => {
    let out = '';
    let err = '';
    let finished = false;
    const finish = (r: CommandVersion) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      done(r);
    };
    const child = spawn(commandPath, options.args ?? ['--version'], {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own group: an agent that starts serving instead of printing a version is killed whole.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const timer = setTimeout(() => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      finish({ ...parse(), error: `\`${commandPath} ${(options.args ?? ['--version']).join(' ')}\` did not finish within ${timeoutMs} ms` });
    }, timeoutMs);
    const parse = (): CommandVersion => {
      const text = `${out}\n${err}`;
      const firstLine = text.split('\n').map((l) => l.trim()).find(Boolean);
      const m = VERSION_RE.exec(out) ?? VERSION_RE.exec(err);
      return { ...(m ? { version: m[0] } : {}), ...(firstLine ? { firstLine: firstLine.slice(0, 200) } : {}) };
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(0, 64 * 1024)));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(0, 64 * 1024)));
    child.on('error', (e) => finish({ error: `could not run ${commandPath}: ${e.message}` }));
    child.on('close', (code) => {
      const r = parse();
      finish(code === 0 || r.version ? r : { ...r, error: `\`${commandPath} --version\` exited with code ${code}` });
    });
  });
}

function pinnedVersion(spec: string): string | undefined {
  const at = spec.lastIndexOf('@');
  return at > 0 ? spec.slice(at + 1) : undefined;
}

export async function detectAgent(agent: AgentDefinition, options: DetectOptions): Promise<Detection> {
  let launch;
  try {
    launch = resolveLaunch(agent.id, {
      catalog: [agent],
      env: options.env,
      sessionCwd: options.sessionCwd ?? process.cwd(),
      allowDisabled: true,
      ...(options.platform ? { platform: options.platform } : {}),
    });
  } catch (err) {
    if (!(err instanceof LaunchError)) throw err;
    return { id: agent.id, installed: false, runnable: false, problem: err.message.split('\n')[0]!, ...(err.fix ? { fix: err.fix } : {}) };
  }
  const base: Detection = { id: agent.id, installed: launch.via === 'path' || launch.via === 'node-script', runnable: true, via: launch.via, commandPath: launch.command };
  switch (launch.via) {
    case 'path': {
      const v = await commandVersion(launch.command, { env: launch.env, timeoutMs: options.versionTimeoutMs ?? 5_000 });
      return { ...base, ...(v.version ? { version: v.version } : {}), ...(v.error ? { problem: v.error } : {}) };
    }
    case 'npx':
    case 'uvx': {
      const candidate = agent.launch.find((c) => c.kind === launch.via);
      const version = candidate && 'package' in candidate ? pinnedVersion(candidate.package) : undefined;
      return {
        ...base,
        ...(version ? { version } : {}),
        fix: `Runs through ${launch.via}, which downloads it on first use (10–20 s). ${agent.install.text}`,
      };
    }
    case 'node-script':
      return { ...base, version: __WORKBENCH_VERSION__ };
    default:
      return base;
  }
}

/** Detect every agent, a few `--version` runs at a time; results are in catalog order. */
export async function detectAgents(catalog: readonly AgentDefinition[], options: DetectOptions): Promise<Detection[]> {
  const results: Detection[] = new Array(catalog.length);
  let next = 0;
  const worker = async () => {
    while (next < catalog.length) {
      const i = next++;
      results[i] = await detectAgent(catalog[i]!, options);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, catalog.length)) }, worker));
  return results;
}
