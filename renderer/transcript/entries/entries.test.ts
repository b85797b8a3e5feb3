import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { Entry, ToolCallEntry } from '../../../common/transcript/model';

// The permission card belongs to another area (and pulls Monaco): a marker is enough here.
vi.mock('../../permissions/PermissionCard', () => ({
  PermissionCard: ({ permission }: { permission: { status: string } }) => createElement('div', { 'data-testid': 'permission-card', 'data-status': permission.status }),
}));

const { AgentMessage, Thought, UserMessage } = await import('./MessageEntries');
const { ToolCallCard } = await import('./ToolCallCard');
const { PlanCard } = await import('./PlanCard');
const { ErrorCard, Notice, TurnEnd, UnknownUpdate } = await import('./Problems');
const { ConfigChange, ModeChange, SessionInfo, Usage } = await import('./Notes');

const base = { t: 0, turn: 1 };
const render = <P extends object>(c: FunctionComponent<P> | unknown, props: P) => renderToStaticMarkup(createElement(c as FunctionComponent<P>, props));

function tool(fields: Partial<ToolCallEntry>): ToolCallEntry {
  return { ...base, id: 'e5', kind: 'tool_call', toolCallId: 'call-1', title: 'Edit a.ts', toolKind: 'edit', status: 'completed', content: [], locations: [], permissions: [], ...fields };
}

