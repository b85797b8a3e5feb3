/**
 * Agent process: one agent subprocess, its pipes, its stderr, its exit, and stopping it for good.
 *
 * Why it exists: real agents are badly behaved processes. Some ignore stdin EOF, some ignore
 * SIGTERM, npm wrappers leave their native binary running when only the wrapper dies, some log a
 * lot to stderr. So each agent gets its own process group (POSIX), which `stop()` takes down as a
 * whole (stdin EOF → SIGTERM → SIGKILL, each after a grace period), and which is also cleaned up
 * when the agent exits by itself. stdout and stderr are always consumed so the agent never blocks
 * on a full pipe; stdin writes go through a queue that respects backpressure and never throws once
 * the agent is gone. stderr is kept in a bounded ring of lines so errors can quote its tail.
 *
 * Windows has no process groups: the agent is killed with its tree via `taskkill /T`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { isGroupRunning, signalGroup, type ProcessRegistry } from './process-registry';
import { readStdout, type StdoutReader } from './stdout-reader';

export interface AgentCommand {
  command: string;
  args?: readonly string[];
  /** The agent's whole environment (not merged with ours); defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface AgentProcessOptions {
  /** Where to record the process for reaping after a crash. */
  registry?: ProcessRegistry;
  /** Bytes of stderr lines kept (default 64 KiB). */
  stderrRingBytes?: number;
  /** Longer stderr lines are split (default 8 KiB characters). */
  stderrMaxLineChars?: number;
  /** After exit, how long to wait for stdout to end before giving up on it (a leftover child may hold it open). */
  stdoutDrainMs?: number;
  /** Grace between SIGTERM and SIGKILL when cleaning up the group after the agent exited by itself. */
  leftoverGraceMs?: number;
}

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  spawnError?: AgentSpawnError;
}

export interface StopOptions {
  /** How long the agent gets to exit after stdin is closed (default 2 s). */
  stdinGraceMs?: number;
  /** How long the group gets after SIGTERM before SIGKILL (default 3 s). */
  termGraceMs?: number;
}

export interface Disposable {
  dispose(): void;
}

/** A start failure, with a message a user can act on. */
export class AgentSpawnError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly command: string,
  ) {
    super(message);
    this.name = 'AgentSpawnError';
  }
}

const isWindows = process.platform === 'win32';

/** A tiny typed listener set whose registrations are disposables. */
class Listeners<T extends unknown[]> extends Set<(...args: T) => void> {
  listen(listener: (...args: T) => void): Disposable {
    this.add(listener);
    return { dispose: () => this.delete(listener) };
  }
  emit(...args: T): void {
    for (const listener of [...this]) listener(...args);
  }
}

/** stderr as lines, keeping the newest within a byte budget. */
class StderrRing {
  private lines: string[] = [];
  private first = 0;
  private bytes = 0;
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly maxBytes: number,
    private readonly maxLineChars: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    const parts = (this.partial + this.decoder.write(chunk)).split('\n');
    this.partial = parts.pop()!;
    for (const line of parts) this.add(line.endsWith('\r') ? line.slice(0, -1) : line);
    // Bounded: a line that never ends is cut, so `partial` never grows past the limit.
    while (this.partial.length > this.maxLineChars) {
      this.add(this.partial.slice(0, this.maxLineChars));
      this.partial = this.partial.slice(this.maxLineChars);
    }
  }

  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest) this.add(rest);
  }

  private add(line: string): void {
    if (line.length <= this.maxLineChars) this.keep(line);
    else for (let i = 0; i < line.length; i += this.maxLineChars) this.keep(line.slice(i, i + this.maxLineChars));
  }

  private keep(line: string): void {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line) + 1;
    this.onLine(line);
    while (this.bytes > this.maxBytes && this.first < this.lines.length) {
      this.bytes -= Buffer.byteLength(this.lines[this.first]!) + 1;
      this.first++;
    }
    if (this.first > 1024 && this.first * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.first);
      this.first = 0;
    }
  }

  tail(maxLines: number): string[] {
    return this.lines.slice(Math.max(this.first, this.lines.length - maxLines));
  }
}

export class AgentProcess {
  readonly command: string;
  /** Resolves once the process runs; rejects with an AgentSpawnError when it cannot start. */
  readonly spawned: Promise<void>;
  /** Resolves when the process has exited (or failed to start). Never rejects. */
  readonly exited: Promise<AgentExit>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stdoutListeners = new Listeners<[Buffer]>();
  private readonly stdoutEndListeners = new Listeners<[]>();
  private readonly stderrListeners = new Listeners<[string]>();
  private readonly exitListeners = new Listeners<[AgentExit]>();
  private readonly stderr: StderrRing;
  private readonly stdout: StdoutReader;
  private exit: AgentExit | undefined;
  private stdoutEnded = false;
  /** Writes not yet confirmed by the OS; Node's stdin buffer is the queue, this is for failing them. */
  private readonly pendingWrites = new Set<(written: boolean) => void>();
  private stdinClosing = false;
  private stdinDead = false;
  private leftoversGone: Promise<void>;
  private stopping: Promise<AgentExit> | undefined;
  private disposing: Promise<void> | undefined;

