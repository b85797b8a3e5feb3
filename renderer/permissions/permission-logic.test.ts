import { describe, expect, it } from 'vitest';
import type { PermissionOption } from '../../common/transcript/acp-types';
import type { PermissionRecord, ToolCallEntry, Transcript } from '../../common/transcript/model';
import {
  bestOption,
  decisionSummary,
  diffFromRawInput,
  firstPendingPermission,
  optionLook,
  proposedDiffs,
  resolveProposedDiff,
} from './permission-logic';

const opt = (optionId: string, kind: PermissionOption['kind'], name = optionId): PermissionOption => ({ optionId, kind, name });

function permission(over: Partial<PermissionRecord> = {}): PermissionRecord {
  return { requestId: 1, t: 0, options: [opt('yes', 'allow_once', 'Allow'), opt('no', 'reject_once', 'Reject')], status: 'pending', ...over };
}

function toolCall(id: string, permissions: PermissionRecord[], over: Partial<ToolCallEntry> = {}): ToolCallEntry {
  return { id, kind: 'tool_call', t: 0, turn: 1, toolCallId: id, title: id, toolKind: 'edit', status: 'pending', content: [], locations: [], permissions, ...over };
}

describe('choosing the option a shortcut answers with', () => {
  it('prefers _once over _always for allow and for reject, whatever the agent order', () => {
    const options = [opt('aa', 'allow_always'), opt('ra', 'reject_always'), opt('ao', 'allow_once'), opt('ro', 'reject_once')];
    expect(bestOption(options, 'allow')?.optionId).toBe('ao');
    expect(bestOption(options, 'reject')?.optionId).toBe('ro');
  });

  it('takes the _always kind when it is the only one, and nothing when the kind is missing', () => {
    expect(bestOption([opt('aa', 'allow_always'), opt('ro', 'reject_once')], 'allow')?.optionId).toBe('aa');
    expect(bestOption([opt('ao', 'allow_once')], 'reject')).toBeUndefined();
    expect(bestOption([], 'allow')).toBeUndefined();
  });

  it('takes the first option of a kind when the agent offers two', () => {
    expect(bestOption([opt('first', 'allow_once'), opt('second', 'allow_once')], 'allow')?.optionId).toBe('first');
  });
});

describe('the first pending permission of a transcript', () => {
  it('skips resolved requests and non-tool entries, in transcript order', () => {
    const done = toolCall('e1', [permission({ requestId: 1, status: 'selected', optionId: 'yes' })]);
    const waiting = toolCall('e3', [permission({ requestId: 7, status: 'cancelled' }), permission({ requestId: 8 })]);
    const later = toolCall('e4', [permission({ requestId: 9 })]);
    const t: Pick<Transcript, 'ids' | 'entries'> = {
      ids: ['e1', 'e2', 'e3', 'e4'],
      entries: { e1: done, e2: { id: 'e2', kind: 'agent_message', t: 0, turn: 1, content: [] }, e3: waiting, e4: later },
    };
    expect(firstPendingPermission(t)?.permission.requestId).toBe(8);
    expect(firstPendingPermission({ ids: ['e1'], entries: { e1: done } })).toBeUndefined();
  });
});

