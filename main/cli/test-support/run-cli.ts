import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const BUILT_CLI = resolve(__dirname, '..', '..', '..', 'dist', 'cli', 'acp-workbench.cjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built `acp-workbench` as a real subprocess (vitest's global setup builds it). */
export function runBuiltCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      env: { ...process.env, ...options.env },
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`acp-workbench ${args.join(' ')} did not finish in time\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
