/**
 * Terminal logins (acp-reference §13): an auth method of `type: "terminal"` is run as the agent's
 * own launch command with the method's `args` appended and its `env` laid over the agent's, in a
 * real PTY the user types into; exit 0 means logged in. The older Zed form,
 * `_meta["terminal-auth"] = {command, args, label, env?}`, names its command explicitly.
 *
 * The process gets the agent's whole environment, secrets included, exactly like the agent; its
 * output goes to the UI only, never to a trace or a log (it may echo tokens).
 */
import type { AuthMethod } from '@agentclientprotocol/sdk/unstable';
import { displayCommand } from '../launch';
import type { Pty, PtyModule } from './pty';

/** What the agent is started with for ACP (the session manager's AgentLaunch fits). */
export interface LoginBaseLaunch {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface TerminalLoginCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Only the method's own env and the command line: what a user types in their own terminal. */
  display: string;
}

interface ZedTerminalAuth {
  command: string;
  args?: unknown;
  label?: unknown;
  env?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const stringMap = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};

function zedTerminalAuth(method: AuthMethod): ZedTerminalAuth | undefined {
  const meta = (method as { _meta?: unknown })._meta;
  const ta = meta && typeof meta === 'object' ? (meta as Record<string, unknown>)['terminal-auth'] : undefined;
  return ta && typeof ta === 'object' && typeof (ta as { command?: unknown }).command === 'string' ? (ta as ZedTerminalAuth) : undefined;
}

/** A method the workbench runs in a terminal: `type: "terminal"`, or the Zed `_meta["terminal-auth"]` form. */
export function isTerminalLoginMethod(method: AuthMethod): boolean {
  return (method as { type?: unknown }).type === 'terminal' || zedTerminalAuth(method) !== undefined;
}

/** The process a terminal-login method runs; undefined for methods that are not terminal logins. */
export function terminalLoginCommand(launch: LoginBaseLaunch, method: AuthMethod, fallbackCwd: string): TerminalLoginCommand | undefined {
  const cwd = launch.cwd ?? fallbackCwd;
  const zed = zedTerminalAuth(method);
  if ((method as { type?: unknown }).type === 'terminal') {
    const m = method as { args?: unknown; env?: unknown };
    const overlay = stringMap(m.env);
    const args = [...launch.args, ...strings(m.args)];
    return { command: launch.command, args, env: { ...launch.env, ...overlay }, cwd, display: withEnv(overlay, displayCommand(launch.command, args)) };
  }
  if (zed) {
    const overlay = stringMap(zed.env);
    const args = strings(zed.args);
    return { command: zed.command, args, env: { ...launch.env, ...overlay }, cwd, display: withEnv(overlay, displayCommand(zed.command, args)) };
  }
  return undefined;
}

function withEnv(overlay: Record<string, string>, commandLine: string): string {
  const pairs = Object.entries(overlay).map(([k, v]) => displayCommand(`${k}=${v}`, []));
  return [...pairs, commandLine].join(' ');
}

export interface LoginExit {
  exitCode: number | null;
  signal: number | null;
}

export interface TerminalLoginHandlers {
  onData(data: string): void;
  onExit(exit: LoginExit): void;
}

/** The most output kept for a view opened late (older output is dropped first). */
export const KEPT_OUTPUT_CHARS = 64 * 1024;

/** One terminal login running in a PTY: output out, keystrokes and resizes in, its exit. */
export class TerminalLogin {
  private kept = '';
  private exitInfo: LoginExit | undefined;
  readonly exited: Promise<LoginExit>;

  private constructor(
    private readonly pty: Pty,
    handlers: TerminalLoginHandlers,
  ) {
    let resolveExit!: (e: LoginExit) => void;
    this.exited = new Promise((r) => (resolveExit = r));
    pty.onData((data) => {
      this.kept = (this.kept + data).slice(-KEPT_OUTPUT_CHARS);
      handlers.onData(data);
    });
    pty.onExit(({ exitCode, signal }) => {
      // node-pty reports signal 0 for a normal exit.
      this.exitInfo = { exitCode: signal ? null : exitCode, signal: signal || null };
      handlers.onExit(this.exitInfo);
      resolveExit(this.exitInfo);
    });
  }

  /** Spawn the login in a PTY; throws (with the command in the message) when it cannot be started. */
  static start(ptyModule: PtyModule, cmd: TerminalLoginCommand, size: { cols: number; rows: number }, handlers: TerminalLoginHandlers): TerminalLogin {
    const env = Object.fromEntries(Object.entries({ TERM: 'xterm-256color', ...cmd.env }).filter((e): e is [string, string] => typeof e[1] === 'string'));
    let pty: Pty;
    try {
      pty = ptyModule.spawn(cmd.command, cmd.args, { name: 'xterm-256color', cols: clampSize(size.cols, 80), rows: clampSize(size.rows, 24), cwd: cmd.cwd, env });
    } catch (err) {
      throw new Error(`Could not start the login command \`${cmd.display}\`: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new TerminalLogin(pty, handlers);
  }

  get pid(): number {
    return this.pty.pid;
  }

  get exit(): LoginExit | undefined {
    return this.exitInfo;
  }

  /** The output so far (the last KEPT_OUTPUT_CHARS characters). */
  get output(): string {
    return this.kept;
  }

  write(data: string): void {
    if (!this.exitInfo) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.exitInfo) this.pty.resize(clampSize(cols, 80), clampSize(rows, 24));
  }

  kill(): void {
    if (this.exitInfo) return;
    try {
      this.pty.kill();
    } catch {
      // Already gone between the check and the kill.
    }
  }
}

function clampSize(n: number, fallback: number): number {
  return Number.isInteger(n) && n >= 2 && n <= 1000 ? n : fallback;
}
