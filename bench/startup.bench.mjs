// Benchmark 7 (issue #11), the parts without a browser: `acp-workbench run --json` against an
// agent that answers at once (the flood agent with N = 0), launch to exit, against the same
// exchange done by a minimal Node client (bench/lib/bare-exchange.mjs) — the agent's own time plus
// a Node start. 7 interleaved runs, medians. Also the size of the built renderer (reported).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { interleaved, log, median, result } from './lib/harness.mjs';
import { benchDir, floodAgent } from './lib/worker-common.mjs';

const root = join(benchDir, '..');
const ROUNDS = 7;

/** Wall time of a command from spawn to exit, in ms (fails on a non-zero exit). */
function timed(command, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0 && out.includes('end_turn')) resolve(ms);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${out.slice(-1000)}`));
    });
  });
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
}

export async function run() {
  log(`start-up: acp-workbench run vs a bare client, ${ROUNDS} interleaved rounds`);
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-bench-start-'));
  const env = { ...process.env, ACP_WORKBENCH_DATA_DIR: join(dir, 'data'), ACP_WORKBENCH_CONFIG_DIR: join(dir, 'config') };
  const agent = `${process.execPath} ${floodAgent} --n 0`;
  const cli = join(root, 'dist', 'cli', 'acp-workbench.cjs');
  try {
    const runs = await interleaved(
      {
        cli: () => timed(process.execPath, [cli, 'run', '--agent-cmd', agent, '--prompt', 'hi', '--json', '--approve', 'none', '--cwd', dir], env),
        bare: () => timed(process.execPath, [join(benchDir, 'lib', 'bare-exchange.mjs'), process.execPath, floodAgent, '--n', '0'], env),
      },
      ROUNDS,
    );
    const cliMs = median(runs.cli);
    const bareMs = median(runs.bare);
    const rendererFiles = filesUnder(join(root, 'dist', 'renderer'));
    const bytes = rendererFiles.reduce((n, f) => n + statSync(f).size, 0);
    const js = rendererFiles.filter((f) => f.endsWith('.js'));
    const jsGzip = js.reduce((n, f) => n + gzipSync(readFileSync(f)).length, 0);
    const cliBytes = statSync(cli).size + statSync(join(root, 'dist', 'cli', 'workbench-cli.cjs')).size;
    return [
      result({
        name: 'start-up: `run --json` launch to exit (agent answers at once)',
        value: cliMs,
        unit: 'ms',
        baseline: { name: 'bare client, same exchange', value: bareMs },
        target: `≤ baseline + 250 ms (${Math.round(cliMs - bareMs)} ms beyond)`,
        met: cliMs - bareMs <= 250,
      }),
      result({
        name: `start-up: renderer bundle, dist/renderer (JS gzipped: ${(jsGzip / 2 ** 20).toFixed(2)} MiB in ${js.length} files)`,
        value: bytes / 2 ** 20,
        unit: 'MiB',
        baseline: null,
        target: 'reported',
        met: true,
      }),
      result({
        name: 'start-up: CLI bundle (dist/cli/workbench-cli.cjs and its launcher acp-workbench.cjs)',
        value: cliBytes / 2 ** 20,
        unit: 'MiB',
        baseline: null,
        target: 'reported',
        met: true,
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
