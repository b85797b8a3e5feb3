/**
 * The reliability soak (issue #12): not part of `npm test`. Run with `npm run soak` (scripts/soak.mjs
 * bundles this file). Two parts:
 *   seeds: many seeds of the hostile agent, each next to a well-behaved agent on one core, with the
 *          checks of main/core/acp/hostile.test.ts; the heap is sampled after each seed (after GC).
 *   long:  6 fixture agents streaming continuously for N minutes; RSS, heap, open file descriptors
 *          and child processes are sampled every 15 s and must stay flat.
 * Prints a JSON summary on stdout (the last line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { AgentSession } from '../../main/core/sessions/agent-session';
import { startAgentSession } from '../../main/core/sessions/start-session';
import { FIXTURE_AGENT, FixtureWorld } from '../../main/core/acp/test-support/fixture-world';
import { countEmitted, countIncoming, joinLog, settleTrace, startHostile } from '../../main/core/acp/test-support/hostile-run';
import { processesMatching } from '../../main/core/acp/test-support/process-listing';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const seeds = Number(arg('--seeds', '100'));
const firstSeed = Number(arg('--first-seed', '1000'));
const minutes = Number(arg('--minutes', '10'));
const parts = arg('--parts', 'seeds,long').split(',');
const text = (t: string) => ({ type: 'text' as const, text: t });
const gc = (globalThis as { gc?: () => void }).gc;
const MiB = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
const log = (s: string) => process.stderr.write(`[soak] ${s}\n`);

function fdCount(): number | null {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return null;
  }
}

/** Live descendants of this process (Linux /proc), zombies excluded. */
function descendants(): number | null {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return null;
  }
  const parent = new Map<number, number>();
  for (const n of names) {
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') continue;
      parent.set(Number(n), Number(rest[1]));
    } catch {
      // gone
    }
  }
  let count = 0;
  for (const pid of parent.keys()) {
    let p = parent.get(pid);
    for (let hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
      if (p === process.pid) {
        count++;
        break;
      }
      p = parent.get(p);
    }
  }
  return count;
}

interface Sample {
  atS: number;
  rssMiB: number;
  heapMiB: number;
  fds: number | null;
  children: number | null;
}
function sample(startedAt: number): Sample {
  gc?.();
  const m = process.memoryUsage();
  return { atS: Math.round((Date.now() - startedAt) / 1000), rssMiB: MiB(m.rss), heapMiB: MiB(m.heapUsed), fds: fdCount(), children: descendants() };
}

async function seedRun(): Promise<object> {
  const failures: Array<{ seed: number; problem: string }> = [];
  const heap: number[] = [];
  let lines = 0;
  let bytes = 0;
  const started = Date.now();
  for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
    const world = new FixtureWorld();
    const emitLog = joinLog(world.base, seed);
    let hostile: AgentSession | undefined;
    try {
      const good = await world.session({ scenario: 'basic-text' });
      hostile = await startHostile({ seed, cwd: world.cwd, dataDir: world.dataDir, emitLog, broker: world.broker, count: 200 });
      const [g] = await Promise.allSettled([good.prompt([text('hi')]), hostile.prompt([text('go')])]);
      if (g.status !== 'fulfilled' || g.value.stopReason !== 'end_turn') failures.push({ seed, problem: 'the good agent was disturbed' });
      const { emitted, records } = await settleTrace(hostile, emitLog, 20_000);
      const a = JSON.stringify(countIncoming(records));
      const b = JSON.stringify(countEmitted(emitted));
      if (a !== b) failures.push({ seed, problem: `trace ${a} vs emitted ${b}` });
      if (hostile.connection.process.exitInfo) failures.push({ seed, problem: 'the hostile agent died' });
      lines += emitted.length;
      bytes += emitted.reduce((n, e) => n + e.bytes, 0);
    } catch (err) {
      failures.push({ seed, problem: String((err as Error).message ?? err) });
    } finally {
      await hostile?.connection.close();
      await world.dispose().catch((err: unknown) => failures.push({ seed, problem: `dispose: ${String(err)}` }));
    }
    await new Promise((r) => setTimeout(r, 100));
    if (processesMatching(emitLog).length) failures.push({ seed, problem: 'orphan hostile agent' });
    gc?.();
    heap.push(MiB(process.memoryUsage().heapUsed));
    if ((seed - firstSeed) % 10 === 9) log(`seed ${seed}: heap ${heap.at(-1)} MiB, failures ${failures.length}`);
  }
  return {
    seeds,
    firstSeed,
    seconds: Math.round((Date.now() - started) / 1000),
    hostileLines: lines,
    hostileMiB: MiB(bytes),
    heapMiB: { afterFirst: heap[0], afterLast: heap.at(-1), max: Math.max(...heap) },
    failures,
  };
}