describe('how options and decisions read', () => {
  it('styles allow as primary, reject as danger, always as outlined', () => {
    expect(optionLook('allow_once')).toEqual({ tone: 'allow', outlined: false });
    expect(optionLook('allow_always')).toEqual({ tone: 'allow', outlined: true });
    expect(optionLook('reject_once')).toEqual({ tone: 'reject', outlined: false });
    expect(optionLook('reject_always')).toEqual({ tone: 'reject', outlined: true });
    expect(optionLook('something_else').tone).toBe('neutral');
  });

  it('says which option and who decided', () => {
    expect(decisionSummary(permission({ status: 'selected', optionId: 'yes', optionKind: 'allow_once', optionName: 'Allow', decidedBy: 'user' }))).toBe('Allowed once (“Allow”) — by you');
    expect(decisionSummary(permission({ status: 'selected', optionId: 'no', decidedBy: 'policy', rule: 'reads' }))).toBe('Rejected once (“Reject”) — by policy (reads)');
    expect(decisionSummary(permission({ status: 'cancelled', decidedBy: 'session-cancel' }))).toBe('Cancelled — because the turn was cancelled');
    expect(decisionSummary(permission({ status: 'cancelled', decidedBy: 'cancel-request' }))).toBe('Cancelled — by the agent (it withdrew the request)');
    expect(decisionSummary(permission({ status: 'selected', optionId: 'yes', decidedBy: 'user:web' }))).toBe('Allowed once (“Allow”) — by you');
    expect(decisionSummary(permission({ status: 'selected', optionId: 'yes', decidedBy: 'policy', rule: 'policy:all' }))).toBe('Allowed once (“Allow”) — by policy (all)');
    expect(decisionSummary(permission({ status: 'selected', optionId: 'yes', decidedBy: 'remembered', rule: 'remembered' }))).toBe('Allowed once (“Allow”) — by a remembered “always” answer');
    expect(decisionSummary(permission({ status: 'cancelled' }))).toBe('Cancelled');
    expect(decisionSummary(permission({ status: 'failed', error: 'boom' }))).toContain('boom');
  });
});

describe('the diff a request proposes', () => {
  it('takes the tool call diffs, then the request context, without duplicates', () => {
    const d = { type: 'diff' as const, path: '/p/a.txt', oldText: 'a\n', newText: 'b\n' };
    const entry = toolCall('e', [], { content: [d, { type: 'content', content: { type: 'text', text: 'why' } }] });
    expect(proposedDiffs(entry, { context: [d, { type: 'diff', path: '/p/b.txt', oldText: null, newText: 'new' }] })).toEqual([
      { kind: 'full', path: '/p/a.txt', oldText: 'a\n', newText: 'b\n' },
      { kind: 'full', path: '/p/b.txt', oldText: null, newText: 'new' },
    ]);
  });

  it('diffs against the file on disk when only the new text is known', () => {
    const entry = toolCall('e', [], { content: [{ type: 'diff', path: '/p/a.txt', newText: 'b\n' }] });
    const [diff] = proposedDiffs(entry);
    expect(diff).toEqual({ kind: 'against-disk', path: '/p/a.txt', newText: 'b\n' });
    expect(resolveProposedDiff(diff!, 'a\n')).toEqual({ oldText: 'a\n', newText: 'b\n' });
    expect(resolveProposedDiff(diff!, null)).toEqual({ oldText: null, newText: 'b\n' });
  });

  it('reads common edit tool inputs when the call has no diff (edits only)', () => {
    expect(proposedDiffs(toolCall('e', [], { rawInput: { path: '/p/a', newText: 'x' } }))).toEqual([{ kind: 'against-disk', path: '/p/a', newText: 'x' }]);
    expect(proposedDiffs(toolCall('e', [], { toolKind: 'execute', rawInput: { path: '/p/a', newText: 'x' } }))).toEqual([]);
    expect(diffFromRawInput({ file_path: '/p/a', content: 'x' })).toEqual({ kind: 'against-disk', path: '/p/a', newText: 'x' });
    expect(diffFromRawInput({ command: 'ls' })).toBeUndefined();
    expect(diffFromRawInput(['x'])).toBeUndefined();
  });

  it('applies a search/replace edit to the file on disk', () => {
    const diff = diffFromRawInput({ file_path: '/p/a', old_string: 'Hello', new_string: 'Hi' })!;
    expect(resolveProposedDiff(diff, 'Hello\nHello\n')).toEqual({ oldText: 'Hello\nHello\n', newText: 'Hi\nHello\n' });
    const all = diffFromRawInput({ file_path: '/p/a', old_string: 'Hello', new_string: '$&', replace_all: true })!;
    expect(resolveProposedDiff(all, 'Hello\nHello\n').newText).toBe('$&\n$&\n');
    const missing = resolveProposedDiff(diff, 'Bye\n');
    expect(missing).toMatchObject({ oldText: 'Hello', newText: 'Hi' });
    expect(missing.note).toBeTruthy();
  });
});
