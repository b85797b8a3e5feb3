/**
 * `check` against the fixture agent, a real subprocess: the clean scenario (conformance-clean.json)
 * gives no finding, and each rule has a planted violation on top of it that gives exactly that
 * rule's finding — no more, no less.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_AGENT, SCENARIOS } from '../../acp/test-support/fixture-world';
import { RULES } from '../rules';
import { runCheck, type CheckResult } from './run-check';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CLEAN: Json = JSON.parse(readFileSync(join(SCENARIOS, 'conformance-clean.json'), 'utf8'));
const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-check-')));
let n = 0;
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The clean scenario with a change. */
function planted(plant: (s: Json) => void): Json {
  const scenario = structuredClone(CLEAN);
  scenario.name = 'planted';
  plant(scenario);
  return scenario;
}

const prompt = (s: Json, text: string): Json => s.prompts.find((p: Json) => p.match.text === text);
/** Steps played first in the main turn. */
const first = (s: Json, ...steps: Json[]) => s.defaultPrompt.steps.unshift(...steps);

export async function check(scenario: Json): Promise<CheckResult> {
  const dir = join(base, String(++n));
  mkdirSync(join(dir, 'project'), { recursive: true });
  return runCheck({
    launch: {
      command: process.execPath,
      args: [FIXTURE_AGENT, '--scenario-json', JSON.stringify(scenario), '--max-lifetime-ms', '60000'],
      env: { ...process.env, FIXTURE_SCENARIO: '' },
      label: 'fixture',
      agentId: 'fixture',
    },
    sessionCwd: join(dir, 'project'),
    dataDir: join(dir, 'data'),
    turnTimeoutMs: 10_000,
    requestTimeoutMs: 5_000,
    cancelTimeoutMs: 1_000,
    settleMs: 100,
  });
}

/** One planted violation per rule id. */
const PLANTS: Record<string, (s: Json) => void> = {
  'stdout-noise': (s) => first(s, { noise: 'debug: thinking...' }),
  'oversize-line': (s) => first(s, { hugeLine: 32 * 1024 * 1024 + 16, json: true }),
  'jsonrpc-envelope': (s) => first(s, { rawLine: '{"jsonrpc":"2.0","note":"neither a request nor a response"}' }),
  'result-and-error': (s) => (s.methods = { 'session/list': { response: { result: { sessions: [] }, error: { code: -32603, message: 'both' } } } }),
  'unknown-response-id': (s) => first(s, { rawLine: '{"jsonrpc":"2.0","id":4242,"result":{}}' }),
  'schema-params': (s) => first(s, { update: { sessionUpdate: 'tool_call', toolCallId: 'untitled' } }),
  'schema-result': (s) => (s.defaultPrompt.steps.at(-1).end = { result: { stopReason: 'finished' } }),
  'schema-tolerated': (s) => first(s, { toolCall: { toolCallId: 'odd', title: 'Odd kind', kind: 'teleport' } }),
  'unknown-method': (s) => first(s, { notify: { method: 'session/ping', params: { sessionId: '{{sessionId}}' } } }),
  'unknown-update-kind': (s) => first(s, { update: { sessionUpdate: 'vendor_progress', percent: 50 } }),
  'protocol-version': (s) => (s.initialize.protocolVersion = 2),
  'advertised-method-missing': (s) => delete s.session.list,
  'unadvertised-method-answered': (s) => delete s.initialize.agentCapabilities.sessionCapabilities.list,
  'unadvertised-client-method': (s) =>
    first(s, { request: { method: 'elicitation/create', params: { sessionId: '{{sessionId}}', message: 'Your name?', mode: 'form', requestedSchema: { type: 'object', properties: {} } } } }),
  'unadvertised-update': (s) => first(s, { sessionUpdate: 'notice', severity: 'info', title: 'Heads up' }),
  'advertised-content-refused': (s) => (prompt(s, 'content you advertised').steps = [{ fail: { code: -32602, message: 'Invalid params: no images' } }]),
  'unadvertised-content-accepted': (s) => (prompt(s, 'content you did not advertise').steps = [{ text: 'OK' }]),
  'update-after-turn': (s) => (s.defaultPrompt.steps.at(-1).after = [{ text: 'One more thing.' }]),
  'tool-call-update-unknown-id': (s) => first(s, { toolCallUpdate: { toolCallId: 'ghost', status: 'completed' } }),
  'permission-unknown-tool-call': (s) => first(s, { permission: { toolCall: { toolCallId: 'ghost', title: 'Delete everything' } } }),
  'cancel-unanswered': (s) => (prompt(s, 'this turn will be cancelled').cancel = { ignore: true }),
  'cancel-stop-reason': (s) => (prompt(s, 'this turn will be cancelled').cancel.stopReason = 'end_turn'),
  'cancel-left-requests': (s) => (prompt(s, 'this turn will be cancelled').cancel.waitForPending = false),
  'load-replayed-nothing': (s) => (s.session.load = true),
};

describe('acp-workbench check against the fixture agent', () => {
  it('has a planted violation for every rule', () => {
    expect(Object.keys(PLANTS).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it('finds nothing wrong with the clean agent, and runs every step of its script', async () => {
    const result = await check(CLEAN);
    expect(result.report.findings).toEqual([]);
    expect(result.startError).toBeUndefined();
    expect(result.steps.filter((s) => s.status !== 'ok')).toEqual([]);
    expect(result.steps.map((s) => s.step)).toEqual([
      'initialize',
      'session/new',
      'session/list',
      'session/set_mode',
      'session/set_config_option',
      'session/prompt',
      'session/cancel',
      'prompt with image, resource content',
      'prompt with unadvertised audio content',
      'session/load',
      'session/resume',
      'session/fork',
      'session/close (fork)',
      'session/close',
      'session/delete',
    ]);
    expect(result.steps.find((s) => s.step === 'session/cancel')!.detail).toBe('stopReason cancelled');
    expect(result.report.agent).toEqual({ name: 'fixture-agent', title: 'Fixture agent', version: '1.0.0' });
    expect(result.report.protocolVersion).toBe(1);
  });

  it('goes on as far as it can when the agent dies mid-turn, and still reports', async () => {
    const result = await check(planted((s) => first(s, { text: 'working' }, { crash: 3 })));
    expect(result.report.findings).toEqual([]);
    const status = Object.fromEntries(result.steps.map((s) => [s.step, s.status]));
    expect(status['session/prompt']).toBe('failed');
    expect(status['session/cancel']).toBe('skipped');
    expect(status['session/load']).toBe('skipped');
    expect(result.steps.find((s) => s.step === 'session/load')!.detail).toBe('the agent is not running (exit code 3)');
  });

  for (const [rule, plant] of Object.entries(PLANTS)) {
    it(`finds exactly ${rule} when it is planted`, async () => {
      const result = await check(planted(plant));
      expect(result.report.findings.map((f) => f.rule)).toEqual([rule]);
      const finding = result.report.findings[0]!;
      expect(finding.severity).toBe(RULES.find((r) => r.id === rule)!.severity);
      // The evidence points at real lines of the trace.
      const lines = readFileSync(result.trace!, 'utf8').split('\n');
      expect(finding.evidence.length).toBeGreaterThan(0);
      for (const line of finding.evidence) expect(lines[line - 1]).toMatch(/^\{"kind":"(wire|noise|oversize|cancel)"/);
    });
  }
});
