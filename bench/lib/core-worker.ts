/**
 * The workbench core under load, in its own process (bundled by bench/lib/build.mjs into
 * dist/bench/core-worker.cjs): a SessionManager — the object the Electron app and the web host
 * use — starts --agents flood agents (real subprocesses), which then go through the whole core path:
 * agent process → line tap → SDK client app (responses; session/update is consumed before it) →
 * trace writer (a real JSONL file) → reducer → transcript → patch batcher (≤ 1 batch / 16 ms per
 * session) → the events a window would receive, coalesced and serialized as the WebSocket bridge does
 * (`--serialize false` to leave that out). The QA inspector and live conformance engine are
 * attached as in the app (`--qa false` detaches them). Timing starts when all prompts are sent and ends when
 * the last turn has ended. Prints one JSON line (see worker-common.mjs).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '../../main/core/sessions/session-manager';
import { EventCoalescer } from '../../main/core/api/event-coalescer';
// @ts-expect-error plain ESM helper, bundled by esbuild
import { finish, floodArgs, parseArgs, peakWhenReached, startProbe, workloadOf } from './worker-common.mjs';

interface Probe {
  stop(): Record<string, unknown> & { rss: number; peak: number };
}

const args = parseArgs() as Record<string, string | undefined>;
const agents = Number(args.agents ?? 4);
const serialize = args.serialize !== 'false';
const workload = (workloadOf as (a: unknown) => { n?: number; rate: number; seconds: number })(args);

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'acpwb-bench-core-'));
  let batches = 0;
  let patches = 0;
  let eventBytes = 0;
  // What the WebSocket bridge does for one window: the frame's events coalesced, each delivery
  // taking the sessions' pending patches along (`core.release()` there), then serialized.
  const window = new EventCoalescer({
    collect: () => manager.releasePatches(),
    deliver: (items) => void (eventBytes += JSON.stringify({ t: 'evts', items }).length),
  });
  const manager = new SessionManager({
    paths: { dataDir: join(root, 'data'), configDir: join(root, 'config') },
    host: 'bench',
    emit: (name, payload) => {
      if (name !== 'session/patches') return;
      batches++;
      patches += (payload as { patches: unknown[] }).patches.length;
      if (serialize) window.push(name, payload);
    },
  });
  const argv = (floodArgs as (w: typeof workload) => string[])(workload);
  const started = await Promise.all(
    Array.from({ length: agents }, () => manager.start({ agent: { command: process.execPath, args: argv, label: 'flood' }, cwd: root, policy: 'all' })),
  );
  // `--qa false`: without the protocol inspector and the live conformance engine the app attaches
  // to every session (main/core/qa), to tell their cost from the rest of the path.
  if (args.qa === 'false') for (const s of started) manager.qaOf(s.sessionId).qa.dispose();
  // Peak RSS when a quarter of the flood's updates (all agents together) has arrived: one counting
  // record listener per connection until then, removed once the figure is taken.
  const quarter = (peakWhenReached as (at: number) => { note(count: number): boolean; peak: number | null })(
    workload.n === undefined ? Infinity : (workload.n * agents) / 4,
  );
  let received = 0;
  const counters: Array<{ dispose(): void }> = [];
  for (const s of started) {
    counters.push(
      manager.qaOf(s.sessionId).session.connection.onRecord((record) => {
        if (record.kind !== 'wire' || record.dir !== 'in' || (record.msg as { method?: unknown }).method !== 'session/update') return;
        if (quarter.note(++received)) for (const c of counters.splice(0)) c.dispose();
      }),
    );
  }
  const probe = (startProbe as () => Probe)();
  const t0 = performance.now();
  const answers = await Promise.all(started.map((s) => manager.prompt(s.sessionId, [{ type: 'text', text: 'go' }])));
  window.flush();
  const ms = performance.now() - t0;
  const p = probe.stop();
  const entries = manager.list().reduce((n, s) => n + s.entryCount, 0);
  // What the transcripts keep (live heap after a full GC), when run with --expose-gc.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const liveHeapMiB = gc ? process.memoryUsage().heapUsed / 2 ** 20 : null;
  await manager.dispose();
  const traceBytes = readdirSync(join(root, 'data', 'traces')).reduce((n, f) => n + statSync(join(root, 'data', 'traces', f)).size, 0);
  rmSync(root, { recursive: true, force: true });
  const updates = workload.rate > 0 && workload.seconds > 0 ? Math.round(workload.rate * workload.seconds) * agents : (workload.n ?? 0) * agents;
  (finish as (r: unknown) => void)({
    client: 'core',
    agents,
    serialize,
    qa: args.qa !== 'false',
    updates,
    ms,
    rate: (updates / ms) * 1000,
    stopReasons: answers.map((a) => a.stopReason),
    entries,
    batches,
    batchesPerSecondPerSession: (batches / agents / ms) * 1000,
    patches,
    eventMiB: eventBytes / 2 ** 20,
    traceMiB: traceBytes / 2 ** 20,
    liveHeapMiB,
    ...p,
    quarterPeak: quarter.peak,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
