import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../common/trace/records';
import { ConformanceEngine, reportOf } from './engine';
import { generatedTrace } from './generated-traces';
import { conformanceReportFromFile } from './report-file';

type Json = Record<string, unknown>;

const TRACES = resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces');

/**
 * Both engines fed the same records: what each record announced (live), and the report. `taken`:
 * the records the fast path took — it leaves `ctx.current` as it was (the rules never saw them).
 */
function bothPaths(records: TraceRecord[]): { full: string[]; fast: string[]; fullReport: string; fastReport: string; taken: TraceRecord[] } {
  const full = new ConformanceEngine(undefined, { plainUpdates: false });
  const fast = new ConformanceEngine();
  const out = { full: [] as string[], fast: [] as string[], taken: [] as TraceRecord[] };
  for (const record of records) {
    out.full.push(JSON.stringify(full.observe(record)));
    out.fast.push(JSON.stringify(fast.observe(record)));
    if (fast.ctx.current?.record !== record) out.taken.push(record);
  }
  full.finish();
  fast.finish();
  return { ...out, fullReport: JSON.stringify(reportOf(full)), fastReport: JSON.stringify(reportOf(fast)) };
}

let t = 0;
const out = (msg: Json): TraceRecord => ({ kind: 'wire', t: ++t, dir: 'out', msg: { jsonrpc: '2.0', ...msg } });
const inn = (msg: Json, extra: Json = {}): TraceRecord => ({ kind: 'wire', t: ++t, dir: 'in', msg: { jsonrpc: '2.0', ...msg }, ...extra }) as TraceRecord;
const update = (u: Json, sessionId = 's'): TraceRecord => inn({ method: 'session/update', params: { sessionId, update: u } });
const chunk = (): TraceRecord => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } });
const opening = (): TraceRecord[] => [
  out({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } }),
  inn({ id: 0, result: { protocolVersion: 1, agentCapabilities: {} } }),
  out({ id: 1, method: 'session/new', params: { cwd: '/p', mcpServers: [] } }),
  inn({ id: 1, result: { sessionId: 's' } }),
  out({ id: 2, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] } }),
  update({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'Edit', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: '/a', newText: 'b' }] }),
];

describe('the conformance engine’s fast path for plain updates', () => {
  it('takes a running turn’s plain updates, and nothing that a rule reports on or waits on', () => {
    const taken = (tail: TraceRecord[]) => bothPaths([...opening(), ...tail]).taken.filter((r) => tail.includes(r)).length;
    // A flood's updates: taken.
    expect(taken([chunk(), update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc', status: 'completed', content: [{ type: 'diff', path: '/a', oldText: 'a', newText: 'b' }] })])).toBe(2);
    // Each of these leaves it (one record each).
    const leaving: TraceRecord[][] = [
      [update({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'completed' })], // unknown tool call
      [update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' }, extra: 1 })], // not a plain shape
      [update({ sessionUpdate: 'plan', entries: [] })], // a kind the fast path does not know
      [inn({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } }, { invalidUtf8: true })],
      [inn({ jsonrpc: '1.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } })],
      [inn({ id: 5, method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } })],
    ];
    for (const tail of leaving) expect(taken(tail), JSON.stringify(tail)).toBe(0);
    // After the turn ended (update-after-turn), and while a cancel is pending (cancel-unanswered).
    expect(taken([inn({ id: 2, result: { stopReason: 'end_turn' } }), chunk()])).toBe(0);
    const cancelled = [out({ method: 'session/cancel', params: { sessionId: 's' } }), chunk()];
    expect(taken(cancelled)).toBe(0);
    // Once the cancelled turn is answered and a new one runs, taken again.
    expect(taken([...cancelled, inn({ id: 2, result: { stopReason: 'cancelled' } }), out({ id: 3, method: 'session/prompt', params: { sessionId: 's', prompt: [] } }), chunk()])).toBe(1);
  });

  it('announces and reports exactly what the full path does, over 3,000 generated traces', () => {
    let records = 0;
    let taken = 0;
    const rules = new Map<string, number>();
    for (let seed = 1; seed <= 3000; seed++) {
      const trace = generatedTrace(seed);
      const both = bothPaths(trace);
      expect(both.fast, `seed ${seed}`).toEqual(both.full);
      expect(both.fastReport, `seed ${seed}`).toBe(both.fullReport);
      records += trace.length;
      taken += both.taken.length;
      for (const f of (JSON.parse(both.fullReport) as { findings: Array<{ rule: string }> }).findings) rules.set(f.rule, (rules.get(f.rule) ?? 0) + 1);
    }
    // The traces take the fast path often, and leave it for every rule that looks at updates.
    expect(taken / records).toBeGreaterThan(0.2);
    for (const rule of ['update-after-turn', 'tool-call-update-unknown-id', 'cancel-unanswered', 'schema-params', 'jsonrpc-envelope', 'unknown-update-kind', 'unknown-method', 'unadvertised-update', 'unadvertised-client-method', 'permission-unknown-tool-call', 'load-replayed-nothing', 'cancel-stop-reason']) {
      expect(rules.get(rule) ?? 0, rule).toBeGreaterThan(0);
    }
  });

  it('reports the recorded traces (e2e/fixtures/traces) as the full path does', async () => {
    for (const file of readdirSync(TRACES).filter((f) => f.endsWith('.jsonl'))) {
      const path = join(TRACES, file);
      expect(await conformanceReportFromFile(path), file).toEqual(await conformanceReportFromFile(path, { plainUpdates: false }));
    }
  });
});