  constructor(spec: AgentCommand, private readonly options: AgentProcessOptions = {}) {
    this.command = [spec.command, ...(spec.args ?? [])].join(' ');
    const env = spec.env ?? process.env;
    this.stderr = new StderrRing(options.stderrRingBytes ?? 64 * 1024, options.stderrMaxLineChars ?? 8 * 1024, (line) =>
      this.stderrListeners.emit(line),
    );
    this.child = spawn(spec.command, [...(spec.args ?? [])], {
      env,
      cwd: spec.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: !isWindows, // its own process group, killed as a whole
      windowsHide: true,
    });
    let resolveExit!: (exit: AgentExit) => void;
    this.exited = new Promise((resolve) => (resolveExit = resolve));
    const finish = (exit: AgentExit): void => {
      if (this.exit) return;
      this.exit = exit;
      this.failStdin();
      resolveExit(exit);
      this.exitListeners.emit(exit);
    };
    this.spawned = new Promise((resolve, reject) => {
      this.child.once('spawn', () => {
        this.updateRegistry('register');
        resolve();
      });
      this.child.on('error', (error: NodeJS.ErrnoException) => {
        if (this.child.pid !== undefined) return; // a failed kill, not a failed start
        const spawnError = describeSpawnError(error, spec, env);
        reject(spawnError);
        finish({ code: null, signal: null, spawnError });
        this.endStdout();
      });
    });
    this.spawned.catch(() => {}); // reported through `exited` too; not an unhandled rejection
    this.child.on('exit', (code, signal) => {
      finish({ code, signal });
      // A leftover grandchild may hold stdout open: do not wait for it forever.
      const drain = setTimeout(() => {
        this.stdout.destroy();
        this.endStdout();
      }, options.stdoutDrainMs ?? 1000);
      drain.unref();
    });
    this.leftoversGone = this.exited.then((exit) => (exit.spawnError ? undefined : this.killLeftovers()));

    // Read into one reused buffer (stdout-reader.ts): each chunk is valid only during the call.
    this.stdout = readStdout(this.child.stdout, {
      chunk: (chunk) => this.stdoutListeners.emit(chunk),
      end: () => this.endStdout(),
    });
    this.child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    this.child.stderr.on('end', () => this.stderr.end());
    this.child.stderr.on('error', () => {});
    // EPIPE and friends arrive here once the agent is gone; without a listener they would crash us.
    this.child.stdin.on('error', () => this.failStdin());
    this.child.stdin.on('close', () => this.failStdin());
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Set once the process has exited. */
  get exitInfo(): AgentExit | undefined {
    return this.exit;
  }

  /** Bytes accepted by `write` that the agent has not taken yet. */
  get queuedBytes(): number {
    return this.child.stdin.writableLength;
  }

  /**
   * Each chunk of the agent's stdout, in order. The chunk is a view of a buffer that the next read
   * overwrites: it is valid only during the call — copy what must live longer.
   */
  onStdout(listener: (chunk: Buffer) => void): Disposable {
    return this.stdoutListeners.listen(listener);
  }

  /**
   * Stops reading the agent's stdout (its output waits in the pipe, and a fast agent then blocks on
   * its own writes) until `resumeStdout()`: backpressure when we cannot keep up, e.g. with the disk.
   */
  pauseStdout(): void {
    this.stdout.pause();
  }

  resumeStdout(): void {
    this.stdout.resume();
  }

  /** stdout ended, or the process exited and stdout did not end within the drain time. Fires once. */
  onStdoutEnd(listener: () => void): Disposable {
    if (this.stdoutEnded) queueMicrotask(listener);
    return this.stdoutEndListeners.listen(listener);
  }

  onStderrLine(listener: (line: string) => void): Disposable {
    return this.stderrListeners.listen(listener);
  }

  onExit(listener: (exit: AgentExit) => void): Disposable {
    if (this.exit) {
      const exit = this.exit;
      queueMicrotask(() => listener(exit));
    }
    return this.exitListeners.listen(listener);
  }

  /** The newest stderr lines, for error messages. */
  stderrTail(maxLines = 50): string[] {
    return this.stderr.tail(maxLines);
  }

  /**
   * Queues data for the agent's stdin (Node's stream buffer is the queue). Resolves true once the
   * OS took it — callers that await each write therefore respect backpressure — and false when it
   * was dropped because stdin is closed or the agent is gone. Never throws, never rejects.
   */
  write(data: string | Uint8Array): Promise<boolean> {
    if (this.stdinDead || this.stdinClosing) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (written: boolean): void => {
        if (this.pendingWrites.delete(done)) resolve(written);
      };
      this.pendingWrites.add(done);
      try {
        this.child.stdin.write(data, (error) => done(!error));
      } catch {
        this.failStdin();
      }
    });
  }

  /** Ends stdin once what is queued has been written. */
  closeStdin(): void {
    if (this.stdinClosing || this.stdinDead) return;
    this.stdinClosing = true;
    this.child.stdin.end();
  }

  /** Stops the agent and everything in its group; resolves when they are gone. Idempotent. */
  stop(options: StopOptions = {}): Promise<AgentExit> {
    this.stopping ??= this.stopNow(options.stdinGraceMs ?? 2000, options.termGraceMs ?? 3000);
    return this.stopping;
  }

  /** Stops the agent (default graces) and drops all listeners. Idempotent. */
  dispose(): Promise<void> {
    this.disposing ??= this.stop().then(() => {
      for (const listeners of [this.stdoutListeners, this.stdoutEndListeners, this.stderrListeners, this.exitListeners]) listeners.clear();
    });
    return this.disposing;
  }

  private async stopNow(stdinGraceMs: number, termGraceMs: number): Promise<AgentExit> {
    if (!this.exit) {
      this.closeStdin();
      if (!(await this.exitsWithin(stdinGraceMs))) {
        this.signal('SIGTERM');
        if (!(await this.exitsWithin(termGraceMs))) {
          this.signal('SIGKILL');
          await this.exitsWithin(5000);
        }
      }
    }
    await this.leftoversGone;
    return this.exit ?? (await this.exited);
  }

  /**
   * Whether the agent exits within `ms`. Settled by the exit itself, not by polling: an agent that
   * ends as soon as its stdin closes is seen at once (a 50 ms poll made every `run` wait ≈ 50 ms
   * more at its end — docs/performance.md § 7, eighth pass).
   */
  private exitsWithin(ms: number): Promise<boolean> {
    if (this.exit) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Signals the agent's whole group (POSIX). Windows has neither groups nor SIGTERM: the tree is
   * killed while the agent still lives (taskkill finds children through their living parent).
   */
  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (!isWindows) {
      signalGroup(pid, signal);
      return;
    }
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true })
      .on('error', () => {})
      .once('close', () => this.child.kill(signal)); // in case taskkill failed
  }

  /** After the agent exited: whatever it left in its group gets SIGTERM, then SIGKILL. */
  private async killLeftovers(): Promise<void> {
    const pgid = this.child.pid;
    if (pgid !== undefined && !isWindows && isGroupRunning(pgid)) {
      signalGroup(pgid, 'SIGTERM');
      if (!(await waitUntil(() => !isGroupRunning(pgid), this.options.leftoverGraceMs ?? 3000))) {
        signalGroup(pgid, 'SIGKILL');
        await waitUntil(() => !isGroupRunning(pgid), 5000);
      }
    }
    this.updateRegistry('unregister');
  }

  /** A registry failure only loses crash clean-up; the agent itself is fine, so it is not fatal. */
  private updateRegistry(change: 'register' | 'unregister'): void {
    const { registry } = this.options;
    const pid = this.child.pid;
    if (!registry || pid === undefined) return;
    try {
      if (change === 'register') registry.register({ pid, pgid: isWindows ? null : pid, command: this.command, kind: 'agent' });
      else registry.unregister(pid);
    } catch {
      // See above.
    }
  }

  private failStdin(): void {
    this.stdinDead = true;
    for (const done of [...this.pendingWrites]) done(false);
  }

  private endStdout(): void {
    if (this.stdoutEnded) return;
    this.stdoutEnded = true;
    this.stdoutEndListeners.emit();
  }
}

function describeSpawnError(error: NodeJS.ErrnoException, spec: AgentCommand, env: NodeJS.ProcessEnv): AgentSpawnError {
  const command = spec.command;
  let message: string;
  if (error.code === 'ENOENT' && spec.cwd !== undefined && !existsSync(spec.cwd)) {
    message = `Could not start agent "${command}": its working directory ${spec.cwd} does not exist.`;
  } else if (error.code === 'ENOENT') {
    const path = env.PATH ?? env.Path ?? '';
    message =
      `Could not start agent: command "${command}" was not found. ` +
      `Check that it is installed, or give its absolute path. PATH searched: ${path || '(empty)'}`;
  } else if (error.code === 'EACCES') {
    message = `Could not start agent: "${command}" is not executable (permission denied).`;
  } else {
    message = `Could not start agent "${command}": ${error.message}`;
  }
  return new AgentSpawnError(message, error.code, command);
}

async function waitUntil(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
