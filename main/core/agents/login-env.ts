/**
 * The user's login-shell environment. An app started from the desktop (Dock, launcher) gets a
 * minimal PATH, without what ~/.profile, ~/.zshrc, nvm, asdf or Homebrew add — so `claude-agent-acp`
 * or `npx` installed there would look missing. We ask the user's shell for its environment once and
 * cache it.
 *
 * Interactive shells can print anything (banners, prompts, motd) on stdout, so the env dump is
 * fenced by a random marker. The shell gets a few seconds; a hung rc file costs that much once, and
 * then this process's own environment is used.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface LoginEnv {
  env: NodeJS.ProcessEnv;
  /** Where `env` came from. */
  source: 'login-shell' | 'process';
  shell?: string;
  /** Why the login shell's env is not used, when it is not. */
  error?: string;
  durationMs: number;
}

export interface LoginEnvOptions {
  /** Default: $SHELL of `baseEnv`, else /bin/sh. */
  shell?: string;
  /** The environment the shell starts from and the fallback; default process.env. */
  baseEnv?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  platform?: NodeJS.Platform;
}

export const LOGIN_SHELL_TIMEOUT_MS = 5_000;

/** Variables that describe the throwaway shell itself, not the user's environment. */
const SHELL_ONLY = new Set(['_', 'SHLVL', 'PWD', 'OLDPWD']);

export function parseEnvDump(output: string, marker: string): NodeJS.ProcessEnv | undefined {
  const start = output.indexOf(marker);
  const end = start < 0 ? -1 : output.indexOf(marker, start + marker.length);
  if (end < 0) return undefined;
  const body = output.slice(start + marker.length, end);
  // `env -0` separates with NUL so values may hold newlines; without NUL support, fall back to lines.
  const entries = body.includes('\0') ? body.split('\0') : body.split('\n');
  const env: NodeJS.ProcessEnv = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (!SHELL_ONLY.has(name)) env[name] = entry.slice(eq + 1);
  }
  return env;
}

export function captureLoginShellEnv(options: LoginEnvOptions = {}): Promise<LoginEnv> {
  const baseEnv = options.baseEnv ?? process.env;
  const platform = options.platform ?? process.platform;
  const started = Date.now();
  const fallback = (error: string, shell?: string): LoginEnv => ({
    env: { ...baseEnv },
    source: 'process',
    ...(shell ? { shell } : {}),
    error,
    durationMs: Date.now() - started,
  });
  if (platform === 'win32') return Promise.resolve(fallback('Windows has no login shell to ask; using this process environment'));
  if (baseEnv.ACP_WORKBENCH_LOGIN_SHELL === '0') return Promise.resolve(fallback('ACP_WORKBENCH_LOGIN_SHELL=0: using this process environment'));

  const shell = options.shell ?? (baseEnv.SHELL || '/bin/sh');
  const marker = `__ACP_WORKBENCH_ENV_${randomBytes(8).toString('hex')}__`;
  const script = `printf '%s' '${marker}'; env -0; printf '%s' '${marker}'`;
  const timeoutMs = options.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS;

  return new Promise((resolveEnv) => {
    let stdout = '';
    let stderrTail = '';
    let settled = false;
    const done = (result: LoginEnv) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolveEnv(result);
    };
    let child;
    try {
      // Own process group, so a timeout also ends whatever the rc files started.
      child = spawn(shell, ['-l', '-i', '-c', script], { env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (err) {
      done(fallback(`could not start the login shell ${shell}: ${(err as Error).message}`, shell));
      return;
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      done(fallback(`the login shell ${shell} did not answer within ${timeoutMs} ms`, shell));
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderrTail = (stderrTail + d).slice(-500)));
    child.on('error', (err) => done(fallback(`could not start the login shell ${shell}: ${err.message}`, shell)));
    child.on('close', (code) => {
      const env = parseEnvDump(stdout, marker);
      if (!env || !env.PATH) {
        done(fallback(`the login shell ${shell} exited (code ${code}) without printing its environment${stderrTail.trim() ? `: ${stderrTail.trim()}` : ''}`, shell));
        return;
      }
      done({ env: { ...baseEnv, ...env }, source: 'login-shell', shell, durationMs: Date.now() - started });
    });
  });
}

const cache = new Map<string, Promise<LoginEnv>>();

/** The login-shell env, asked once per process (per shell) and then reused. */
export function getLoginShellEnv(options: LoginEnvOptions = {}): Promise<LoginEnv> {
  const baseEnv = options.baseEnv ?? process.env;
  const key = `${options.shell ?? baseEnv.SHELL ?? ''}\0${baseEnv.ACP_WORKBENCH_LOGIN_SHELL ?? ''}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = captureLoginShellEnv(options);
    cache.set(key, pending);
  }
  return pending;
}

export function clearLoginShellEnvCache(): void {
  cache.clear();
}
