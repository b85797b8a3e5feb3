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
