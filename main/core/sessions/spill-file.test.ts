/**
 * The spill file: entries come back as they went in (from the write block or the file, alone or
 * in consecutive runs, small or bigger than the block), and the file never outlives its session.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../../../common/transcript/model';
import type { TextPlace } from '../../../common/transcript/cold-store';
import { SpillFile } from './spill-file';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'acpwb-spill-'));
  dirs.push(d);
  return d;
}

const message = (n: number, text: string): Entry => ({ id: `e${n}`, t: n, turn: 1, kind: 'agent_message', content: [{ type: 'text', text }] });
const diff = (n: number, bytes: number): Entry => ({
  id: `e${n}`,
  t: n,
  turn: 1,
  kind: 'tool_call',
  toolCallId: `tc${n}`,
  title: 'Edit',
  toolKind: 'edit',
  status: 'completed',
  content: [{ type: 'diff', path: `/w/f${n}.ts`, oldText: 'ä'.repeat(bytes / 4), newText: `x\n${'€'.repeat(bytes / 6)}` }],
  locations: [],
  permissions: [],
});

describe('SpillFile', () => {
  it('reads back every entry as it was put, from the block and from the file, one by one and in runs', () => {
    const file = new SpillFile(join(tmp(), 'tmp'), 'transcript-test.jsonl');
    const entries: Entry[] = [];
    for (let n = 1; n <= 400; n++) entries.push(n % 10 === 0 ? diff(n, 16_384) : message(n, `chunk ${n} ${'é'.repeat(n)}`));
    const refs = entries.map((e) => file.put(e));
    // 400 entries of ~0.8 MiB in all: most were written out in 256 KiB blocks, the last still in the block.
    expect(file.size).toBeGreaterThan(3 * 256 * 1024);
    for (let i = 0; i < entries.length; i += 37) expect(file.get(refs[i]!)).toEqual(entries[i]);
    expect(file.getMany(refs)).toEqual(entries);
    expect(file.getMany([refs[399]!, refs[3]!, refs[4]!, refs[200]!])).toEqual([entries[399], entries[3], entries[4], entries[200]]);
    // Bigger than the block: written on its own, read back whole.
    const big = diff(401, 1_200_000);
    expect(file.get(file.put(big))).toEqual(big);
    expect(file.get(refs[0]!)).toEqual(entries[0]);
    file.close();
  });

  it('leaves no file behind: unlinked at once on POSIX, removed by close elsewhere; reading after close says why', () => {
    const dir = join(tmp(), 'tmp');
    const file = new SpillFile(dir, 'transcript-gone.jsonl');
    const ref = file.put(message(1, 'hello'));
    if (process.platform !== 'win32') expect(existsSync(file.path)).toBe(false);
    expect(file.get(ref)).toEqual(message(1, 'hello'));
    file.close();
    file.close(); // twice is fine
    expect(readdirSync(dir)).toEqual([]);
    expect(() => file.get(ref)).toThrow(/session was closed.*trace/);
  });

  it('says where and what to check when the folder cannot be written', () => {
    const blocker = join(tmp(), 'not-a-folder');
    writeFileSync(blocker, 'x');
    expect(() => new SpillFile(join(blocker, 'tmp'), 'x.jsonl')).toThrow(/Could not create the transcript spill file .*not-a-folder.*Check that the data folder is writable/);
  });
});

describe('SpillFile records', () => {
  it('keeps long texts exactly, a lone surrogate included, and never changes the entry it was given', () => {
    const file = new SpillFile(join(tmp(), 'tmp'), 'transcript-texts.jsonl');
    const lone = `${'a'.repeat(2000)}\ud800${'b'.repeat(10)}`;
    const entries: Entry[] = [
      { id: 'e1', t: 1, turn: 1, kind: 'agent_message', content: [{ type: 'text', text: 'x'.repeat(5000) }, { type: 'image', data: 'AA==', mimeType: 'image/png' }, { type: 'text', text: `ü${'€'.repeat(3000)}\n` }] },
      { id: 'e2', t: 2, turn: 1, kind: 'agent_message', content: [{ type: 'text', text: lone }] },
      { ...(diff(3, 8192) as Extract<Entry, { kind: 'tool_call' }>), rawInput: { text: 'y'.repeat(3000), content: [{ type: 'text', text: 'z'.repeat(4000) }] } },
      { id: 'e4', t: 4, turn: 1, kind: 'unknown_update', sessionUpdate: 'x', raw: { content: [{ type: 'text', text: 'q'.repeat(2000) }] } },
    ];
    const copies = JSON.stringify(entries);
    const refs = entries.map((e) => file.put(e));
    expect(JSON.stringify(entries)).toBe(copies);
    for (let i = 0; i < entries.length; i++) expect(file.get(refs[i]!)).toEqual(entries[i]);
    expect((file.get(refs[1]!) as Extract<Entry, { kind: 'agent_message' }>).content[0]).toEqual({ type: 'text', text: lone });
    file.close();
  });
});

describe('SpillFile: diff texts left in the trace', () => {
  /** A trace in memory: wire lines as the trace writer writes them, each with its span. */
  function fakeTrace() {
    let bytes = Buffer.alloc(0);
    let closed = false;
    const reads: Array<[number, number]> = [];
    return {
      reads,
      get closed() {
        return closed;
      },
      /** Appends a `session/update` line carrying `update`; returns its span and the update's content as parsed. */
      line(update: Record<string, unknown>, shift = 0) {
        const msg = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } };
        const line = Buffer.from(`{"kind":"wire","t":1,"dir":"in","msg":${JSON.stringify(msg)}}\n`);
        const at = bytes.length;
        bytes = Buffer.concat([bytes, line]);
        const parsed = JSON.parse(line.toString('utf8')) as { msg: typeof msg };
        const content = (parsed.msg.params.update as { content: Array<Record<string, unknown>> }).content;
        // What the live transcript hands over: every diff text of the update, where it is.
        const places: TextPlace[] = [];
        content.forEach((b, j) => {
          if (b.type === 'diff') for (const f of ['oldText', 'newText'] as const) if (typeof b[f] === 'string') places.push([j - shift, f, j, (b[f] as string).length]);
        });
        return { at, length: line.length, places };
      },
      overwrite(at: number, text: string) {
        bytes.write(text, at);
      },
      read(at: number, length: number) {
        reads.push([at, length]);
        return Buffer.from(bytes.subarray(at, at + length));
      },
      close() {
        closed = true;
      },
    };
  }
  const toolCall = (n: number, content: unknown[]): Entry =>
    ({ id: `e${n}`, t: n, turn: 1, kind: 'tool_call', toolCallId: `tc${n}`, title: 'Edit', toolKind: 'edit', status: 'completed', content, locations: [], permissions: [] }) as Entry;
  const diffBlock = (path: string, oldText: string, newText: string) => ({ type: 'diff', path, oldText, newText });

  it('writes only where the texts are; reads them back from the line, also in runs; the size is the record it replaced', () => {
    const trace = fakeTrace();
    const file = new SpillFile(join(tmp(), 'tmp'), 'transcript-traced.jsonl', trace);
    const plain = new SpillFile(join(tmp(), 'tmp'), 'transcript-plain.jsonl');
    const entries: Entry[] = [];
    const refs = [];
    let textBytes = 0;
    for (let n = 1; n <= 60; n++) {
      // Old and new text of the same length and different bytes (a swap of fields would go unnoticed by a length check).
      const blocks = [diffBlock(`/w/a${n}.ts`, `${n} ${'ä'.repeat(3000)}`, `${n} ${'ö'.repeat(3000)}`), diffBlock(`/w/b${n}.ts`, `old ${n}`.repeat(400), `new ${n}`.repeat(400))];
      // The update lists another block first: the texts are found by value, not by position.
      const source = trace.line({ sessionUpdate: 'tool_call_update', toolCallId: `tc${n}`, content: [{ type: 'content', content: { type: 'text', text: 'hi' } }, ...blocks] }, 1);
      const entry = toolCall(n, blocks.map((b) => ({ ...b })));
      for (const b of blocks) textBytes += Buffer.byteLength(b.oldText) + Buffer.byteLength(b.newText);
      entries.push(entry);
      const ref = file.put(entry, source);
      expect(ref.size).toBe(plain.put(entry).length);
      expect(ref.length).toBeLessThan(600);
      refs.push(ref);
      if (n % 7 === 0) entries.push(message(100 + n, `between ${n}`)), refs.push(file.put(entries.at(-1)!));
    }
    expect(file.size).toBeLessThan(textBytes / 20);
    expect(plain.size).toBeGreaterThan(textBytes);
    for (let i = 0; i < entries.length; i += 5) expect(file.get(refs[i]!)).toEqual(entries[i]);
    expect(file.getMany(refs)).toEqual(entries);
    expect(trace.reads.length).toBeGreaterThan(60);
    file.close();
    plain.close();
    expect(trace.closed).toBe(true);
  });

  it('writes a text the traced update does not hold (changed since, another field, not a diff, short), and ignores a source without a trace', () => {
    const trace = fakeTrace();
    const file = new SpillFile(join(tmp(), 'tmp'), 'transcript-mixed.jsonl', trace);
    const long = (c: string) => c.repeat(5000);
    const source = trace.line({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc1',
      content: [diffBlock('/w/x.ts', long('a'), long('b')), { type: 'content', content: { type: 'text', text: long('c') } }],
    });
    // What the live transcript found in the update: block 0's oldText; a place whose length no longer matches is not taken.
    const entry = toolCall(1, [diffBlock('/w/x.ts', long('a'), long('B').slice(1)), diffBlock('/w/y.ts', long('b'), long('a')), { type: 'content', content: { type: 'text', text: long('c') } }]);
    const ref = file.put(entry, { ...source, places: [[0, 'oldText', 0, 5000], [0, 'newText', 0, 5000]] });
    expect(file.get(ref)).toEqual(entry);
    // Only the first block's oldText is in the update (same field, a diff): the other texts are written.
    expect(ref.size! - ref.length).toBeGreaterThan(4900);
    expect(ref.size! - ref.length).toBeLessThan(5000);
    const untraced = new SpillFile(join(tmp(), 'tmp'), 'transcript-untraced.jsonl');
    const ref2 = untraced.put(entry, source);
    expect(ref2.size).toBeUndefined();
    expect(ref2.length).toBeGreaterThan(4 * 5000);
    expect(untraced.get(ref2)).toEqual(entry);
    file.close();
    untraced.close();
  });

  it('refuses to read back a text the trace line no longer holds, rather than giving another', () => {
    const trace = fakeTrace();
    const file = new SpillFile(join(tmp(), 'tmp'), 'transcript-damaged.jsonl', trace);
    const blocks = [diffBlock('/w/x.ts', 'o'.repeat(4000), 'n'.repeat(4000))];
    const source = trace.line({ sessionUpdate: 'tool_call_update', toolCallId: 'tc1', content: blocks });
    const ref = file.put(toolCall(1, blocks), source);
    // The line's newText is one character shorter now (its last character became the closing quote, then a space).
    const line = trace.read(source.at, source.length).toString('utf8');
    trace.overwrite(source.at + line.indexOf('"newText":"') + 11 + 3999, '" ');
    expect(() => JSON.parse(trace.read(source.at, source.length).toString('utf8'))).not.toThrow();
    expect(() => file.get(ref)).toThrow(/does not hold the (newText|oldText) of a spilled tool call/);
    file.close();
  });
});
