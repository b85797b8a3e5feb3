import { describe, expect, it } from 'vitest';
import type { FindingView } from '../api/qa-types';
import { conformanceMarkdown, type EvidenceMessage } from './conformance-markdown';

const agent = { label: 'Custom command', name: 'fixture-agent', version: '1.0.0', protocolVersion: 1, command: 'node agent.js --scenario x' };
const finding = (over: Partial<FindingView>): FindingView => ({
  rule: 'unknown-update-kind',
  severity: 'error',
  message: 'session/update of unknown kind "async_task_spawned"',
  evidence: [8],
  rows: [6],
  docs: 'docs/conformance.md#unknown-update-kind',
  rationale: 'A kind the schema does not define is dropped whole by SDK-based clients.',
  ...over,
});
const update = (index: number, msg: unknown): [number, EvidenceMessage] => [index, { index, record: { kind: 'wire', dir: 'in', msg } }];
const at = Date.UTC(2026, 11, 3, 12, 0, 0);

describe('conformanceMarkdown', () => {
  it('names the agent, counts the findings and shows each with its messages in full', () => {
    const md = conformanceMarkdown({
      agent,
      at,
      report: {
        findings: [finding({}), finding({ rule: 'tool-call-update-unknown-id', severity: 'warning', message: 'tool_call_update for "x"', rows: [8, 9], evidence: [10, 11] })],
        counts: { error: 1, warning: 1, info: 0 },
      },
      messages: new Map([update(6, { jsonrpc: '2.0', method: 'session/update', params: { update: { sessionUpdate: 'async_task_spawned' } } }), update(8, { jsonrpc: '2.0', method: 'session/update' })]),
    });
    expect(md).toMatch(/^# Conformance report: fixture-agent 1\.0\.0\n/);
    expect(md).toContain('- Agent command: `node agent.js --scenario x`');
    expect(md).toContain('- Written: 2026-12-03T12:00:00.000Z');
    expect(md).toContain('- Findings: 1 error, 1 warning, 0 notes');
    expect(md).toContain('## 1. ERROR `unknown-update-kind`');
    expect(md).toContain('Why it matters: A kind the schema does not define is dropped whole by SDK-based clients.');
    expect(md).toContain('Rule: docs/conformance.md#unknown-update-kind');
    // The message itself, pretty-printed, not the trace record around it.
    expect(md).toContain('Message #6:\n\n```json\n{\n  "jsonrpc": "2.0",\n  "method": "session/update",');
    expect(md).not.toContain('"kind": "wire"');
    // Row 9 was not fetched: listed by number.
    expect(md).toContain('## 2. WARNING `tool-call-update-unknown-id`');
    expect(md).toContain('Trace lines: 10, 11');
    expect(md).toContain('Also messages: #9');
  });

  it('says so when there is nothing to report', () => {
    const md = conformanceMarkdown({ agent, at, report: { findings: [], counts: { error: 0, warning: 0, info: 0 } }, messages: new Map() });
    expect(md).toContain('- Findings: 0 errors, 0 warnings, 0 notes');
    expect(md.trimEnd().endsWith('No findings.')).toBe(true);
  });

  it('lists messages past the first three by number, and cuts long ones', () => {
    const long = { jsonrpc: '2.0', method: 'session/update', params: { text: 'x'.repeat(10_000) } };
    const rows = [1, 2, 3, 4, 5];
    const md = conformanceMarkdown({
      agent,
      at,
      report: { findings: [finding({ rows })], counts: { error: 1, warning: 0, info: 0 } },
      messages: new Map(rows.map((r) => update(r, long))),
      maxMessageChars: 500,
    });
    expect(md.match(/^Message #\d+:$/gm)).toEqual(['Message #1:', 'Message #2:', 'Message #3:']);
    expect(md).toContain('Also messages: #4, #5');
    expect(md).toMatch(/… \(\d+ more characters; the whole message is in the trace\)/);
    expect(md.length).toBeLessThan(3 * 700 + 1500);
  });

  it('keeps what the agent sent from breaking out of its code block or turning into markup', () => {
    const hostile = '```\n# injected heading\n<img src=x onerror=alert(1)>\n````';
    const md = conformanceMarkdown({
      agent: { ...agent, name: '<script>alert(1)</script> *bold*', command: 'run `x`' },
      at,
      report: { findings: [finding({ message: `bad <b>html</b> [link](javascript:alert(1)) ${hostile}` })], counts: { error: 1, warning: 0, info: 0 } },
      messages: new Map([update(6, { text: hostile })]),
    });
    expect(md).toContain('# Conformance report: \\<script\\>alert\\(1\\)\\</script\\> \\*bold\\*');
    expect(md).toContain('- Agent command: `` run `x` ``');
    // The finding's message is one escaped line: no raw tag, link or heading.
    const messageLine = md.split('\n').find((l) => l.startsWith('bad '))!;
    expect(messageLine).not.toMatch(/<b>|\]\(|^#/);
    expect(md.split('\n').filter((l) => l.startsWith('# '))).toHaveLength(1);
    // The message's four backticks are inside a five-backtick fence.
    expect(md).toContain('`````json\n{\n  "text": "```\\n# injected heading');
    expect(md).toMatch(/\n`````\n/);
  });
});