/** A scenario that streams for ~5 s per prompt: 250 chunks 20 ms apart, a thought, a tool call. */
const STREAM = {
  defaultPrompt: {
    steps: [
      { thought: 'thinking about it', chunks: 5 },
      { toolCall: { title: 'Read a file', kind: 'read' } },
      { toolCallUpdate: { toolCallId: 'fixture-tool-1', status: 'completed' } },
      { text: 'streaming text for the soak. '.repeat(250), chunks: 250, chunkDelayMs: 20 },
      { end: { stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 250, totalTokens: 260 } } },
    ],
  },
};

async function longRun(): Promise<object> {
  const world = new FixtureWorld();
  const started = Date.now();
  const deadline = started + minutes * 60_000;
  const sessions: AgentSession[] = [];
  // Not world.session(): its agents stop themselves after 2 minutes (a safety net for tests).
  const lifetimeMs = String(minutes * 60_000 + 120_000);
  for (let i = 0; i < 6; i++) {
    sessions.push(
      await startAgentSession({
        launch: { command: process.execPath, args: [FIXTURE_AGENT, '--scenario-json', JSON.stringify(STREAM), '--max-lifetime-ms', lifetimeMs], env: { ...process.env, FIXTURE_SCENARIO: '' }, label: `agent-${i}`, agentId: 'soak' },
        sessionCwd: world.cwd,
        dataDir: world.dataDir,
        broker: world.broker,
        policy: 'none',
        interactive: false,
      }),
    );
  }
  const samples: Sample[] = [sample(started)];
  let turns = 0;
  let errors = 0;
  const loops = sessions.map(async (s) => {
    while (Date.now() < deadline) {
      try {
        await s.prompt([text(`turn ${turns}`)]);
        turns++;
      } catch (err) {
        errors++;
        log(`turn error: ${String(err)}`);
        if (s.connection.process.exitInfo) return; // the agent is gone: counted, not retried
      }
    }
  });
  const timer = setInterval(() => {
    samples.push(sample(started));
    const s = samples.at(-1)!;
    log(`${s.atS}s rss ${s.rssMiB} MiB heap ${s.heapMiB} MiB fds ${s.fds} children ${s.children} turns ${turns}`);
  }, 15_000);
  await Promise.all(loops);
  clearInterval(timer);
  const end = sample(started);
  samples.push(end);
  const entries = sessions.reduce((n, s) => n + s.transcript.ids.length, 0);
  // Closed as the app closes a pane: the session (its transcript's spill file), then its agent.
  await Promise.all(
    sessions.map(async (s) => {
      await s.close();
      await s.connection.close();
    }),
  );
  await world.dispose();
  const after = sample(started);
  // The first samples include warm-up; "flat" compares the second minute with the end.
  const warm = samples.find((s) => s.atS >= 60) ?? samples[1] ?? samples[0]!;
  const pick = (k: keyof Sample) => samples.map((s) => s[k] as number).filter((v) => typeof v === 'number');
  return {
    agents: 6,
    minutes,
    turns,
    turnErrors: errors,
    transcriptEntries: entries,
    start: samples[0],
    afterWarmUp: warm,
    end,
    afterDispose: after,
    max: { rssMiB: Math.max(...pick('rssMiB')), heapMiB: Math.max(...pick('heapMiB')), fds: Math.max(...pick('fds')), children: Math.max(...pick('children')) },
    samples: samples.length,
  };
}

async function main(): Promise<void> {
  const result: Record<string, unknown> = { node: process.version, platform: `${process.platform}/${process.arch}`, gcExposed: Boolean(gc), at: new Date().toISOString() };
  if (parts.includes('seeds')) {
    log(`hostile seeds ${firstSeed}..${firstSeed + seeds - 1}`);
    result.seeds = await seedRun();
  }
  if (parts.includes('long')) {
    log(`6 agents streaming for ${minutes} min`);
    result.long = await longRun();
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

void main().catch((err) => {
  process.stderr.write(String((err as Error).stack ?? err) + '\n');
  process.exit(1);
});
