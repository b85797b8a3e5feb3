import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../trace/json';
import type { TraceRecord } from '../trace/records';
import { MemoryColdStore } from './cold-store';
import { LiveTranscript } from './live-transcript';
import { rebuildTranscript, TranscriptBuilder } from './rebuild';
import { allFileChanges } from './file-changes';

let t = 0;
const update = (u: JsonObject): TraceRecord =>
  ({ kind: 'wire', dir: 'in', t: ++t, msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: u } } }) as TraceRecord;
const diff = (k: number, chars: number) => [{ type: 'diff', path: `/f${k}.ts`, oldText: 'o'.repeat(chars), newText: 'n'.repeat(chars) }];

/** The flood agent's mix: a few message chunks, then a tool call opened and completed with a diff. */
function flood(toolCalls: number, diffChars: number): TraceRecord[] {
  const out: TraceRecord[] = [];
  for (let k = 0; k < toolCalls; k++) {
    for (let c = 0; c < 3; c++) out.push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${k}.${c} ` } }));
    out.push(update({ sessionUpdate: 'tool_call', toolCallId: `tc-${k}`, title: 'Edit', kind: 'edit', status: 'in_progress', content: diff(k, diffChars) }));
    out.push(update({ sessionUpdate: 'tool_call_update', toolCallId: `tc-${k}`, status: 'completed', content: diff(k, diffChars) }));
  }
  return out;
}

describe('LiveTranscript hot set', () => {
  it('sends heavy entries cold once past the weight limit, keeping the most recent ones, and reads them back unchanged', () => {
    const records = flood(20, 8 * 1024); // 40 entries, tool calls of ~16 KiB
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotWeight: 64 * 1024 });
    for (const r of records) live.push(r);
    // Well under the 64-entry limit, yet most entries went cold: only ~64 KiB of tool calls stay hot.
    expect(live.entryCount).toBe(40);
    expect(live.coldEntries).toBeGreaterThanOrEqual(30);
    expect(live.coldEntries).toBeLessThanOrEqual(36);
    expect(live.transcript).toEqual(rebuildTranscript(records));
    expect(live.window(0, 40)).toEqual(rebuildTranscript(records).ids.map((id) => rebuildTranscript(records).entries[id]));
  });

  it('keeps every entry hot up to the entry limit when the weight allows it', () => {
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotWeight: Infinity });
    for (const r of flood(20, 8 * 1024)) live.push(r);
    expect(live.coldEntries).toBe(0);
  });

  it('keeps the four most recently touched entries whatever they weigh', () => {
    const records = flood(10, 100);
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotWeight: 0 });
    for (const r of records) live.push(r);
    expect(live.coldEntries).toBe(live.entryCount - 4);
    // A late update to a cold tool call reads it back and gives the same transcript as a rebuild.
    const late = update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-0', title: 'Edited' });
    live.push(late);
    expect(live.transcript).toEqual(rebuildTranscript([...records, late]));
    expect(live.coldEntries).toBe(live.entryCount - 4);
  });

  it('weighs streamed text: a message that grows past the limit sends the older entries cold', () => {
    const records = [...flood(3, 10)];
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotWeight: 4096 });
    for (const r of records) live.push(r);
    expect(live.coldEntries).toBe(0);
    const chunk = update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'y'.repeat(1000) } });
    for (let i = 0; i < 5; i++) {
      live.push(chunk);
      records.push(chunk);
    }
    expect(live.coldEntries).toBe(live.entryCount - 4);
    expect(live.transcript).toEqual(rebuildTranscript(records));
  });
});

describe('LiveTranscript sizes', () => {
  it('gives each entry about its JSON length, cold or hot, so that windows can be bounded by bytes', () => {
    const records = flood(10, 8 * 1024);
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotWeight: 64 * 1024 });
    for (const r of records) live.push(r);
    expect(live.coldEntries).toBeGreaterThan(0); // some of each
    expect(live.coldEntries).toBeLessThan(live.entryCount);
    const entries = live.window(0, live.entryCount);
    entries.forEach((entry, i) => {
      const json = JSON.stringify(entry).length;
      expect(live.sizeAt(i)).toBeGreaterThanOrEqual(json * 0.5);
      expect(live.sizeAt(i)).toBeLessThanOrEqual(json * 1.5);
    });
    expect(live.sizeAt(live.entryCount)).toBe(0);
  });

  it('weighs entries of a transcript without a cold store too', () => {
    const live = new LiveTranscript();
    for (const r of flood(2, 4 * 1024)) live.push(r);
    const entries = live.window(0, live.entryCount);
    const tool = entries.findIndex((e) => e.kind === 'tool_call');
    expect(live.sizeAt(tool)).toBeGreaterThan(2 * 4 * 1024); // its diff's old and new text
    expect(live.sizeAt(0)).toBeLessThan(200);
  });
});

describe('LiveTranscript file changes', () => {
  const changed = (records: TraceRecord[]) => [...new Set(allFileChanges(rebuildTranscript(records)).filter((c) => !c.error && c.path).map((c) => c.path))].sort();
  const write = (id: number, path: string): TraceRecord =>
    ({ kind: 'wire', dir: 'in', t: ++t, msg: { jsonrpc: '2.0', id, method: 'fs/write_text_file', params: { sessionId: 's', path, content: 'x' } } }) as TraceRecord;

  it('lists the same changes as a rebuild while tool calls go cold, come back for late updates and go cold again', () => {
    const records = flood(12, 100);
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotWeight: 0 });
    const push = (r: TraceRecord) => {
      records.push(r);
      live.push(r);
    };
    for (const r of records) live.push(r);
    expect(live.coldEntries).toBe(live.entryCount - 4);
    expect(live.changedPaths()).toEqual(changed(records));
    // Late updates to cold tool calls: one fails (its paths leave the list), one completes again
    // with another file, one only changes its title; then enough new entries to send them cold again.
    push(update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-0', status: 'failed' }));
    push(update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-1', status: 'completed', content: [{ type: 'diff', path: '/g1.ts', oldText: 'a', newText: 'b' }] }));
    push(update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-2', title: 'Edited' }));
    expect(live.changedPaths()).toEqual(changed(records));
    expect(live.fileChanges()).toEqual(allFileChanges(rebuildTranscript(records)));
    // A tool call that also wrote its file through the client: listed once, as the write.
    push(update({ sessionUpdate: 'tool_call', toolCallId: 'tc-w', title: 'Write', kind: 'edit', status: 'in_progress' }));
    push(write(900, '/w.ts'));
    push(update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-w', status: 'completed', content: [{ type: 'diff', path: '/w.ts', oldText: 'o', newText: 'x' }] }));
    for (let c = 0; c < 8; c++) push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `after ${c}` } }));
    push(update({ sessionUpdate: 'tool_call', toolCallId: 'tc-x', title: 'Edit', kind: 'edit', status: 'completed', content: diff(99, 10) }));
    for (let c = 0; c < 8; c++) push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `later ${c}` } }));
    expect(live.coldEntries).toBe(live.entryCount - 4);
    expect(live.changedPaths()).toEqual(changed(records));
    expect(live.changedPaths()).toContain('/g1.ts');
    expect(live.changedPaths()).not.toContain('/f0.ts');
    expect(live.fileChanges()).toEqual(allFileChanges(rebuildTranscript(records)));
    expect(live.transcript).toEqual(rebuildTranscript(records));
  });

  it('counts a cold tool call’s diff when another call’s write of its path failed, and not when its own did', () => {
    const records: TraceRecord[] = [];
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotWeight: 0 });
    const push = (...rs: TraceRecord[]) => rs.forEach((r) => (records.push(r), live.push(r)));
    const failedWrite = (id: number, path: string): TraceRecord[] => [
      write(id, path),
      { kind: 'wire', dir: 'out', t: ++t, msg: { jsonrpc: '2.0', id, error: { code: -32000, message: 'disk full' } } } as TraceRecord,
    ];
    const edit = (toolCallId: string, path: string, writes: TraceRecord[] = []) => {
      push(update({ sessionUpdate: 'tool_call', toolCallId, title: 'Edit', kind: 'edit', status: 'in_progress' }));
      push(...writes);
      push(update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'diff', path, oldText: 'o', newText: 'n' }] }));
    };
    const chat = (n: number) => {
      for (let c = 0; c < n; c++) push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `c${c}` } }));
    };
    edit('tc-a', '/p.ts'); // changed /p.ts by its diff alone
    chat(6);
    edit('tc-b', '/p.ts', failedWrite(901, '/p.ts')); // its own write failed: its diff does not count
    edit('tc-c', '/q.ts', failedWrite(902, '/q.ts'));
    chat(12); // everything above goes cold
    expect(live.coldEntries).toBe(live.entryCount - 4);
    expect(live.changedPaths()).toEqual(changed(records));
    expect(live.changedPaths()).toContain('/p.ts');
    expect(live.changedPaths()).not.toContain('/q.ts');
    expect(live.fileChanges()).toEqual(allFileChanges(rebuildTranscript(records)));
  });
});

describe('LiveTranscript ids', () => {
  it('gives the same ids, order, patches, windows and entries as the builder, with most entries cold', () => {
    const records = flood(150, 50); // 300 entries: e1 … e300
    const live = new LiveTranscript({ cold: new MemoryColdStore(), hotEntries: 8, hotWeight: 0 });
    const builder = new TranscriptBuilder();
    for (const r of records) expect(live.push(r)).toEqual(builder.push(r));
    const rebuilt = builder.transcript;
    expect(rebuilt.ids).toHaveLength(300);
    expect(live.entryCount).toBe(300);
    expect(live.transcript.ids).toEqual(rebuilt.ids);
    expect(live.window(0, 300).map((e) => e.id)).toEqual(rebuilt.ids);
    expect(live.window(290, 50).map((e) => e.id)).toEqual(rebuilt.ids.slice(290));
    for (const id of ['e1', 'e2', 'e150', 'e299', 'e300']) expect(live.entry(id)).toEqual(rebuilt.entries[id]);
    for (const id of ['e0', 'e01', 'e301', 'e1.0', 'x']) expect(live.entry(id)).toBeUndefined();
    expect(live.toolCallEntry('tc-0')?.id).toBe(rebuilt.ids[1]);
    expect([-1, 300, 1.5].map((i) => live.sizeAt(i))).toEqual([0, 0, 0]);
    // A late update to a cold entry, found by its id: the same patch as the builder's.
    const late = update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-3', title: 'Edited' });
    const patches = live.push(late);
    expect(patches).toEqual(builder.push(late));
    expect(patches).toEqual([expect.objectContaining({ id: 'e8' })]);
    expect(live.entry('e8')).toEqual(builder.transcript.entries.e8);
    expect(live.transcript).toEqual(builder.transcript);
  });
});
