// Shared by the measuring workers (each runs in a fresh process, so its RSS is its own): argument
// parsing, the flood agent's command line, peak RSS, event-loop delay and CPU share.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// Bundled into dist/bench/*.cjs (no import.meta there: esbuild warns and empties it) this module
// finds bench/ from __dirname.
export const benchDir = import.meta.url ? join(dirname(fileURLToPath(import.meta.url)), '..') : join(__dirname, '..', '..', 'bench');
export const floodAgent = join(benchDir, 'flood-agent.mjs');

/** `--name value` pairs from argv, as strings. */
/** The workload options shared by all workers, from parsed args. */
export function workloadOf(args) {
  const num = (v) => (v === undefined ? undefined : Number(v));
  return { n: num(args.n), rate: Number(args.rate ?? 0), seconds: Number(args.seconds ?? 0), stamp: args.stamp === 'true', diffBytes: num(args['diff-bytes']), toolEvery: num(args['tool-every']) };
}

export function parseArgs(argv = process.argv.slice(2)) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const key = argv[i].slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[key] = 'true';
    else out[key] = argv[++i];
  }
  return out;
}

/** The flood agent's argv for a workload: `{ n }` (flood) or `{ rate, seconds }` (paced), and the mix. */
export function floodArgs({ n, rate, seconds, stamp, diffBytes, toolEvery }) {
  const a = [floodAgent];
  if (diffBytes !== undefined) a.push('--diff-bytes', String(diffBytes));
  if (toolEvery !== undefined) a.push('--tool-every', String(toolEvery));
  if (n !== undefined) a.push('--n', String(n));
  if (rate) a.push('--rate', String(rate));
  if (seconds) a.push('--seconds', String(seconds));
  if (stamp) a.push('--stamp');
  return a;
}

/** Kernel-reported RSS figures of this process in MiB: current and peak (VmHWM). */
export function rssMiB() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * The peak RSS (VmHWM, MiB) at the moment a count first reaches `at` — e.g. the updates received
 * when N/4 of N have arrived — so that a run reports its growth from there to its end in the same
 * process (issue #11's "flat as N grows") instead of needing a second, shorter run. `note(count)`
 * is a comparison until then, and returns true once the figure is taken.
 */
export function peakWhenReached(at) {
  let peak = null;
  return {
    note(count) {
      if (peak === null && count >= at) peak = rssMiB().peak;
      return peak !== null;
    },
    get peak() {
      return peak;
    },
  };
}

/**
 * What the measured window looked like from inside the process: event-loop delay percentiles,
 * CPU share of one core (user + system), and RSS sampled every 100 ms.
 */
export function startProbe() {
  // The histogram records whole timer intervals: the delay is what exceeds the resolution.
  const resolutionMs = 2;
  const eld = monitorEventLoopDelay({ resolution: resolutionMs });
  eld.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const samples = [];
  const timer = setInterval(() => samples.push(rssMiB().rss), 100);
  return {
    stop() {
      clearInterval(timer);
      eld.disable();
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      return {
        wallMs,
        cpuShare: (cpu.user + cpu.system) / 1000 / wallMs,
        eldP50Ms: Math.max(0, eld.percentile(50) / 1e6 - resolutionMs),
        eldP99Ms: Math.max(0, eld.percentile(99) / 1e6 - resolutionMs),
        eldMaxMs: Math.max(0, eld.max / 1e6 - resolutionMs),
        rssSamples: samples,
        ...rssMiB(),
      };
    },
  };
}

/** Prints the worker's result as the last line of stdout and exits. */
export function finish(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
