// Benchmark 2 (issue #11): event-loop health at a realistic load. 4 flood agents paced at 2,500
// updates/s each (the same mix as ingest) through the whole core path; the core's event-loop
// delay p99 and CPU share (of one core, all threads) while they stream. Baseline: the bare SDK
// client under the same load, interleaved. BENCH_ELD_SECONDS sets the duration (default 10 s per
// run to keep `npm run bench` under 10 minutes; the figure is 30 s: BENCH_ELD_SECONDS=30).
import { join } from 'node:path';
import { workerPath } from './lib/build.mjs';
import { interleaved, log, median, result, runWorker } from './lib/harness.mjs';
import { benchDir } from './lib/worker-common.mjs';

const SECONDS = Number(process.env.BENCH_ELD_SECONDS ?? 10);
const RATE = 2500;
const AGENTS = 4;

export async function run() {
  log(`event loop: ${AGENTS} agents × ${RATE} updates/s for ${SECONDS} s, 3 interleaved rounds`);
  const core = await workerPath('core-worker');
  const baseline = join(benchDir, 'lib', 'baseline-worker.mjs');
  const load = ['--agents', String(AGENTS), '--rate', String(RATE), '--seconds', String(SECONDS)];
  const runs = await interleaved(
    {
      core: () => runWorker(core, [...load, '--serialize', 'true']),
      sdk: () => runWorker(baseline, [...load, '--client', 'sdk']),
    },
    3,
    log,
  );
  const m = (name, key) => median(runs[name].map((r) => r[key]));
  const label = `${AGENTS}×${RATE}/s, ${SECONDS} s`;
  return [
    result({
      name: `event loop: core delay p99 (${label})`,
      value: m('core', 'eldP99Ms'),
      unit: 'ms',
      baseline: { name: 'bare SDK client p99', value: m('sdk', 'eldP99Ms') },
      target: '≤ 20 ms',
      met: m('core', 'eldP99Ms') <= 20,
    }),
    result({
      name: `event loop: core delay max (${label})`,
      value: m('core', 'eldMaxMs'),
      unit: 'ms',
      baseline: { name: 'bare SDK client max', value: m('sdk', 'eldMaxMs') },
      target: 'reported',
      met: true,
    }),
    result({
      name: `event loop: core CPU share (${label})`,
      value: m('core', 'cpuShare') * 100,
      unit: '% of a core',
      baseline: { name: 'bare SDK client', value: m('sdk', 'cpuShare') * 100 },
      target: 'reported',
      met: true,
    }),
  ];
}
