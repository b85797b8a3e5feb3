/**
 * Minimal `terminal/*` for the smoke client: each terminal is a subprocess in its own process
 * group with captured output. claude-code-acp sends the whole shell line in `command` with no
 * `args` and no `cwd`, so a command without args runs through `sh -c` in the session's cwd.
 */
import { spawn, type ChildProcess } from 'node:child_process';

interface Terminal {
  child: ChildProcess;
  output: string;
  truncated: boolean;
  limit: number;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  status: { exitCode: number | null; signal: string | null } | null;
}

export interface CreateTerminalParams {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[];
  cwd?: string | null;
  outputByteLimit?: number | null;
}

export class TerminalHost {
  private readonly terminals = new Map<string, Terminal>();
  private next = 1;

  create(params: CreateTerminalParams, defaultCwd: string, baseEnv: NodeJS.ProcessEnv): { terminalId: string } {
    const env = { ...baseEnv };
    for (const v of params.env ?? []) env[v.name] = v.value;
    const args = params.args ?? [];
    const child =
      args.length > 0
        ? spawn(params.command, args, { cwd: params.cwd ?? defaultCwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn('/bin/sh', ['-c', params.command], { cwd: params.cwd ?? defaultCwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const terminal: Terminal = {
      child,
      output: '',
      truncated: false,
      limit: params.outputByteLimit ?? 1_000_000,
      status: null,
      exit: new Promise((resolve) => {
        child.on('exit', (code, signal) => resolve({ exitCode: code, signal }));
        child.on('error', (error) => {
          terminal.output += `${error.message}\n`;
          resolve({ exitCode: 127, signal: null });
        });
      }),
    };
    void terminal.exit.then((status) => (terminal.status = status));
    const onData = (chunk: Buffer): void => {
      terminal.output += chunk.toString('utf8');
      if (Buffer.byteLength(terminal.output) > terminal.limit) {
        // Truncate from the start, as the spec says; good enough on character boundaries.
        terminal.output = terminal.output.slice(terminal.output.length - terminal.limit);
        terminal.truncated = true;
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const terminalId = `term-${this.next++}`;
    this.terminals.set(terminalId, terminal);
    return { terminalId };
  }

  output(terminalId: string): Record<string, unknown> {
    const t = this.get(terminalId);
    const result: Record<string, unknown> = { output: t.output, truncated: t.truncated };
    if (t.status) result['exitStatus'] = t.status;
    return result;
  }

  async waitForExit(terminalId: string): Promise<{ exitCode: number | null; signal: string | null }> {
    return this.get(terminalId).exit;
  }

  kill(terminalId: string): Record<string, never> {
    killGroup(this.get(terminalId).child);
    return {};
  }

  release(terminalId: string): Record<string, never> {
    const t = this.terminals.get(terminalId);
    if (t && !t.status) killGroup(t.child);
    this.terminals.delete(terminalId);
    return {};
  }

  releaseAll(): void {
    for (const id of [...this.terminals.keys()]) this.release(id);
  }

  private get(terminalId: string): Terminal {
    const t = this.terminals.get(terminalId);
    if (!t) throw new Error(`unknown terminal ${terminalId}`);
    return t;
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
