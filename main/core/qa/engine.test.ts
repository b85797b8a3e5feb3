import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../common/trace/records';
import { ConformanceEngine, conformanceReport } from './engine';
import { conformanceReportFromFile } from './report-file';
import { RULES } from './rules';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TRACES = resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces');

let t = 0;
const out = (msg: Json, at = ++t): TraceRecord => ({ kind: 'wire', t: at, dir: 'out', msg: { jsonrpc: '2.0', ...msg } });
const inn = (msg: Json, at = ++t): TraceRecord => ({ kind: 'wire', t: at, dir: 'in', msg: { jsonrpc: '2.0', ...msg } });
const update = (update: Json, at?: number) => inn({ method: 'session/update', params: { sessionId: 's', update } }, at);

/** initialize, session/new, a prompt: the start of most traces. */
const opening = (): TraceRecord[] => [
  out({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } } }, 1),
  inn({ id: 0, result: { protocolVersion: 1, agentInfo: { name: 'a', version: '1' }, agentCapabilities: { loadSession: true } } }, 2),
  out({ id: 1, method: 'session/new', params: { cwd: '/p', mcpServers: [] } }, 3),
  inn({ id: 1, result: { sessionId: 's' } }, 4),
  out({ id: 2, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] } }, 5),
];

const rules = (records: TraceRecord[], options = {}) => conformanceReport({ records }, options).findings.map((f) => f.rule);

