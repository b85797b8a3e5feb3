import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../trace/json';
import type { TraceRecord } from '../trace/records';
import { MemoryColdStore, type ColdRef, type TextSource } from './cold-store';
import type { Entry } from './model';
import { LiveTranscript } from './live-transcript';
import { rebuildTranscript } from './rebuild';

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

describe('LiveTranscript: where a spilled tool call’s texts already are', () => {
  /** A memory store that records the source given with each entry, and reports a size beyond its length. */
  class SourceRecordingStore extends MemoryColdStore {
    readonly sources = new Map<string, TextSource | undefined>();
    override put(entry: Entry, source?: TextSource): ColdRef {
      this.sources.set(entry.id, source);
      const ref = super.put(entry);
      return source ? { ...ref, size: ref.length + 1000 } : ref;
    }
  }

  it('hands the store the trace line of the last update that carried the content, and where in it each diff text is', () => {
    const store = new SourceRecordingStore();
    const live = new LiveTranscript({ cold: store, hotWeight: 0 });
    const opened = update({ sessionUpdate: 'tool_call', toolCallId: 'tc-1', title: 'Edit', kind: 'edit', status: 'in_progress', content: diff(1, 2000) });
    const completed = update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-1', status: 'completed', content: diff(1, 3000) });
    const titled = update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-1', title: 'Edited' });
    live.push(opened, { offset: 100, length: 50 });
    live.push(completed, { offset: 150, length: 60 });
    live.push(titled, { offset: 210, length: 40 }); // no content: the content is still the completed update's
    // A tool call without a traced line, and one whose line is known: then enough messages to send both cold.
    live.push(update({ sessionUpdate: 'tool_call', toolCallId: 'tc-2', status: 'completed', content: diff(2, 2000) }));
    live.push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }), { offset: 300, length: 10 });
    for (let k = 0; k < 6; k++) live.push(update({ sessionUpdate: 'plan', entries: [] }), { offset: 400 + k, length: 1 });
    for (let k = 0; k < 6; k++) live.push(update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `t${k}` } }));
    for (let k = 0; k < 6; k++) live.push(update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: `u${k}` } }));
    expect(store.sources.get('e1')).toEqual({ at: 150, length: 60, places: [[0, 'oldText', 0, 3000], [0, 'newText', 0, 3000]] });
    expect(store.sources.get('e2')).toBeUndefined();
    expect(store.sources.get('e3')).toBeUndefined(); // a message: no source
    // The size the store reports counts for windows, and goes when the entry is read back.
    expect(live.coldEntries).toBe(live.entryCount - 4);
    expect(live.sizeAt(0)).toBe(JSON.stringify(live.window(0, 1)[0]).length + 1000);
    live.push(update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-1', title: 'Again' }));
    expect(live.sizeAt(0)).toBeLessThan(20_000);
    expect(live.entry('e1')).toMatchObject({ title: 'Again', content: diff(1, 3000) });
  });

  it('forgets the line once the content changes without one (or with texts it does not hold), and finds texts in any block', () => {
    const store = new SourceRecordingStore();
    const live = new LiveTranscript({ cold: store, hotWeight: 0, hotEntries: 1 });
    live.push(update({ sessionUpdate: 'tool_call', toolCallId: 'tc-1', status: 'in_progress', content: diff(1, 2000) }), { offset: 0, length: 10 });
    live.push(update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-1', status: 'completed', content: diff(1, 2500) })); // not traced
    live.push(update({ sessionUpdate: 'tool_call', toolCallId: 'tc-2', status: 'completed', content: diff(2, 2000) }), { offset: 10, length: 10 });
    live.push(update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc-2', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] }), { offset: 20, length: 10 });
    const both: JsonObject[] = [{ type: 'content', content: { type: 'text', text: 'see' } }, ...diff(3, 100), { type: 'diff', path: '/g.ts', oldText: null, newText: 'g'.repeat(50) }];
    live.push(update({ sessionUpdate: 'tool_call', toolCallId: 'tc-3', status: 'completed', content: both }), { offset: 30, length: 10 });
    for (let k = 0; k < 3; k++) live.push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${k}` } }));
    expect(live.coldEntries).toBe(3);
    expect(store.sources.get('e1')).toBeUndefined();
    expect(store.sources.get('e2')).toBeUndefined();
    expect(store.sources.get('e3')).toEqual({ at: 30, length: 10, places: [[1, 'oldText', 1, 100], [1, 'newText', 1, 100], [2, 'newText', 2, 50]] });
  });

  it('gives no source without the record’s line', () => {
    const store = new SourceRecordingStore();
    const live = new LiveTranscript({ cold: store, hotWeight: 0, hotEntries: 1 });
    live.push(update({ sessionUpdate: 'tool_call', toolCallId: 'tc-1', status: 'completed', content: diff(1, 2000) }));
    live.push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }));
    live.push(update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'y' } }));
    expect(store.sources.has('e1')).toBe(true);
    expect(store.sources.get('e1')).toBeUndefined();
  });
});
