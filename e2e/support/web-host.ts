import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const CLI = join(REPO_ROOT, 'dist', 'cli', 'acp-workbench.cjs');

export interface RunningWebHost {
  url: string;
  origin: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Start the built web host (`acp-workbench web --json`) as a real subprocess with a throw-away
 * data folder (or `options.dataDir`, which the caller owns: `stop()` leaves it), and wait for the
 * line that says where it listens.
 */
export async function startWebHost(extraEnv: NodeJS.ProcessEnv = {}, options: { dataDir?: string } = {}): Promise<RunningWebHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'acpwb-e2e-'));
  const child = spawn(process.execPath, [CLI, 'web', '--json', '--data-dir', dataDir], {
    env: { ...process.env, ACP_WORKBENCH_CONFIG_DIR: join(dataDir, 'config'), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const first = await new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`web host exited with ${code} before listening:\n${stderr}`)));
  });
  const { url, port } = JSON.parse(first) as { url: string; port: number };
  return {
    url,
    port,
    origin: `http://127.0.0.1:${port}`,
    dataDir,
    process: child,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