describe('entry rows', () => {
  it('mark every entry with its kind and id', () => {
    const html = render(UserMessage, { sessionId: 's', entry: { ...base, id: 'e1', kind: 'user_message', content: [{ type: 'text', text: 'Fix **it**' }] } as Entry });
    expect(html).toContain('data-testid="entry-user_message" data-entry-id="e1"');
    expect(html).toContain('<strong>it</strong>');
    const agent = render(AgentMessage, { sessionId: 's', entry: { ...base, id: 'e2', kind: 'agent_message', content: [{ type: 'text', text: 'Done' }], flags: ['after-turn-end'] } as Entry });
    expect(agent).toContain('data-testid="entry-agent_message" data-entry-id="e2"');
    expect(agent).toContain('data-flag="after-turn-end"');
  });

  it('collapses thoughts, showing a one-line preview', () => {
    const html = render(Thought, { sessionId: 's', entry: { ...base, id: 'e3', kind: 'thought', content: [{ type: 'text', text: 'First line\nsecond line' }] } as Entry });
    expect(html).toContain('data-testid="thought-toggle"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('First line');
    expect(html).not.toContain('second line');
    expect(html).not.toContain('thought-body');
    // One line of inline text: the chevron is CSS, not an SVG in every row.
    expect(html).not.toContain('<svg');
  });

  it('renders a tool call card with status, locations, inline diff, permissions', () => {
    const entry = tool({
      status: 'cancelled',
      locations: [{ path: '/p/src/a.ts', line: 3 }],
      content: [{ type: 'diff', path: '/p/src/a.ts', oldText: 'a\nb\n', newText: 'a\nB\n' }, { type: 'content', content: { type: 'text', text: 'why' } }],
      permissions: [{ requestId: 7, t: 1, options: [], status: 'pending' }],
    });
    const html = render(ToolCallCard, { sessionId: 's', entry });
    expect(html).toMatch(/data-testid="tool-call" data-status="cancelled"/);
    expect(html).toContain('data-testid="tool-call-title" title="Edit a.ts">Edit a.ts<');
    expect(html).toContain('data-testid="tool-location" data-path="/p/src/a.ts"');
    expect(html).toContain('data-testid="diff-inline" data-path="/p/src/a.ts" data-kind="diff"');
    expect(html).toContain('data-testid="open-diff"');
    expect(html).toContain('+1</span> <span class="tx-diff-removed">−1');
    expect(html).toContain('data-testid="permission-card" data-status="pending"');
    expect(html).toContain('data-testid="tool-call-content"');
  });

  it('shows an edited file once: its location is the head of its diff, with no locations line', () => {
    const entry = tool({ locations: [{ path: '/p/src/a.ts' }], content: [{ type: 'diff', path: '/p/src/a.ts', oldText: 'a\n', newText: 'b\n' }] });
    const html = render(ToolCallCard, { sessionId: 's', entry });
    expect(html).not.toContain('data-testid="tool-locations"');
    expect(html).not.toContain('tx-diff-path');
    expect(html.match(/data-testid="tool-location"/g)).toHaveLength(1);
    expect(html).toMatch(/class="tx-diff-head"><span class="tx-location-wrap"><button[^>]*data-testid="tool-location" data-path="\/p\/src\/a.ts"/);
  });

  it('renders agent-rendered terminal output from _meta with ANSI colours as spans', () => {
    const entry = tool({
      id: 'e9',
      toolKind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: 't1' }],
      meta: { terminal_output_delta: { terminal_id: 't1', data: '\u001b[31mred\u001b[0m ok\n' } },
    });
    const html = render(ToolCallCard, { sessionId: 's', entry });
    expect(html).toContain('data-testid="terminal-output" data-running="true"');
    expect(html).toContain('<span class="tx-ansi-fg-1">red</span> ok');
    expect(html).not.toContain('\u001b');
  });

  it('renders plans with status and priority', () => {
    const html = render(PlanCard, {
      entry: { ...base, id: 'e4', kind: 'plan', entries: [{ content: 'Read', priority: 'high', status: 'completed' }, { content: 'Edit', priority: 'low', status: 'in_progress' }] } as Entry,
    });
    expect(html).toContain('data-testid="plan"');
    expect(html).toContain('data-testid="plan-item" data-status="completed" data-priority="high"');
    expect(html).toContain('data-testid="plan-item" data-status="in_progress" data-priority="low"');
    expect(html).toContain('1/2 done');
  });

  it('shows the real cause of errors: data and stderr tail, plus advice', () => {
    const html = render(ErrorCard, {
      entry: { ...base, id: 'e6', kind: 'error', message: 'Internal error', code: -32603, data: { details: 'quota exceeded' }, method: 'session/prompt', source: 'response', stderrTail: ['panic: boom'] } as Entry,
    });
    expect(html).toContain('data-testid="error" data-source="response" data-code="-32603"');
    expect(html).toContain('quota exceeded');
    expect(html).toContain('panic: boom');
    expect(html).toContain('data-testid="error-hint"');
  });

  it('shows turn ends neutrally, refusals highlighted', () => {
    const cancelled = render(TurnEnd, { entry: { ...base, id: 'e7', kind: 'turn_end', stopReason: 'cancelled' } as Entry });
    expect(cancelled).toContain('tx-tone-neutral');
    expect(cancelled).toContain('data-stop-reason="cancelled"');
    const refusal = render(TurnEnd, { entry: { ...base, id: 'e8', kind: 'turn_end', stopReason: 'refusal', durationMs: 1500 } as Entry });
    expect(refusal).toContain('tx-tone-bad');
    expect(refusal).toContain('will not be part of');
  });

  it('keeps unknown updates collapsed and notes compact', () => {
    const unknown = render(UnknownUpdate, { sessionId: 's', entry: { ...base, id: 'e10', kind: 'unknown_update', sessionUpdate: 'vendor_x', raw: { secret: 'shh' } } as Entry });
    expect(unknown).toContain('vendor_x');
    expect(unknown).not.toContain('shh');
    expect(render(Notice, { entry: { ...base, id: 'e11', kind: 'notice', severity: 'warning', title: 'Slow', source: 'agent' } as Entry })).toContain('data-severity="warning"');
    expect(render(ModeChange, { sessionId: 's', entry: { ...base, id: 'e12', kind: 'mode_change', modeId: 'code', previousModeId: 'ask', source: 'agent' } as Entry })).toContain('data-testid="mode-change"');
    expect(render(ConfigChange, { entry: { ...base, id: 'e13', kind: 'config_change', changes: [{ configId: 'model', name: 'Model', from: 'a', to: 'b' }], source: 'set_config_option' } as Entry })).toContain('Model: a → <b>b</b>');
    expect(render(Usage, { entry: { ...base, id: 'e14', kind: 'usage', used: 5300, size: 200000, cost: { amount: 0.042, currency: 'USD' } } as Entry })).toContain('Context 5.3k / 200k tokens (2.7%) · cost 0.042 USD');
    expect(render(SessionInfo, { entry: { ...base, id: 'e15', kind: 'session_info', title: 'Refactor' } as Entry })).toContain('Refactor');
  });
});
