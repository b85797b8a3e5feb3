import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../test-support/run-cli';

const TRACES = resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces');
const fixture = (name: string) => join(TRACES, name);

describe('acp-workbench trace render', () => {
  it('prints the rebuilt transcript as text', async () => {
    const { code, stdout, stderr } = await runBuiltCli(['trace', 'render', fixture('claude-agent-acp.jsonl')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('── session 01JDQ9000000000000000SESS1 (agent session claude-sess-1) ──');
    const body = stdout.split('\n').filter((l) => l.includes('│'));
    expect(body.filter((l) => !l.startsWith(' ')).map((l) => l.split('│')[0]!.trim())).toEqual([
      'commands',
      'user',
      'thought',
      'agent',
      'tool',
      'plan',
      'agent',
      'usage',
      'turn end',
    ]);
    expect(stdout).toContain('user      │ Fix the typo in README.md');
    expect(stdout).toContain('[completed] Edit `README.md` (edit, toolu_01)');
    expect(stdout).toContain('permission: Allow (allow_once) by user');
    expect(stdout).toContain('turn end  │ end_turn, 2.5 s');
  });

  it('prints entries as JSON lines with --json', async () => {
    const { code, stdout } = await runBuiltCli(['trace', 'render', fixture('multi-session.jsonl'), '--json']);
    expect(code).toBe(0);
    const rows = stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; sessionId: string; entry: { kind: string; id: string } });
    expect(rows.every((r) => r.type === 'entry')).toBe(true);
    expect(rows.map((r) => `${r.sessionId.slice(-5)} ${r.entry.id} ${r.entry.kind}`)).toEqual([
      'SESSB e1 user_message',
      'SESSB e2 agent_message',
      'SESSB e3 turn_end',
      'SESSB e4 user_message',
      'SESSB e5 agent_message',
      'SESSB e6 turn_end',
      'SESSC e1 user_message',
      'SESSC e2 agent_message',
      'SESSC e3 turn_end',
    ]);
  });

  it('renders one session with --session, and names the sessions when the id is unknown', async () => {
    const one = await runBuiltCli(['trace', 'render', fixture('multi-session.jsonl'), '--session', '01JDQ9000000000000000SESSC']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('answer two');
    expect(one.stdout).not.toContain('answer one');
    const unknown = await runBuiltCli(['trace', 'render', fixture('multi-session.jsonl'), '--session', 'NOPE']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no session NOPE');
    expect(unknown.stderr).toContain('01JDQ9000000000000000SESSB, 01JDQ9000000000000000SESSC');
  });

  it('lists corrupt lines and the torn last line on stderr and still renders the rest', async () => {
    const { code, stdout, stderr } = await runBuiltCli(['trace', 'render', fixture('noise-and-corrupt.jsonl')]);
    expect(code).toBe(0);
    const reports = stderr.trim().split('\n');
    expect(reports.map((l) => l.replace(/^.*noise-and-corrupt\.jsonl:/, '').split(':').slice(0, 2).join(':'))).toEqual(['8: corrupt', '10: corrupt', '12: corrupt', '13: torn']);
    expect(stdout).toContain('agent     │ hello there');
  });

  it('answers usage errors with exit code 2', async () => {
    for (const args of [['trace'], ['trace', 'show', 'x'], ['trace', 'render'], ['trace', 'render', 'a', 'b'], ['trace', 'render', '--bogus', 'a']]) {
      const { code } = await runBuiltCli(args);
      expect(code, args.join(' ')).toBe(2);
    }
    const missing = await runBuiltCli(['trace', 'render', join(TRACES, 'does-not-exist.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*does-not-exist\.jsonl: ENOENT/);
  });
});

describe('acp-workbench trace check', () => {
  const fixture = (name: string) => resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces', name);

  it('reports the conformance findings of a recorded trace with their lines, exiting 1 on errors', async () => {
    const r = await runBuiltCli(['trace', 'check', fixture('opencode.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ERROR\s+update-after-turn .*\[lines \d+, \d+\]/);
    const json = await runBuiltCli(['trace', 'check', fixture('opencode.jsonl'), '--json']);
    const report = JSON.parse(json.stdout) as { type: string; findings: Array<{ rule: string; evidence: number[] }> };
    expect(report.type).toBe('conformance');
    expect(report.findings.map((f) => f.rule)).toContain('update-after-turn');
  });

  it('prints the report as Markdown for a bug report: the agent, each finding with why it matters and its lines in full', async () => {
    const r = await runBuiltCli(['trace', 'check', fixture('opencode.jsonl'), '--markdown']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^# Conformance report: /);
    expect(r.stdout).toContain('Judged by ACP Workbench from the recorded trace');
    expect(r.stdout).toMatch(/## \d+\. ERROR `update-after-turn`/);
    expect(r.stdout).toContain('Why it matters: ');
    // The evidence lines in full: the agent's own message, pretty-printed.
    const json = JSON.parse((await runBuiltCli(['trace', 'check', fixture('opencode.jsonl'), '--json'])).stdout) as { findings: Array<{ rule: string; evidence: number[] }> };
    const line = json.findings.find((f) => f.rule === 'update-after-turn')!.evidence[0]!;
    expect(r.stdout).toMatch(new RegExp(`Trace line ${line}:\n\n\`\`\`json\n\\{\n  "jsonrpc": "2\\.0"`));
    const both = await runBuiltCli(['trace', 'check', fixture('opencode.jsonl'), '--markdown', '--json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('cannot be combined');
  });

  it('exits 0 on a clean trace and still lists corrupt lines on stderr', async () => {
    const clean = await runBuiltCli(['trace', 'check', fixture('claude-agent-acp.jsonl')]);
    expect(clean.code, clean.stdout).toBe(0);
    const damaged = await runBuiltCli(['trace', 'check', fixture('noise-and-corrupt.jsonl')]);
    expect(damaged.stderr).toContain(':13: torn');
    expect(damaged.stdout).toContain('stdout-noise');
  });
});
