import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsc, promises as fsp, statSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  KillTerminalResponse,
  ReleaseTerminalRequest,
  ReleaseTerminalResponse,
  TerminalExitStatus,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk/unstable';
import { PathRefusal, resolveInsideRoots, resolveRootsProvider, type RootsProvider } from './path-guard';
import { isGroupRunning, signalGroup } from './process-registry';
import { requestError, sdk } from './sdk-runtime';

/**
 * The client side of `terminal/*`: commands the agent runs on the user's machine, each in its own
 * process group so kill/release/disposeAll take down everything it started (not just a wrapper).
 */

export interface TerminalInfo {
  terminalId: string;
  sessionId: string;
  /** As the agent sent it. */
  command: string;
  args: string[];
  /** Real path of the working directory. */
  cwd: string;
  pid: number;
  /** The command was a whole shell line, run through /bin/sh -c (cmd /c on Windows). */
  shellLine: boolean;
  outputByteLimit: number;
}

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** What the UI shows for a terminal, also after the agent released it. */
export interface TerminalSnapshot {
  info: TerminalInfo;
  output: string;
  truncated: boolean;
  exitStatus: TerminalExit | null;
  released: boolean;
}

export interface TerminalListeners {
  onCreate?: (info: TerminalInfo) => void;
  /** Decoded text as it arrives, stdout and stderr interleaved; never split inside a character. */
  onOutput?: (terminalId: string, chunk: string) => void;
  onExit?: (terminalId: string, exit: TerminalExit) => void;
  onRelease?: (terminalId: string) => void;
  /** For the process registry: pid is also the process group id on POSIX. */
  onProcessStarted?: (pid: number, command: string) => void;
}

export interface TerminalManagerOptions extends TerminalListeners {
  roots: RootsProvider;
  /** Environment the commands start from; the agent's `env` entries are applied on top. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Our own cap on kept output, also when the agent asks for more or for no limit. */
  maxOutputBytes?: number;
  /** SIGTERM first; SIGKILL after this long if the command is still running. */
  killGraceMs?: number;
  /** After the process exits, how long to wait for its output pipes to close (a background child may hold them). */
  exitDrainMs?: number;
}

