/**
 * A run's setup and verification commands: one shell command line in a workspace, its exit code
 * and the tail of its output (stdout and stderr interleaved), with a time limit after which its
 * whole process group is killed.
 */
import { spawn } from 'node:child_process';
import type { CommandResultView } from '../../../common/api/compare-types';

/** The shape a window is sent as it is (`CommandResultView`): `output` is the last `OUTPUT_LIMIT` bytes. */
export type CommandResult = CommandResultView;

export const OUTPUT_LIMIT = 64 * 1024;
export const DEFAULT_COMMAND_TIMEOUT_MS = 10 * 60_000;

export interface ShellCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export function runShellCommand(command: string, options: ShellCommandOptions): Promise<CommandResult> {
  const started = performance.now();
  const isWindows = process.platform === 'win32';
  return new Promise((resolve) => {
    let output = Buffer.alloc(0);
    let truncated = false;
    let timedOut = false;
    const keep = (chunk: Buffer) => {
      output = Buffer.concat([output, chunk]);
      if (output.length > OUTPUT_LIMIT) {
        output = output.subarray(output.length - OUTPUT_LIMIT);
        truncated = true;
      }
    };
    const child = spawn(command, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      shell: true,
      // Its own process group, so a time-out can stop everything it started.
      detached: !isWindows,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const kill = () => {
      try {
        if (!isWindows && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const done = (exitCode: number | null, signal: string | null, error?: string) => {
      clearTimeout(timer);
      // Whatever it left running in its group goes with it.
      if (!isWindows && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // nothing left
        }
      }
      resolve({
        command,
        exitCode,
        signal,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        output: output.toString('utf8'),
        truncated,
        ...(error ? { error } : {}),
      });
    };
    child.on('error', (err) => done(null, null, err.message));
    child.on('close', (code, signal) => done(code, signal));
  });
}

/** "exit 0", "exit 2", "killed after the time limit", ... */
export function describeCommandResult(r: CommandResult): string {
  if (r.error) return `could not be started: ${r.error}`;
  if (r.timedOut) return 'killed after the time limit';
  if (r.exitCode === null) return `killed by ${r.signal ?? 'a signal'}`;
  return `exit ${r.exitCode}`;
}
