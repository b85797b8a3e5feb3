import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from './test-support/run-cli';

const FLOOD_AGENT = resolve(__dirname, '..', '..', 'bench', 'flood-agent.mjs');

describe('a reader that stops early (`acp-workbench run --json | head`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-closed-output-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ends the CLI quietly, as a Unix tool does on SIGPIPE, instead of an unhandled EPIPE', async () => {
    const child = spawn(process.execPath, [BUILT_CLI, 'run', '--agent-cmd', `"${process.execPath}" "${FLOOD_AGENT}" --n 200000`, '--prompt', 'go', '--json', '--approve', 'all', '--cwd', dir], {
      env: { ...process.env, ACP_WORKBENCH_DATA_DIR: join(dir, 'data'), ACP_WORKBENCH_CONFIG_DIR: join(dir, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Read the first output, then close our end of the pipe, as `head -1` does.
    const first = await new Promise<string>((done) => child.stdout.once('data', (d: Buffer) => done(d.toString())));
    expect(first).toContain('"type"');
    child.stdout.destroy();
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\.cjs:\d+/);
    expect(code).toBe(0);
  }, 60_000);
});