export interface Disposable {
  dispose(): void;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const isWindows = process.platform === 'win32';

/** Characters that only mean something to a shell; with no args, such a command is a shell line. */
const SHELL_SYNTAX = /[\s|&;<>()$`\\"'*?[\]#~={}!%^]/;

/**
 * claude-code-acp sends the whole line (`npm test -- --watch=false`) in `command` without args, so a
 * command with no args that a shell would parse is run by a shell. An absolute path to an existing
 * program is run as is even with spaces in it.
 */
export function isShellLine(command: string, args: readonly string[] | undefined): boolean {
  if (args && args.length > 0) return false;
  if (!SHELL_SYNTAX.test(command)) return false;
  if (path.isAbsolute(command)) {
    try {
      accessSync(command, fsc.X_OK);
      if (statSync(command).isFile()) return false;
    } catch {
      // Not a program: let the shell make sense of it.
    }
  }
  return true;
}

/**
 * Keeps the last `limit` bytes of output. Chunks are complete UTF-8 strings (decoded per stream
 * first), so the only cut inside a character is the one made when dropping from the start, and
 * that is moved forward past continuation bytes.
 */
class OutputBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  append(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length === 0) return;
    this.chunks.push(bytes);
    this.size += bytes.length;
    while (this.size > this.limit) {
      this.truncated = true;
      const first = this.chunks[0]!;
      const excess = this.size - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
    for (;;) {
      const first = this.chunks[0];
      if (!first) break;
      let skip = 0;
      while (skip < first.length && (first[skip]! & 0xc0) === 0x80) skip++;
      if (skip === 0) break;
      this.size -= skip;
      if (skip === first.length) this.chunks.shift();
      else this.chunks[0] = first.subarray(skip);
    }
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0]?.toString('utf8') ?? '';
  }
}

interface Terminal {
  info: TerminalInfo;
  child: ChildProcess;
  output: OutputBuffer;
  exit: TerminalExit | null;
  exited: Promise<TerminalExit>;
  released: boolean;
}

let nextId = 1;

export class TerminalManager {
  private readonly all = new Map<string, Terminal>();
  private readonly listeners = new Set<TerminalListeners>();
  private readonly maxOutputBytes: number;
  private readonly killGraceMs: number;
  private readonly exitDrainMs: number;

  constructor(private readonly opts: TerminalManagerOptions) {
    this.maxOutputBytes = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.killGraceMs = opts.killGraceMs ?? 3000;
    this.exitDrainMs = opts.exitDrainMs ?? 250;
    this.listeners.add(opts);
  }

  subscribe(listeners: TerminalListeners): Disposable {
    this.listeners.add(listeners);
    return { dispose: () => void this.listeners.delete(listeners) };
  }

  /** Starts the command and answers as soon as it runs; it keeps running in the background. */
  async create(params: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    if (typeof params.command !== 'string' || params.command.trim() === '') {
      throw requestError(-32602, 'terminal/create: command must be a non-empty string', { reason: 'invalid_params' });
    }
    const args = params.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) {
      throw requestError(-32602, 'terminal/create: args must be an array of strings', { reason: 'invalid_params' });
    }
    const env = this.buildEnv(params.env);
    const cwd = await this.checkCwd(params);
    const limit = this.outputLimit(params.outputByteLimit);
    const shellLine = isShellLine(params.command, args);
    const [file, argv] = shellLine ? shellCommand(params.command) : [params.command, args];

    // The cwd check keeps the agent's intent inside the project; it is not a sandbox: the command
    // itself can `cd` anywhere, which is why running it at all goes through the permission policy.
    const child = spawn(file, argv, {
      cwd,
      env,
      // Own process group (POSIX setsid) so the group can be killed as one.
      detached: !isWindows,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: shellLine && isWindows,
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    }).catch((err: NodeJS.ErrnoException) => {
      throw requestError(-32603, `terminal/create: cannot start ${JSON.stringify(params.command)}: ${err.message}`, {
        reason: 'spawn_failed',
        code: err.code,
        command: params.command,
        cwd,
      });
    });

    const terminalId = `term-${process.pid}-${nextId++}`;
    const info: TerminalInfo = {
      terminalId,
      sessionId: params.sessionId,
      command: params.command,
      args: [...args],
      cwd,
      pid: child.pid!,
      shellLine,
      outputByteLimit: limit,
    };
    const term = this.track(info, child);
    this.all.set(terminalId, term);
    this.emit((l) => l.onProcessStarted?.(info.pid, [params.command, ...args].join(' ')));
    this.emit((l) => l.onCreate?.(info));
    return { terminalId };
  }

  async output(params: TerminalOutputRequest): Promise<TerminalOutputResponse> {
    const term = this.agentTerminal(params, 'terminal/output');
    const res: TerminalOutputResponse = { output: term.output.text(), truncated: term.output.truncated };
    if (term.exit) res.exitStatus = { ...term.exit } satisfies TerminalExitStatus;
    return res;
  }

  async waitForExit(params: WaitForTerminalExitRequest, signal?: AbortSignal): Promise<WaitForTerminalExitResponse> {
    const term = this.agentTerminal(params, 'terminal/wait_for_exit');
    if (!signal) return { ...(await term.exited) };
    if (signal.aborted) throw sdk().RequestError.requestCancelled({ terminalId: params.terminalId });
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(sdk().RequestError.requestCancelled({ terminalId: params.terminalId }));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return { ...(await Promise.race([term.exited, aborted])) };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Kills the command's whole process group; the terminal stays valid for output/wait. */
  async kill(params: KillTerminalRequest): Promise<KillTerminalResponse> {
    this.killGroup(this.agentTerminal(params, 'terminal/kill'), 'SIGTERM');
    return {};
  }

  /** Kills if running; the id is then unknown to the agent, but the output stays for the UI. */
  async release(params: ReleaseTerminalRequest): Promise<ReleaseTerminalResponse> {
    const term = this.agentTerminal(params, 'terminal/release');
    term.released = true;
    this.killGroup(term, 'SIGTERM');
    this.emit((l) => l.onRelease?.(term.info.terminalId));
    return {};
  }

  /** For the UI: any terminal ever created here, released or not. */
  snapshot(terminalId: string): TerminalSnapshot | undefined {
    const term = this.all.get(terminalId);
    if (!term) return undefined;
    return {
      info: term.info,
      output: term.output.text(),
      truncated: term.output.truncated,
      exitStatus: term.exit,
      released: term.released,
    };
  }

  list(sessionId?: string): TerminalInfo[] {
    return [...this.all.values()].filter((t) => sessionId === undefined || t.info.sessionId === sessionId).map((t) => t.info);
  }

  /** Drop a released terminal's kept output. */
  forget(terminalId: string): void {
    const term = this.all.get(terminalId);
    if (term?.released && term.exit) this.all.delete(terminalId);
  }

  /** Kill every terminal of one session (or all) and wait for them to go; output stays readable. */
  async disposeSession(sessionId: string): Promise<void> {
    await this.disposeWhere((t) => t.info.sessionId === sessionId);
  }

  /** Kill every terminal (the agent exited) and wait for them to go; output stays readable. */
  async disposeAll(): Promise<void> {
    await this.disposeWhere(() => true);
  }

  private async disposeWhere(match: (t: Terminal) => boolean): Promise<void> {
    const terms = [...this.all.values()].filter(match);
    for (const term of terms) {
      // No grace: the agent that owned them is gone, nobody will read what they print.
      this.killGroup(term, 'SIGKILL');
      if (!term.released) {
        term.released = true;
        this.emit((l) => l.onRelease?.(term.info.terminalId));
      }
    }
    await Promise.all(terms.map((t) => withTimeout(t.exited, 5000)));
  }

  private track(info: TerminalInfo, child: ChildProcess): Terminal {
    let resolveExit!: (exit: TerminalExit) => void;
    const term: Terminal = {
      info,
      child,
      output: new OutputBuffer(info.outputByteLimit),
      exit: null,
      exited: new Promise((r) => (resolveExit = r)),
      released: false,
    };
    const onText = (text: string) => {
      if (!text) return;
      term.output.append(text);
      this.emit((l) => l.onOutput?.(info.terminalId, text));
    };
    for (const stream of [child.stdout!, child.stderr!]) {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => onText(decoder.write(chunk)));
      stream.on('end', () => onText(decoder.end()));
      stream.on('error', () => undefined);
    }
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (term.exit) return;
      if (drain) clearTimeout(drain);
      term.exit = { exitCode: code, signal };
      resolveExit(term.exit);
      this.emit((l) => l.onExit?.(info.terminalId, term.exit!));
    };
    // 'close' comes once the pipes are drained, so the output is complete; but a background child
    // can hold the pipes open forever, so 'exit' plus a short drain is enough to call it exited.
    let drain: NodeJS.Timeout | undefined;
    child.on('close', finish);
    child.on('exit', (code, signal) => {
      drain = setTimeout(() => finish(code, signal), this.exitDrainMs);
      drain.unref();
    });
    child.on('error', () => undefined);
    return term;
  }

  private killGroup(term: Terminal, signal: NodeJS.Signals): void {
    const pid = term.info.pid;
    if (isWindows) {
      if (!term.exit) spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
      return;
    }
    // After the leader exits its group may live on (background jobs); once no live member is left,
    // signalling the id again could hit an unrelated group that reused it.
    if (term.exit && !isGroupRunning(pid)) return;
    signalGroup(pid, signal);
    if (signal !== 'SIGKILL') {
      // Outlives the leader's exit on purpose: members that ignore SIGTERM must go too.
      setTimeout(() => {
        if (isGroupRunning(pid)) signalGroup(pid, 'SIGKILL');
      }, this.killGraceMs).unref();
    }
  }


  private agentTerminal(params: { sessionId: string; terminalId: string }, method: string): Terminal {
    const term = this.all.get(params.terminalId);
    if (!term || term.released || term.info.sessionId !== params.sessionId) {
      const why = term?.released ? 'it was released' : 'no such terminal in this session';
      throw requestError(-32002, `${method}: unknown terminal ${JSON.stringify(params.terminalId)} (${why})`, {
        reason: 'unknown_terminal',
        terminalId: params.terminalId,
        sessionId: params.sessionId,
      });
    }
    return term;
  }

  private buildEnv(vars: CreateTerminalRequest['env']): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...(this.opts.baseEnv ?? process.env) };
    for (const v of vars ?? []) {
      if (typeof v?.name !== 'string' || !/^[^=\0]+$/.test(v.name) || typeof v.value !== 'string' || v.value.includes('\0')) {
        throw requestError(-32602, `terminal/create: invalid env entry ${JSON.stringify(v)}`, { reason: 'invalid_params' });
      }
      env[v.name] = v.value;
    }
    return env;
  }

  private async checkCwd(params: CreateTerminalRequest): Promise<string> {
    try {
      const roots = resolveRootsProvider(this.opts.roots, params.sessionId);
      const target = await resolveInsideRoots(params.cwd ?? roots.cwd, roots);
      const st = await fsp.stat(target.real).catch(() => undefined);
      if (!st?.isDirectory()) {
        throw new PathRefusal(st ? 'not_a_directory' : 'not_found', target.requested, `${target.requested} is not an existing folder`);
      }
      return target.real;
    } catch (err) {
      if (!(err instanceof PathRefusal)) throw err;
      throw requestError(-32602, `terminal/create refused cwd: ${err.message}`, {
        reason: err.reason,
        path: params.cwd ?? err.path,
        ...err.details,
      });
    }
  }

  private outputLimit(requested: number | null | undefined): number {
    if (typeof requested !== 'number' || !Number.isFinite(requested) || requested < 0) return this.maxOutputBytes;
    return Math.min(Math.floor(requested), this.maxOutputBytes);
  }

  private emit(call: (l: TerminalListeners) => void): void {
    for (const l of this.listeners) {
      try {
        call(l);
      } catch {
        // A broken listener must not break the agent's terminal.
      }
    }
  }
}

function shellCommand(line: string): [string, string[]] {
  if (isWindows) return [process.env.ComSpec || 'cmd.exe', ['/d', '/s', '/c', `"${line}"`]];
  return ['/bin/sh', ['-c', line]];
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
