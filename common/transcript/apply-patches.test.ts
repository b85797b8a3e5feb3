import { describe, expect, it } from 'vitest';
import { applyPatches, TranscriptApplier } from './apply-patches';
import { emptyTranscript, type AgentMessageEntry, type Entry, type ToolCallEntry, type Transcript } from './model';
import type { Patch } from './patches';
import { toolCallEntry } from './test-entries';

const message = (id: string, text: string): AgentMessageEntry => ({ id, kind: 'agent_message', t: 1, turn: 1, content: [{ type: 'text', text }] });
const toolCall = toolCallEntry;

function withEntries(...entries: Entry[]): Transcript {
  return applyPatches(emptyTranscript(), entries.map((entry) => ({ op: 'append-entry', entry }) as Patch));
}

describe('applyPatches', () => {
  it('appends entries in order and ignores a second entry with the same id', () => {
    const t = applyPatches(emptyTranscript(), [
      { op: 'append-entry', entry: message('e1', 'a') },
      { op: 'append-entry', entry: message('e2', 'b') },
      { op: 'append-entry', entry: message('e1', 'dup') },
    ]);
    expect(t.ids).toEqual(['e1', 'e2']);
    expect((t.entries.e1 as AgentMessageEntry).content).toEqual([{ type: 'text', text: 'a' }]);
  });

  it('appends text to the trailing text block, and starts a new text block after a non-text one', () => {
    const t = applyPatches(withEntries(message('e1', 'Hel')), [
      { op: 'append-text', id: 'e1', text: 'lo' },
      { op: 'append-block', id: 'e1', block: { type: 'image', data: 'AA==', mimeType: 'image/png' } },
      { op: 'append-text', id: 'e1', text: '!' },
    ]);
    expect((t.entries.e1 as AgentMessageEntry).content).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'image', data: 'AA==', mimeType: 'image/png' },
      { type: 'text', text: '!' },
    ]);
  });

  it('never modifies its input, and keeps the identity of entries no patch touched', () => {
    const before = withEntries(message('e1', 'one'), message('e2', 'two'));
    const frozen = JSON.stringify(before);
    const after = applyPatches(before, [
      { op: 'append-text', id: 'e2', text: '!' },
      { op: 'set-session', fields: { turnStatus: 'running' } },
      { op: 'append-entry', entry: message('e3', 'three') },
    ]);
    expect(JSON.stringify(before)).toBe(frozen);
    expect(after.entries.e1).toBe(before.entries.e1);
    expect(after.entries.e2).not.toBe(before.entries.e2);
    expect(after.ids).toEqual(['e1', 'e2', 'e3']);
    expect(before.ids).toEqual(['e1', 'e2']);
  });

  it('returns the same object for an empty batch', () => {
    const t = withEntries(message('e1', 'x'));
    expect(applyPatches(t, [])).toBe(t);
  });

  it('patches tool-call fields and keeps existing diffs when asked to', () => {
    const t = applyPatches(withEntries(toolCall('e1')), [
      { op: 'patch-tool-call', id: 'e1', fields: { status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] }, keepDiffs: true },
    ]);
    const e = t.entries.e1 as ToolCallEntry;
    expect(e.status).toBe('completed');
    expect(e.content.map((c) => c.type)).toEqual(['diff', 'content']);
    const replaced = applyPatches(t, [{ op: 'patch-tool-call', id: 'e1', fields: { content: [] } }]);
    expect((replaced.entries.e1 as ToolCallEntry).content).toEqual([]);
  });

  it('upserts permissions by request id, merging later fields', () => {
    const t = applyPatches(withEntries(toolCall('e1')), [
      { op: 'upsert-permission', id: 'e1', permission: { requestId: 0, t: 5, options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }], status: 'pending' } },
      { op: 'upsert-permission', id: 'e1', permission: { requestId: '0', t: 6, status: 'pending' } },
      { op: 'upsert-permission', id: 'e1', permission: { requestId: 0, status: 'selected', optionId: 'ok', decidedBy: 'user' } },
    ]);
    const perms = (t.entries.e1 as ToolCallEntry).permissions;
    expect(perms).toHaveLength(2);
    expect(perms[0]).toMatchObject({ requestId: 0, t: 5, status: 'selected', optionId: 'ok', decidedBy: 'user' });
    expect(perms[0]!.options).toHaveLength(1);
    expect(perms[1]).toMatchObject({ requestId: '0', status: 'pending' });
  });

  it('replaces plans, adds flags once, merges session fields, file changes and terminals', () => {
    const plan: Entry = { id: 'p', kind: 'plan', t: 0, turn: 1, entries: [{ content: 'a', priority: 'low', status: 'pending' }] };
    const t = applyPatches(withEntries(plan), [
      { op: 'replace-plan', id: 'p', entries: [{ content: 'b', priority: 'high', status: 'completed' }] },
      { op: 'add-flag', id: 'p', flag: 'replayed' },
      { op: 'add-flag', id: 'p', flag: 'replayed' },
      { op: 'set-session', fields: { title: 'T', turn: 1 } },
      { op: 'set-session', fields: { title: null } },
      { op: 'upsert-file-change', change: { id: 'req:n:1', path: '/f', newText: 'new', t: 3, turn: 1 } },
      { op: 'upsert-file-change', change: { id: 'req:n:1', oldText: 'old' } },
      { op: 'upsert-terminal', terminalId: 'term', fields: { command: 'ls', status: 'running' } },
      { op: 'upsert-terminal', terminalId: 'term', fields: { status: 'exited', exitCode: 0 } },
    ]);
    expect(t.entries.p).toMatchObject({ entries: [{ content: 'b' }], flags: ['replayed'] });
    expect(t.session).toMatchObject({ title: null, turn: 1 });
    expect(t.fileChanges).toEqual([{ id: 'req:n:1', path: '/f', newText: 'new', oldText: 'old', t: 3, turn: 1 }]);
    expect(t.terminals.term).toEqual({ terminalId: 'term', command: 'ls', status: 'exited', exitCode: 0 });
  });

  it('skips patches for entries it does not hold (a window may not include them)', () => {
    const t = withEntries(message('e1', 'x'));
    const after = applyPatches(t, [
      { op: 'append-text', id: 'nope', text: 'y' },
      { op: 'patch-tool-call', id: 'e1', fields: { status: 'failed' } },
      { op: 'add-flag', id: 'nope', flag: 'replayed' },
    ]);
    expect(after.entries).toEqual(t.entries);
    expect(after.ids).toEqual(['e1']);
  });
});

