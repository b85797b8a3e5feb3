/**
 * The inspector's memory is O(rows × a few dozen bytes), not O(message text): nothing it retains
 * holds a message's text, and the live heap does not grow with the text of the messages it lists.
 * No timing here: sizes and reachability only.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../../common/trace/records';
import { PAGE_ROWS } from './columns';
import { InspectorStore } from './inspector-store';
import type { TraceWriter } from '../../history/trace-writer';
import { cleanUpTestTraces, openTestTrace } from './test-trace';
import { TraceLines } from './trace-lines';

cleanUpTestTraces();

async function open(): Promise<{ store: InspectorStore; writer: TraceWriter }> {
  const writer = await openTestTrace('acpwb-inspector-mem-');
  return { store: new InspectorStore(new TraceLines(writer)), writer };
}

/** Every 10th a tool call with a ~8 KiB diff, the rest ~200-byte chunks, each text unique and marked. */
function record(i: number): TraceRecord {
  const text = `MARKER-${i} ${'lorem ipsum '.repeat(16)}`;
  const update =
    i % 10 === 0
      ? { sessionUpdate: 'tool_call', toolCallId: `tc-${i}`, title: `Edit ${i}`, kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: `/w/f${i}.ts`, oldText: `MARKER-${i} ${'a'.repeat(4096)}`, newText: `MARKER-${i} ${'b'.repeat(4096)}` }] }
      : { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
  return { kind: 'wire', t: i, dir: 'in', sessionId: 'S1', agentSessionId: 'a1', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'a1', update } } } as TraceRecord;
}

async function fill(store: InspectorStore, writer: TraceWriter, rows: number): Promise<void> {
  for (let i = 0; i < rows; i++) {
    const r = record(i);
    const text = JSON.stringify(r.kind === 'wire' ? r.msg : null);
    const offset = writer.bytesAppended;
    writer.append(r, Buffer.from(text));
    store.add(r, i + 2, Buffer.byteLength(text), { offset, length: writer.bytesAppended - offset });
    if (i % 2000 === 1999) await writer.flush();
  }
  await writer.flush();
}

/** Every string reachable from `root` (objects, arrays, maps, sets; not typed arrays), without entering `skip`. */
function reachableStrings(root: unknown, skip: Set<unknown>): string[] {
  const seen = new Set<unknown>();
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      out.push(v);
      continue;
    }
    if (typeof v !== 'object' || v === null || seen.has(v) || skip.has(v) || ArrayBuffer.isView(v)) continue;
    seen.add(v);
    if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else if (v instanceof Set) for (const x of v) stack.push(x);
    for (const key of Reflect.ownKeys(v)) {
      if (typeof key === 'string') out.push(key);
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (d && 'value' in d) stack.push(d.value);
    }
  }
  return out;
}

function exposedGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

describe('InspectorStore memory', () => {
  it('retains no message text: only metadata columns, names and ids; the text is read back from the trace', async () => {
    const { store, writer } = await open();
    await fill(store, writer, 5000);
    // Searches and windows build their lists; still no text is kept.
    expect((await store.window('S1', { search: 'marker-4321 ' }, { limit: 10 })).items.map((r) => r.index)).toEqual([4321]);
    expect((await store.window('S1', {}, { offset: 4990, limit: 10 })).items).toHaveLength(10);
    const strings = reachableStrings(store, new Set([(store as unknown as { lines: unknown }).lines]));
    expect(strings.filter((s) => s.includes('MARKER') || s.includes('lorem') || s.includes('aaaa'))).toEqual([]);
    expect(Math.max(...strings.map((s) => s.length))).toBeLessThan(200);
    // A few dozen bytes a row in the columns (capacity doubles: at most 2×).
    expect(store.columnBytes() / store.size).toBeLessThan(2 * 64);
    // And the text is all there, from disk.
    const message = await store.message(1230);
    expect(message?.record).toEqual(record(1230));
  });

  it('a flood row costs 16 bytes of columns (line, offset and time relative to their page, lengths as the head around the message)', async () => {
    const { store, writer } = await open();
    const rows = 4 * PAGE_ROWS;
    await fill(store, writer, rows);
    // line 1 + time 4 + offset 4 + trace length less size 1 + size 2 + flags, method, update kind, session 1 each
    expect(store.columnBytes()).toBe(rows * 16);
    const message = await store.message(rows - 1);
    expect(message?.record).toEqual(record(rows - 1));
    expect(message?.row.line).toBe(rows + 1);
  });

  it('the live heap does not grow with the text of the rows (50,000 rows, ~90 MB of text)', async () => {
    const gc = exposedGc();
    if (!gc) return; // no way to force a collection here: the reachability test above stands alone
    const { store, writer } = await open();
    gc();
    const before = process.memoryUsage().heapUsed;
    await fill(store, writer, 50_000);
    expect((await store.window('S1', { search: 'marker-49999 ' }, { limit: 10 })).total).toBe(1);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // Keeping the text would be ≥ 90 MB; the columns are ~3 MB, the lists a few hundred KB.
    expect(grown).toBeLessThan(16 * 2 ** 20);
    expect(store.size).toBe(50_000);
  });
});
