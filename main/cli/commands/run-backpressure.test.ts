/**
 * `run --json` streams: when whoever reads its stdout stops reading, run stops reading the agent
 * (which then waits in its own pipe) instead of holding the events in memory; when reading
 * resumes, every event arrives. The built CLI as a subprocess, the benchmarks' flood agent
 * (bench/flood-agent.mjs) as a real agent subprocess.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../test-support/run-cli';

const FLOOD_AGENT = join(__dirname, '..', '..', '..', 'bench', 'flood-agent.mjs');
const UPDATES = 4000;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The trace's text once it stopped growing (three looks in a row the same size). */
async function settledTrace(dataDir: string): Promise<string> {
  let last = -1;
  let same = 0;
  for (let i = 0; i < 100 && same < 3; i++) {
    await sleep(300);
    const files = existsSync(join(dataDir, 'traces')) ? readdirSync(join(dataDir, 'traces')).filter((f) => f.endsWith('.jsonl')) : [];
    const text = files.length ? readFileSync(join(dataDir, 'traces', files[0]!), 'utf8') : '';
    same = text.length > 0 && text.length === last ? same + 1 : 0;
    last = text.length;
  }
  const files = readdirSync(join(dataDir, 'traces')).filter((f) => f.endsWith('.jsonl'));
  return readFileSync(join(dataDir, 'traces', files[0]!), 'utf8');
}

describe('run --json backpressure', () => {
  it('stops reading the agent while its stdout is not read, and loses nothing once it is', async () => {
    const base = mkdtempSync(join(tmpdir(), 'acpwb-run-bp-'));
    dirs.push(base);
    const dataDir = join(base, 'data');
    const agentCmd = `"${process.execPath}" "${FLOOD_AGENT}" --n ${UPDATES}`;
    const child = spawn(process.execPath, [BUILT_CLI, 'run', '--json', '--agent-cmd', agentCmd, '--cwd', base, '--data-dir', dataDir, '--prompt', 'go'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // Nobody reads run's stdout yet: once its pipe is full, run must stop reading the agent.
      child.stdout.pause();
      const stalled = await settledTrace(dataDir);
      const tracedUpdates = stalled.split('\n').filter((l) => l.includes('"session/update"')).length;
      expect(tracedUpdates).toBeGreaterThan(0);
      expect(tracedUpdates).toBeLessThan(UPDATES);
      expect(stalled).not.toContain('"stopReason":"end_turn"');

      // Reading again: the run finishes and every update is an event.
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stdout.resume();
      expect(await exited).toBe(0);
      const events = stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; updates?: number });
      expect(events.filter((e) => e.type === 'update')).toHaveLength(UPDATES);
      expect(events.at(-1)).toMatchObject({ type: 'summary', updates: UPDATES, stopReason: 'end_turn' });
    } finally {
      child.kill('SIGKILL');
      if (stderr && child.exitCode !== 0) console.error(stderr);
    }
  }, 90_000);
});
