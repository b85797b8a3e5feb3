/**
 * Hostile agent suite (issue #12, item 1): a seeded fuzzing agent sends random and mutated
 * JSON-RPC (wrong types, huge strings, deep nesting, invalid UTF-8, binary garbage, lines over the
 * limit, floods, answers to unknown ids, colliding ids, unknown methods and sessions) next to a
 * well-behaved fixture agent on the same core. For each seed: the core stays up and the other
 * agent's turn completes normally; every line the hostile agent wrote is in the trace, classified
 * as it should be; the conformance report has findings for the faults; the heap stays bounded;
 * no agent process is left. More seeds run in `npm run soak`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FixtureWorld } from './test-support/fixture-world';
import { countEmitted, countIncoming, joinLog, settleTrace, startHostile, traceAndReport, type Emitted } from './test-support/hostile-run';
import { orphansAfter } from './test-support/process-listing';

const SEEDS = [1, 2, 3, 42];
const text = (t: string) => ({ type: 'text' as const, text: t });

let world: FixtureWorld | undefined;
let hostileSession: { connection: { close(): Promise<void> } } | undefined;
afterEach(async () => {
  await hostileSession?.connection.close();
  hostileSession = undefined;
  await world?.dispose();
  world = undefined;
});

/** Rules the report must carry for what was emitted (only faults that are unambiguous per line). */
function expectedRules(emitted: Emitted[]): string[] {
  const kinds = new Set(emitted.map((e) => e.kind));
  const rules = new Set<string>();
  if (emitted.some((e) => e.expect === 'noise')) rules.add('stdout-noise');
  if (emitted.some((e) => e.expect === 'oversize')) rules.add('oversize-line');
  if (kinds.has('invalidUtf8')) rules.add('jsonrpc-envelope');
  if (kinds.has('unknownResponse')) rules.add('unknown-response-id');
  return [...rules].sort();
}

describe('a hostile agent next to a well-behaved one', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: the core and the other agent carry on; every line is in the trace and the faults in the report`, async () => {
      world = new FixtureWorld();
      const emitLog = joinLog(world.base, seed);
      const heapBefore = process.memoryUsage().heapUsed;

      const good = await world.session({ scenario: 'slow-stream', label: 'good' });
      const hostile = await startHostile({ seed, cwd: world.cwd, dataDir: world.dataDir, emitLog, broker: world.broker, count: 150 });
      hostileSession = hostile;

      const [goodTurn, hostileTurn] = await Promise.allSettled([good.prompt([text('stream please')]), hostile.prompt([text('do your worst')])]);

      // The other agent is unaffected: its turn ends normally with all its text.
      expect(goodTurn).toMatchObject({ status: 'fulfilled', value: { stopReason: 'end_turn' } });
      expect(good.status.status).toBe('ready');
      const goodRecords = await world.traceRecords(good.connection);
      expect(goodRecords.filter((r) => r.kind === 'noise' || r.kind === 'oversize')).toEqual([]);
      expect(JSON.stringify(good.transcript)).toContain('agent_message');

      // The hostile turn settles one way or the other (it never hangs the core), and its agent still runs.
      expect(['fulfilled', 'rejected']).toContain(hostileTurn.status);
      expect(hostile.connection.process.exitInfo).toBeUndefined();

      // Every line it wrote is in the trace, classified as the agent expected.
      const { emitted, records } = await settleTrace(hostile, emitLog, 20_000);
      expect(emitted.length).toBeGreaterThan(150);
      expect(countIncoming(records)).toEqual(countEmitted(emitted));
      const invalidUtf8 = emitted.filter((e) => e.kind === 'invalidUtf8').length;
      expect(records.filter((r) => r.kind === 'wire' && r.dir === 'in' && r.invalidUtf8).length).toBe(invalidUtf8);

      // The faults are in the conformance report, with trace lines as evidence.
      const { report, corrupt } = await traceAndReport(hostile);
      expect(corrupt).toBe(0);
      const rules = new Set(report.findings.map((f) => f.rule));
      for (const rule of expectedRules(emitted)) expect(rules, `rule ${rule}`).toContain(rule);
      expect(report.counts.error).toBeGreaterThan(0);

      // The core still answers the hostile agent's connection and the good one's.
      const again = await good.prompt([text('once more')]);
      expect(again.stopReason).toBe('end_turn');

      // Memory stays bounded: generous, the point is "not proportional to what was sent" (tens of MiB were).
      const sent = emitted.reduce((n, e) => n + e.bytes, 0);
      const growth = process.memoryUsage().heapUsed - heapBefore;
      expect(growth).toBeLessThan(Math.max(256 * 1024 * 1024, sent * 4));

      await hostile.connection.close();
      expect(hostile.connection.process.exitInfo).toBeDefined();
      await world.dispose();
      world = undefined;
      expect(await orphansAfter(emitLog)).toEqual([]);
    });
  }
});
