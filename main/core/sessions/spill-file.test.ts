/**
 * The spill file: entries come back as they went in (from the write block or the file, alone or
 * in consecutive runs, small or bigger than the block), and the file never outlives its session.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../../../common/transcript/model';
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

/** The record's length as the spill file has always measured it (session/entries cuts windows by it): 4 + the JSON with its long texts empty + the texts. */
function referenceLength(entry: Entry): number {
  const content = (entry as { content?: unknown }).content;
  let textBytes = 0;
  const places: Array<[number, string, number]> = [];
  const copy = Array.isArray(content)
    ? content.map((block: unknown, i) => {
        if (typeof block !== 'object' || block === null) return block;
        const b = { ...(block as Record<string, unknown>) };
        const fields = b.type === 'diff' ? ['oldText', 'newText'] : b.type === 'text' ? ['text'] : [];
        for (const f of fields) {
          const v = b[f];
          if (typeof v !== 'string' || v.length < 1024 || !(v as unknown as { isWellFormed(): boolean }).isWellFormed()) continue;
          b[f] = '';
          places.push([i, f, Buffer.byteLength(v)]);
          textBytes += Buffer.byteLength(v);
        }
        return b;
      })
    : undefined;
  const e = copy ? { ...entry, content: copy } : entry;
  return 4 + Buffer.byteLength(JSON.stringify(places.length ? { e, raw: places } : { e })) + textBytes;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('SpillFile records: the entry is written as it is, not copied', () => {
  const mixed = (n: number): Entry[] => [
    message(n, `short ${n}`),
    message(n + 1, `long ${'ü'.repeat(1500 + n)}`),
    diff(n + 2, 16_384),
    { ...(diff(n + 3, 4096) as Extract<Entry, { kind: 'tool_call' }>), content: [{ type: 'diff', path: '/a', oldText: null, newText: 'n'.repeat(3000) }, { type: 'diff', path: '/b', oldText: 'short', newText: `${'€'.repeat(1200)}\udc00` }, { type: 'diff', path: '/c', oldText: 'o'.repeat(1024), newText: 'p'.repeat(1023) }] },
    { id: `e${n + 4}`, t: n, turn: 1, kind: 'thought', content: [{ type: 'text', text: 't'.repeat(2000) }, { type: 'image', data: 'AA==', mimeType: 'image/png' }, { type: 'text', text: `${'ß'.repeat(1100)}` }] },
  ];

  it('keeps every record the length it had (windows are cut by it), for plain and frozen entries, in the block and alone', () => {
    const file = new SpillFile(join(tmp(), 'tmp'), 'transcript-lengths.jsonl');
    const entries: Entry[] = [];
    for (let n = 1; n <= 200; n += 4) entries.push(...mixed(n));
    entries.push(diff(900, 1_200_000), deepFreeze(diff(901, 1_200_000)));
    entries.push(...mixed(1000).map(deepFreeze));
    // Only the second block frozen: the first is blanked before the second refuses.
    const partly = diff(2000, 4096) as Extract<Entry, { kind: 'tool_call' }>;
    partly.content.push(deepFreeze({ type: 'diff', path: '/frozen', oldText: 'f'.repeat(1500), newText: 'g'.repeat(1500) }));
    entries.push(partly);
    const before = JSON.stringify(entries);
    const refs = entries.map((e) => file.put(e));
    expect(JSON.stringify(entries)).toBe(before);
    expect(refs.map((r) => r.length)).toEqual(entries.map(referenceLength));
    expect(file.getMany(refs)).toEqual(entries);
    for (let i = 0; i < entries.length; i += 13) expect(file.get(refs[i]!)).toEqual(entries[i]);
    file.close();
  });

  it('puts the texts back when the JSON cannot be written (the entry is never left blanked)', () => {
    const file = new SpillFile(join(tmp(), 'tmp'), 'transcript-throw.jsonl');
    const entry = { ...(diff(1, 8192) as Extract<Entry, { kind: 'tool_call' }>), rawInput: { n: 1n } } as unknown as Entry;
    const texts = (entry as Extract<Entry, { kind: 'tool_call' }>).content.map((c) => ({ ...c }));
    expect(() => file.put(entry)).toThrow(/BigInt/);
    expect((entry as Extract<Entry, { kind: 'tool_call' }>).content).toEqual(texts);
    // The failed record left nothing behind: the next one reads back.
    const next = diff(2, 8192);
    expect(file.get(file.put(next))).toEqual(next);
    file.close();
  });
});
