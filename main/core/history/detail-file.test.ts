import { mkdtempSync, readFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DETAIL_FILE, DetailFile, DetailFileCorrupt, detailFileName, extendDetailFile, writeDetailFile } from './detail-file';

const dir = () => mkdtempSync(join(tmpdir(), 'acpwb-details-'));

describe('the side file of details', () => {
  it('gives back each detail by its offset and length, texts and copied bytes alike, one per line', async () => {
    const path = join(dir(), detailFileName(7, 123));
    const details = ['{"a":1}', Buffer.from('{"b":"café ☕"}'), '', '{"c":[1,2,3]}'];
    const written = await writeDetailFile(path, details);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":"café ☕"}\n\n{"c":[1,2,3]}\n');
    expect(written.bytes).toBe(readFileSync(path).length);
    const file = await DetailFile.open(path, written.bytes);
    expect(written.at.map((at) => file.read(at))).toEqual(['{"a":1}', '{"b":"café ☕"}', '', '{"c":[1,2,3]}']);
    // Copying from one side file into the next keeps the bytes as they were.
    const all = await file.readAll();
    const next = join(dir(), detailFileName(8, 123));
    const copied = await writeDetailFile(next, [all.subarray(written.at[1]![0], written.at[1]![0] + written.at[1]![1]), '{"d":true}']);
    const second = await DetailFile.open(next, copied.bytes);
    expect(second.read(copied.at[0]!)).toBe('{"b":"café ☕"}');
    expect(second.read(copied.at[1]!)).toBe('{"d":true}');
    file.close();
    second.close();
    expect(() => file.read(written.at[0]!)).toThrow(/closed/);
  });

  it('refuses a file of another size than the index recorded, and a place outside it', async () => {
    const path = join(dir(), detailFileName(1));
    const written = await writeDetailFile(path, ['{"x":"y"}', '{"z":0}']);
    const file = await DetailFile.open(path, written.bytes);
    expect(() => file.read([written.bytes - 2, 5])).toThrow(DetailFileCorrupt);
    file.close();
    truncateSync(path, 4);
    await expect(DetailFile.open(path, written.bytes)).rejects.toThrow(/4 bytes, the index expects 18/);
  });

  it('extends a copy of the previous side file: its bytes unchanged, the new details after them', async () => {
    const d = dir();
    const first = join(d, detailFileName(1, 9));
    const written = await writeDetailFile(first, ['{"a":1}', '{"b":2}']);
    const next = join(d, detailFileName(2, 9));
    const extended = await extendDetailFile(first, written.bytes, next, ['{"c":"ünï"}', '{"d":4}']);
    expect(readFileSync(next, 'utf8')).toBe('{"a":1}\n{"b":2}\n{"c":"ünï"}\n{"d":4}\n');
    expect(extended.bytes).toBe(readFileSync(next).length);
    const file = await DetailFile.open(next, extended.bytes);
    expect([...written.at, ...extended.at].map((at) => file.read(at))).toEqual(['{"a":1}', '{"b":2}', '{"c":"ünï"}', '{"d":4}']);
    file.close();
    expect(readFileSync(first, 'utf8')).toBe('{"a":1}\n{"b":2}\n'); // the previous file untouched
    // A previous file of another size than the index recorded is refused.
    await expect(extendDetailFile(first, written.bytes + 1, join(d, detailFileName(3, 9)), [])).rejects.toThrow(DetailFileCorrupt);
  });

  it('is named by generation and process, and only such names are taken for side files', () => {
    expect(detailFileName(12, 345)).toBe('details-12-345.jsonl');
    expect(DETAIL_FILE.test(detailFileName(3))).toBe(true);
    expect(DETAIL_FILE.test('details-3-1.jsonl.tmp')).toBe(false);
    expect(DETAIL_FILE.test('index.json')).toBe(false);
  });
});
