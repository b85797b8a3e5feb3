// Benchmark 1 (issue #11): ingest. 4 flood agents (bench/flood-agent.mjs, real subprocesses; 90 %
// ~200-byte message chunks, 10 % tool-call updates with ~16 KiB diffs), N updates each, through the
// whole core path (bench/lib/core-worker.ts: SessionManager → line tap → SDK → trace writer →
// reducer → patch batcher) — the path the issue names — and again as the app runs it, with the QA
// inspector and live conformance engine attached to every session and one window's events
// serialized as the web host sends them. Baselines, same agents and input, interleaved: a bare line-split +
// JSON.parse client and the bare SDK client (bench/lib/baseline-worker.mjs). Peak RSS (VmHWM) of
// each measuring process; RSS growth from N/4 to N (the peak when N/4 had arrived, in the same run).
// "Flat as N grows" is also taken over a flood four times as long: the core's peak at 4 N, and its
// live heap after a full collection at N and at 4 N; the RSS growth N → 4 N within a run is
// reported. BENCH_INGEST_N overrides N (default 100,000).
import { workerPath } from './lib/build.mjs';
import { interleaved, log, median, result, runWorker } from './lib/harness.mjs';
import { benchDir } from './lib/worker-common.mjs';
import { join } from 'node:path';

const N = Number(process.env.BENCH_INGEST_N ?? 100_000);
const AGENTS = 4;

export async function run() {
  log(`ingest: ${AGENTS} flood agents × ${N} updates, 3 interleaved rounds`);
  const core = await workerPath('core-worker');
  const baseline = join(benchDir, 'lib', 'baseline-worker.mjs');
  const base = ['--agents', String(AGENTS)];
  const runs = await interleaved(
    {
      // --expose-gc: after the timing and the peaks, the worker runs a full collection and reports
      // the live heap — what the core keeps, without the collector's pacing.
      core: () => runWorker(core, [...base, '--n', String(N), '--serialize', 'false', '--qa', 'false'], { nodeArgs: ['--expose-gc'] }),
      // The same at 4 N: its quarter is N, so its growth is N → 4 N.
      coreLong: () => runWorker(core, [...base, '--n', String(4 * N), '--serialize', 'false', '--qa', 'false'], { nodeArgs: ['--expose-gc'] }),
      // As the app runs it: the QA inspector and live conformance attached, and one window's events
      // coalesced and serialized as the web host sends them.
      coreQa: () => runWorker(core, [...base, '--n', String(N), '--serialize', 'true', '--qa', 'true']),
      parse: () => runWorker(baseline, [...base, '--n', String(N), '--client', 'parse']),
      sdk: () => runWorker(baseline, [...base, '--n', String(N), '--client', 'sdk']),
    },
    3,
    log,
  );
  const m = (name, key) => median(runs[name].map((r) => r[key]));
  const rate = { core: m('core', 'rate'), qa: m('coreQa', 'rate'), parse: m('parse', 'rate'), sdk: m('sdk', 'rate') };
  const peak = { core: m('core', 'peak'), qa: m('coreQa', 'peak'), sdk: m('sdk', 'peak'), coreQuarter: m('core', 'quarterPeak'), long: m('coreLong', 'peak'), longAtN: m('coreLong', 'quarterPeak') };
  // Growth N/4 → N within each run (its peak when N/4 had arrived, and at the end), median of the runs.
  const growth = (name) => median(runs[name].map((r) => r.peak - r.quarterPeak));
  const label = `${AGENTS}×${N / 1000}k`;
  return [
    result({
      name: `ingest: core path throughput (${label})`,
      value: rate.core,
      unit: 'updates/s',
      baseline: { name: 'bare SDK client', value: rate.sdk },
      target: '≥ 100,000 updates/s (≈ 2× bare SDK)',
      met: rate.core >= 100_000,
    }),
    result({
      name: `ingest: core vs bare-parse ceiling (${label})`,
      value: rate.core,
      unit: 'updates/s',
      baseline: { name: 'bare line-split + JSON.parse', value: rate.parse },
      // The target is the 100,000/s above, "half the bare-parse ceiling" on its machine;
      // here the ceiling is bounded by the agents (2 cores shared with them): reported.
      target: 'reported (the issue measured a ~200k/s ceiling)',
      met: true,
    }),
    result({
      name: `ingest: as the app runs it, + QA inspector, live conformance and one window's serialization (${label})`,
      value: rate.qa,
      unit: 'updates/s',
      baseline: { name: 'bare SDK client', value: rate.sdk },
      target: '≥ 100,000 updates/s',
      met: rate.qa >= 100_000,
    }),
    result({
      name: `ingest: core peak RSS (${label})`,
      value: peak.core,
      unit: 'MiB',
      baseline: { name: 'bare SDK client peak RSS', value: peak.sdk },
      target: '≤ 150 MiB',
      met: peak.core <= 150,
    }),
    result({
      name: `ingest: as the app runs it (+ QA, one window) peak RSS (${label})`,
      value: peak.qa,
      unit: 'MiB',
      baseline: { name: 'bare SDK client peak RSS', value: peak.sdk },
      target: '≤ 150 MiB',
      met: peak.qa <= 150,
    }),
    result({
      name: `ingest: core peak RSS growth N/4 → N`,
      value: growth('core'),
      unit: 'MiB',
      baseline: { name: 'bare SDK client growth', value: growth('sdk') },
      target: 'flat (≤ 10 % of RSS at N/4)',
      met: growth('core') <= 0.1 * peak.coreQuarter,
    }),
    result({
      name: `ingest: core peak RSS at 4 N (${AGENTS}×${(4 * N) / 1000}k)`,
      value: peak.long,
      unit: 'MiB',
      baseline: { name: 'its peak when N had arrived', value: peak.longAtN },
      target: '≤ 150 MiB',
      met: peak.long <= 150,
    }),
    result({
      name: `ingest: core live heap after a full collection at 4 N`,
      value: m('coreLong', 'liveHeapMiB'),
      unit: 'MiB',
      baseline: { name: 'the same at N', value: m('core', 'liveHeapMiB') },
      target: 'flat (≤ +10 % of N’s)',
      met: m('coreLong', 'liveHeapMiB') <= 1.1 * m('core', 'liveHeapMiB'),
    }),
    result({
      // Not a target: what the core keeps per entry outside the heap (≈ 16 bytes, ≈ 40 more per
      // tool call: where it is in the spill file, the tool-call table) plus the collector's
      // saw-tooth — the peak of several cycles against one moment — moved it 12–15 MiB in the runs
      // of 2026-12-04 (docs/performance.md § 1, twentieth pass).
      name: `ingest: core peak RSS growth N → 4 N`,
      value: growth('coreLong'),
      unit: 'MiB',
      baseline: { name: 'core peak RSS growth N/4 → N', value: growth('core') },
      target: 'reported (the live heap above is the retention; ≤ 150 MiB at 4 N above)',
      met: true,
    }),
  ];
}