describe('the conformance engine', () => {
  it('gives every rule an id, a severity, a one-sentence rationale and its docs anchor', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
      expect(['error', 'warning', 'info']).toContain(r.severity);
      expect(r.rationale).toMatch(/^[^.]+(\.\S[^.]*)*\.$/); // one sentence
      expect(r.docs).toBe(`docs/conformance.md#${r.id}`);
    }
  });

  it('numbers records from line 2 and merges repeated findings into one', () => {
    const records: TraceRecord[] = [...opening(), { kind: 'noise', t: 6, dir: 'in', text: 'a' }, update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }, 7), { kind: 'noise', t: 8, dir: 'in', text: 'b' }];
    const report = conformanceReport({ records });
    expect(report.findings).toEqual([{ rule: 'stdout-noise', severity: 'error', message: 'The agent wrote a line to stdout that is not a JSON-RPC message: "a" (2 times)', evidence: [7, 9] }]);
    expect(report.counts).toEqual({ error: 1, warning: 0, info: 0 });
    expect(report.agent).toEqual({ name: 'a', version: '1' });
    expect(report.protocolVersion).toBe(1);
    expect(report.capabilities).toEqual({ loadSession: true });
    // Given line numbers (a trace with corrupt lines) are used as they are.
    const numbered = conformanceReport({ records: records.map((record, i) => ({ record, line: i + 10 })) });
    expect(numbered.findings[0]!.evidence).toEqual([15, 17]);
  });

  it('runs live: findings are announced as records arrive', () => {
    const engine = new ConformanceEngine();
    const seen: string[] = [];
    engine.onFinding((f) => seen.push(`${f.rule}@${f.evidence.join(',')}`));
    for (const r of opening()) engine.observe(r);
    expect(engine.observe(update({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost' }, 6))).toHaveLength(1);
    expect(seen).toEqual(['tool-call-update-unknown-id@7']);
    expect(engine.findings().map((f) => f.rule)).toEqual(['tool-call-update-unknown-id']);
  });

  it('judges the cancel time limit on record time, and at the end of a trace', () => {
    const cancelled = [...opening(), out({ method: 'session/cancel', params: { sessionId: 's' } }, 100)];
    // An answer 6 s after the cancel: too late.
    expect(rules([...cancelled, inn({ id: 2, result: { stopReason: 'cancelled' } }, 6100)])).toEqual(['cancel-unanswered']);
    // In time.
    expect(rules([...cancelled, inn({ id: 2, result: { stopReason: 'cancelled' } }, 4000)])).toEqual([]);
    // No answer, and the trace goes on past the limit (any record counts as time passing).
    expect(rules([...cancelled, { kind: 'stderr', t: 5200, text: 'still thinking' }])).toEqual(['cancel-unanswered']);
    // No answer, and the trace ends before the limit: no evidence either way.
    expect(rules([...cancelled, { kind: 'stderr', t: 3000, text: '…' }])).toEqual([]);
    // A shorter limit by option.
    expect(rules([...cancelled, { kind: 'stderr', t: 3000, text: '…' }], { cancelTimeoutMs: 1000 })).toEqual(['cancel-unanswered']);
  });

  it('checks results by the method they answer, accepting null where the type has no required field', () => {
    const records = [...opening(), inn({ id: 2, result: { stopReason: 'end_turn' } }), out({ id: 3, method: 'session/load', params: { sessionId: 's', cwd: '/p', mcpServers: [] } })];
    expect(rules([...records, update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } }), inn({ id: 3, result: null })])).toEqual([]);
    const bad = conformanceReport({ records: [...records, update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } }), inn({ id: 3, result: { modes: { currentModeId: 1 } } })] });
    expect(bad.findings.map((f) => [f.rule, f.message])).toEqual([
      ['schema-tolerated', 'the answer to session/load: result.modes.availableModes required property is missing (the value is ignored)'],
      ['schema-tolerated', 'the answer to session/load: result.modes.currentModeId must be of type string, got integer (the value is ignored)'],
    ]);
  });

  it('names a method sent in the wrong direction', () => {
    const report = conformanceReport({ records: [...opening(), inn({ id: 9, method: 'session/prompt', params: {} })] });
    expect(report.findings.map((f) => f.message)).toEqual(['The agent sent the request "session/prompt", which is not an ACP client method (session/prompt is a method of the agent, not of the client)']);
  });

  it('does not report an extension method, an error answer with a null id, or a second session', () => {
    expect(
      rules([
        ...opening(),
        inn({ method: '_vendor/progress', params: { x: 1 } }),
        inn({ id: null, error: { code: -32700, message: 'Parse error' } }),
        out({ id: 3, method: 'session/new', params: { cwd: '/p', mcpServers: [] } }),
        inn({ method: 'session/update', params: { sessionId: 's2', update: { sessionUpdate: 'available_commands_update', availableCommands: [] } } }),
        inn({ id: 3, result: { sessionId: 's2' } }),
      ]),
    ).toEqual([]);
  });

  it('skips a rule only for records it never reports on: the same reports with every rule called for every record', async () => {
    const everyRecord = RULES.map(({ on: _on, ...rule }) => rule);
    expect(RULES.filter((r) => r.on).length).toBeGreaterThan(20);
    for (const file of readdirSync(TRACES).filter((f) => f.endsWith('.jsonl'))) {
      const path = join(TRACES, file);
      expect(await conformanceReportFromFile(path, { rules: everyRecord }), file).toEqual(await conformanceReportFromFile(path));
    }
  });

  it('reports what real agents were recorded doing (e2e/fixtures/traces)', async () => {
    const found: Record<string, string[]> = {};
    for (const file of readdirSync(TRACES).filter((f) => f.endsWith('.jsonl'))) {
      const report = await conformanceReportFromFile(join(TRACES, file));
      found[file] = [...new Set(report.findings.map((f) => f.rule))];
    }
    // Clean recordings of the main agents.
    for (const file of ['claude-agent-acp.jsonl', 'claude-code-acp.jsonl', 'codex.jsonl', 'codex-cancel.jsonl', 'pi.jsonl', 'load-replay.jsonl']) expect(found[file]).toEqual([]);
    // gemini asks permission for tool calls it never announced, then updates them (acp-reference §22.7).
    expect(found['gemini.jsonl']).toEqual(['permission-unknown-tool-call', 'tool-call-update-unknown-id']);
    // opencode sends tail updates after the prompt answer (§22.5).
    expect(found['opencode.jsonl']).toEqual(['update-after-turn']);
    expect(found['noise-and-corrupt.jsonl']).toEqual(['stdout-noise']);
    expect(found['modes-config-updates.jsonl']).toEqual(['schema-params', 'unadvertised-update', 'unknown-update-kind']);
  });
});
