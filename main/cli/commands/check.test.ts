/**
 * `acp-workbench check` as a user runs it: the built CLI against the fixture agent (both real
 * subprocesses). The rules themselves are tested in main/core/qa/check/check.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_AGENT, SCENARIOS } from '../../core/acp/test-support/fixture-world';
import { runBuiltCli } from '../test-support/run-cli';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-check-cli-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

async function check(scenario: Json | string, args: string[] = []) {
  const dir = join(base, String(++n));
  mkdirSync(join(dir, 'project'), { recursive: true });
  let arg = scenario as string;
  if (typeof scenario !== 'string') {
    arg = join(dir, 'scenario.json');
    writeFileSync(arg, JSON.stringify(scenario));
  }
  const agentCmd = `"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${arg}" --max-lifetime-ms 60000`;
  return runBuiltCli(['check', '--agent-cmd', agentCmd, '--cwd', join(dir, 'project'), '--data-dir', join(dir, 'data'), '--cancel-timeout', '1', ...args], { timeoutMs: 60_000 });
}

const clean = (): Json => JSON.parse(readFileSync(join(SCENARIOS, 'conformance-clean.json'), 'utf8'));

describe('acp-workbench check', () => {
  it('prints one JSON object and exits 0 for a conformant agent', async () => {
    const r = await check('conformance-clean', ['--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!);
    expect(report).toMatchObject({
      type: 'check',
      agent: { name: 'fixture-agent', version: '1.0.0' },
      protocolVersion: 1,
      capabilities: { loadSession: true, promptCapabilities: { image: true, audio: false, embeddedContext: true } },
      findings: [],
      error: null,
    });
    expect(report.trace).toMatch(/\/data\/traces\/[0-9A-Z]{26}\.jsonl$/);
    expect(report.steps.every((s: Json) => s.status === 'ok')).toBe(true);
  });

  it('exits 1 when it finds an error, with the rule, the message and the trace lines', async () => {
    const scenario = clean();
    scenario.defaultPrompt.steps.unshift({ noise: 'Starting up...' }, { update: { sessionUpdate: 'tool_call_update', toolCallId: 'ghost' } });
    const r = await check(scenario, ['--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.findings.map((f: Json) => [f.rule, f.severity])).toEqual([
      ['stdout-noise', 'error'],
      ['tool-call-update-unknown-id', 'warning'],
    ]);
    const trace = readFileSync(report.trace, 'utf8').split('\n');
    expect(JSON.parse(trace[report.findings[0].evidence[0] - 1]!)).toMatchObject({ kind: 'noise', text: 'Starting up...' });
  });

  it('prints a readable report, with its steps on stderr', async () => {
    const scenario = clean();
    scenario.defaultPrompt.steps.unshift({ update: { sessionUpdate: 'tool_call_update', toolCallId: 'ghost' } });
    const r = await check(scenario);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Conformance report for fixture-agent 1\.0\.0 \(protocol 1\)\ntrace: \S+\.jsonl\n\n/);
    expect(r.stdout).toMatch(/^WARNING tool-call-update-unknown-id {2}tool_call_update for "ghost", which no tool_call announced \[line \d+\]$/m);
    expect(r.stdout).toContain('0 error(s), 1 warning(s), 0 info');
    expect(r.stderr).toContain('ok   session/cancel — stopReason cancelled');
  });

  it('exits 3 when the agent cannot be started, and 2 on usage errors', async () => {
    const missing = await runBuiltCli(['check', '--agent-cmd', join(base, 'no-such-agent'), '--data-dir', join(base, 'd0')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('no-such-agent');
    const both = await runBuiltCli(['check', '--agent-cmd', 'x', '--agent', 'y']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--agent-cmd or --agent');
    const badTimeout = await runBuiltCli(['check', '--agent-cmd', 'x', '--timeout', 'soon']);
    expect(badTimeout.code).toBe(2);
  });
});