describe('TranscriptApplier', () => {
  it('never writes into a snapshot it has handed out', () => {
    const applier = new TranscriptApplier(emptyTranscript());
    applier.apply([
      { op: 'append-entry', entry: message('e1', '') },
      { op: 'append-text', id: 'e1', text: 'a' },
    ]);
    const first = applier.snapshot();
    const firstJson = JSON.stringify(first);
    applier.apply([
      { op: 'append-text', id: 'e1', text: 'b' },
      { op: 'append-text', id: 'e1', text: 'c' },
      { op: 'append-entry', entry: message('e2', 'z') },
      { op: 'set-session', fields: { turn: 3 } },
    ]);
    const second = applier.snapshot();
    expect(JSON.stringify(first)).toBe(firstJson);
    expect((second.entries.e1 as AgentMessageEntry).content).toEqual([{ type: 'text', text: 'abc' }]);
    expect(second.ids).toEqual(['e1', 'e2']);
  });
  it('grows streamed text in place between snapshots without touching the patches, the blocks or the content it was given', () => {
    const image = { type: 'image', data: 'AA==', mimeType: 'image/png' } as const;
    const entry: AgentMessageEntry = { ...message('e1', 'a'), content: [{ type: 'text', text: 'a' }] };
    const given = entry.content;
    const givenJson = JSON.stringify(entry);
    const applier = new TranscriptApplier(emptyTranscript(), { shareContainers: true });
    const patches: Patch[] = [
      { op: 'append-entry', entry },
      { op: 'append-text', id: 'e1', text: 'b' },
      { op: 'append-text', id: 'e1', text: 'c' },
      { op: 'append-block', id: 'e1', block: image },
      { op: 'append-text', id: 'e1', text: 'd' },
      { op: 'append-text', id: 'e1', text: 'e' },
    ];
    applier.apply(patches);
    const first = applier.snapshot();
    const firstContent = (first.entries.e1 as AgentMessageEntry).content;
    const firstJson = JSON.stringify(firstContent);
    const replacement = [{ type: 'text' as const, text: 'replaced' }];
    applier.apply([
      { op: 'append-text', id: 'e1', text: 'f' },
      { op: 'patch-entry', id: 'e1', fields: { content: replacement } },
      { op: 'append-text', id: 'e1', text: '!' },
      { op: 'append-text', id: 'e1', text: '?' },
    ]);
    const second = applier.snapshot();
    expect(firstContent).toEqual([{ type: 'text', text: 'abc' }, image, { type: 'text', text: 'de' }]);
    expect(JSON.stringify(firstContent)).toBe(firstJson);
    expect((second.entries.e1 as AgentMessageEntry).content).toEqual([{ type: 'text', text: 'replaced!?' }]);
    expect(replacement).toEqual([{ type: 'text', text: 'replaced' }]);
    expect(entry.content).toBe(given);
    expect(JSON.stringify(entry)).toBe(givenJson);
  });
});

describe('TranscriptApplier with shareContainers', () => {
  it('keeps the id list and entry map across snapshots, but replaces changed entries', () => {
    const applier = new TranscriptApplier(emptyTranscript(), { shareContainers: true });
    const entry = { id: 'e1', kind: 'agent_message', t: 0, turn: 1, content: [{ type: 'text', text: 'a' }] } as never;
    applier.apply([{ op: 'append-entry', entry }]);
    const first = applier.snapshot();
    const e1 = first.entries.e1;
    applier.apply([{ op: 'append-text', id: 'e1', text: 'b' }, { op: 'append-entry', entry: { ...(entry as object), id: 'e2' } as never }]);
    const second = applier.snapshot();
    expect(second).not.toBe(first);
    expect(second.ids).toBe(first.ids);
    expect(second.entries).toBe(first.entries);
    expect(second.ids).toEqual(['e1', 'e2']);
    expect(second.entries.e1).not.toBe(e1);
    expect((second.entries.e1 as { content: Array<{ text: string }> }).content[0]!.text).toBe('ab');
    expect((e1 as { content: Array<{ text: string }> }).content[0]!.text).toBe('a');
  });

  it('puts appended ids into the sink it was given instead of the id list, once each', () => {
    const sink: string[] = [];
    const applier = new TranscriptApplier(emptyTranscript(), { shareContainers: true, ids: sink });
    applier.apply([
      { op: 'append-entry', entry: message('e1', 'a') },
      { op: 'append-entry', entry: toolCall('e2') },
      { op: 'append-entry', entry: message('e1', 'again') },
      { op: 'append-text', id: 'e1', text: 'b' },
    ]);
    const t = applier.snapshot();
    expect(sink).toEqual(['e1', 'e2']);
    expect(t.ids).toEqual([]);
    expect(Object.keys(t.entries)).toEqual(['e1', 'e2']);
    expect((t.entries.e1 as AgentMessageEntry).content).toEqual([{ type: 'text', text: 'ab' }]);
  });
});
