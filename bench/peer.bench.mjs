// Benchmark 8 (issue #11): a peer client on the same agent. One flood agent (N updates of the
// mix) consumed by `acp-workbench run --json` and by acpx — 0.1.15 (runs on Node 20) and 0.19.x
// (needs Node 22) — each printing JSON events to a file. Launch to exit (so updates/s
// includes start-up, alike for all) and peak RSS of the client process (VmHWM, polled).
// acpx is not a dependency of the project: install it in a throw-away folder, e.g.
//   mkdir -p /tmp/acpx-peer/v0115 && cd /tmp/acpx-peer/v0115 && npm i acpx@0.1.15
//   mkdir -p /tmp/acpx-peer/v19 && cd /tmp/acpx-peer/v19 && npm i acpx@0.19.1 node@22
// ACPWB_PEERS_DIR names that folder (default /tmp/acpx-peer); a peer not found is reported so.
// BENCH_PEER_N sets N (default 100,000).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleaved, log, median, result } from './lib/harness.mjs';
import { benchDir, floodAgent } from './lib/worker-common.mjs';

const N = Number(process.env.BENCH_PEER_N ?? 100_000);
const PEERS = process.env.ACPWB_PEERS_DIR ?? '/tmp/acpx-peer';

/**
 * Runs a client to exit, its stdout going to a file (so a slow pipe reader does not make a client
 * that ignores backpressure look fat); resolves { ms, peakMiB }.
 */
function measure(command, args, env, cwd) {
  return new Promise((resolve, reject) => {
    const outPath = join(cwd, 'out.jsonl');
    const out = openSync(outPath, 'w');
    const t0 = performance.now();
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', out, 'pipe'] });
    closeSync(out);
    let peak = 0;
    let err = '';
    const poll = () => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // Gone.
      }
    };
    const timer = setInterval(poll, 20);
    child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
    child.stderr.once('end', poll); // the last look at VmHWM, while the process is still there
    child.on('exit', (code) => {
      clearInterval(timer);
      const ms = performance.now() - t0;
      const bytes = statSync(outPath).size;
      rmSync(outPath, { force: true });
      if (code !== 0 || bytes < N * 100) reject(new Error(`${command} ${args.join(' ')} exited ${code} after ${bytes} bytes: ${err}`));
      else resolve({ ms, peakMiB: peak / 1024 });
    });
  });
}

export async function run() {
  const agent = `${process.execPath} ${floodAgent} --n ${N}`;
  const dir = mkdtempSync(join(tmpdir(), 'acpwb-bench-peer-'));
  const env = { ...process.env, ACP_WORKBENCH_DATA_DIR: join(dir, 'data'), ACP_WORKBENCH_CONFIG_DIR: join(dir, 'config') };
  const cli = join(benchDir, '..', 'dist', 'cli', 'acp-workbench.cjs');
  const acpx = (folder) => join(PEERS, folder, 'node_modules', 'acpx');
  const peers = {
    'acpx 0.1.15': { node: process.execPath, bin: join(acpx('v0115'), 'dist', 'cli.js') },
    'acpx 0.19': { node: join(PEERS, 'v19', 'node_modules', '.bin', 'node'), bin: join(acpx('v19'), 'dist', 'cli.js') },
  };
  const variants = {
    workbench: () => measure(process.execPath, [cli, 'run', '--agent-cmd', agent, '--prompt', 'go', '--json', '--approve', 'all', '--cwd', dir], env, dir),
  };
  const missing = [];
  for (const [name, p] of Object.entries(peers)) {
    if (existsSync(p.node) && existsSync(p.bin)) variants[name] = () => measure(p.node, [p.bin, '--agent', agent, '--format', 'json', '--approve-all', 'exec', 'go'], env, dir);
    else missing.push(name);
  }
  log(`peer: 1 flood agent × ${N} updates: ${Object.keys(variants).join(', ')}; 3 interleaved rounds`);
  try {
    const runs = await interleaved(variants, 3, log);
    const rate = (name) => N / (median(runs[name].map((r) => r.ms)) / 1000);
    const peak = (name) => median(runs[name].map((r) => r.peakMiB));
    const out = [];
    for (const name of Object.keys(peers)) {
      if (!runs[name]) {
        out.push(result({ name: `peer: ${name}`, value: NaN, unit: '', target: `not installed under ${PEERS} (see bench/peer.bench.mjs)`, met: false }));
        continue;
      }
      out.push(
        result({
          name: `peer: \`run --json\` throughput vs ${name} (1 agent × ${N / 1000}k, launch to exit)`,
          value: rate('workbench'),
          unit: 'updates/s',
          baseline: { name, value: rate(name) },
          target: 'faster (ratio > 1)',
          met: rate('workbench') > rate(name),
        }),
        result({
          name: `peer: \`run --json\` peak RSS vs ${name}`,
          value: peak('workbench'),
          unit: 'MiB',
          baseline: { name, value: peak(name) },
          target: name === 'acpx 0.19' ? 'less memory (ratio < 1)' : 'reported',
          met: name === 'acpx 0.19' ? peak('workbench') < peak(name) : true,
        }),
      );
    }
    if (missing.length) log(`peer: not installed: ${missing.join(', ')}`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
