import { describe, expect, it } from 'vitest';
import type { StoredToolCallInfo, ToolCallInfo } from './tool-call-index';
import { hashOf, ToolCallTable } from './tool-call-table';

const odd: ToolCallInfo = { entryId: 'mine-1', status: 'thinking hard', hasContent: false, hasDiff: false, hasRawInput: false };

describe('ToolCallTable', () => {
  it('reads back what was set, as a Map would, through growth of its ids, records and hash table', () => {
    const table = new ToolCallTable();
    const model = new Map<string, StoredToolCallInfo>();
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const ids = Array.from({ length: 3000 }, (_, k) => (k % 7 === 0 ? `call_ü日本_${k}` : k % 5 === 0 ? `toolu_${'x'.repeat(k % 90)}${k}` : `tc-${k}`));
    for (let step = 0; step < 12000; step++) {
      const id = ids[Math.floor(random() * ids.length)]!;
      const value: StoredToolCallInfo = random() < 0.05 ? { ...odd, entryId: `mine-${step}` } : Math.floor(random() * 2 ** 30);
      table.set(id, value);
      model.set(id, value);
    }
    expect(table.size).toBe(model.size);
    expect([...table]).toEqual([...model]);
    expect([...table.keys()]).toEqual([...model.keys()]);
    expect([...table.values()]).toEqual([...model.values()]);
    for (const id of ids) {
      expect(table.get(id)).toEqual(model.get(id));
      expect(table.has(id)).toBe(model.has(id));
    }
    expect(table.get('tc-never')).toBeUndefined();
    expect(table.has('')).toBe(false);
    const seen: Array<[string, StoredToolCallInfo]> = [];
    table.forEach((v, k, map) => {
      expect(map).toBe(table);
      seen.push([k, v]);
    });
    expect(seen).toEqual([...model]);
  });

  it('tells apart ids of the same hash', () => {
    expect(hashOf('toolu_5pwu')).toBe(hashOf('toolu_g5fa'));
    const table = new ToolCallTable([
      ['toolu_5pwu', 64],
      ['toolu_g5fa', 128],
    ]);
    expect(table.get('toolu_5pwu')).toBe(64);
    expect(table.get('toolu_g5fa')).toBe(128);
    table.set('toolu_g5fa', 192);
    expect([...table]).toEqual([
      ['toolu_5pwu', 64],
      ['toolu_g5fa', 192],
    ]);
  });

  it('keeps a value that does not pack as the object, and a packed one after it as a number', () => {
    const table = new ToolCallTable();
    table.set('a', odd);
    expect(table.get('a')).toBe(odd);
    table.set('a', 5);
    expect(table.get('a')).toBe(5);
    table.set('b', -3 as unknown as StoredToolCallInfo);
    expect(table.get('b')).toBe(-3);
  });

  it('clones: later writes to either leave the other as it was', () => {
    const table = new ToolCallTable([['a', 1]]);
    for (let k = 0; k < 200; k++) table.set(`id-${k}`, k);
    const copy = table.clone();
    copy.set('a', 2);
    copy.set('new', 3);
    table.set('other', 4);
    expect(table.get('a')).toBe(1);
    expect(table.has('new')).toBe(false);
    expect(copy.has('other')).toBe(false);
    expect(copy.get('a')).toBe(2);
    expect(copy.size).toBe(202);
    expect(table.size).toBe(202);
  });

  it('is made from a Map’s entries', () => {
    const fromMap = new ToolCallTable(new Map<string, StoredToolCallInfo>([['x', 9], ['y', odd]]));
    expect([...fromMap]).toEqual([['x', 9], ['y', odd]]);
    const copy = fromMap.clone();
    expect(copy).not.toBe(fromMap);
    expect([...copy]).toEqual([...fromMap]);
  });

  it('takes a huge id (a hostile agent’s) like any other', () => {
    const table = new ToolCallTable();
    const huge = `tc-${'é'.repeat(300_000)}`;
    table.set(huge, 1);
    table.set(`${huge}x`, 2);
    expect(table.get(huge)).toBe(1);
    expect(table.get(`${huge}x`)).toBe(2);
    expect(table.get(huge.slice(0, -1))).toBeUndefined();
    expect([...table.keys()].map((k) => k.length)).toEqual([huge.length, huge.length + 1]);
  });

  it('reads out only the ids of the entries asked for', () => {
    const table = new ToolCallTable();
    for (let k = 0; k < 100; k++) table.set(`tc-${k}`, k);
    expect([...table.entriesWhere((v) => typeof v === 'number' && v % 40 === 0)]).toEqual([
      ['tc-0', 0],
      ['tc-40', 40],
      ['tc-80', 80],
    ]);
  });
});
