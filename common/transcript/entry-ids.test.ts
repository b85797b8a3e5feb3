import { describe, expect, it } from 'vitest';
import { EntryIdList, entryNumber, positionalEntryId } from './entry-ids';

const listOf = (ids: string[]): EntryIdList => {
  const list = new EntryIdList();
  for (const id of ids) list.push(id);
  return list;
};

/** What a plain array of the same pushes reads back: the list must read back the same. */
function expectLikeArray(list: EntryIdList, ids: string[]): void {
  expect(list.length).toBe(ids.length);
  expect(list.toArray()).toEqual(ids);
  for (let i = -1; i <= ids.length; i++) expect(list.at(i)).toBe(ids[i]);
  for (const id of [...ids, 'e0', 'e01', `e${ids.length + 1}`, 'x', '']) expect(list.indexOf(id)).toBe(ids.indexOf(id));
}

describe('entryNumber', () => {
  it("reads the reducer's form e<n> and nothing else", () => {
    expect(entryNumber('e1')).toBe(1);
    expect(entryNumber('e42')).toBe(42);
    expect(entryNumber('e2147483647')).toBe(2 ** 31 - 1);
    for (const id of ['e0', 'e01', 'e-1', 'e+1', 'e1.0', 'e1.5', 'e1e3', 'e 1', 'e1 ', 'E1', 'e', '', 'x1', 'e0x1', 'e2147483648', 'e99999999999'])
      expect(entryNumber(id), id).toBe(-1);
  });

  it('is the inverse of positionalEntryId', () => {
    for (const i of [0, 1, 9, 10, 99, 12345, 2 ** 31 - 2]) expect(entryNumber(positionalEntryId(i))).toBe(i + 1);
    expect(positionalEntryId(0)).toBe('e1');
  });
});

describe('EntryIdList', () => {
  it("keeps the reducer's ids by position, stores no string, and reads them back", () => {
    const ids = Array.from({ length: 1500 }, (_, i) => `e${i + 1}`);
    const list = listOf(ids);
    expect(list.stored).toBe(false);
    expectLikeArray(list, ids);
    expect(list.at(1.5)).toBeUndefined();
  });

  it('is empty at first', () => {
    expectLikeArray(new EntryIdList(), []);
  });

  it('keeps ids pushed out of positional order as strings, and every id before them', () => {
    const ids = ['e1', 'e2', 'e5', 'e3', 'x', 'e01', 'e2'];
    const list = new EntryIdList();
    ids.forEach((id, i) => {
      list.push(id);
      expectLikeArray(list, ids.slice(0, i + 1));
    });
    expect(list.stored).toBe(true);
    // A duplicate: the first one's index, as an array's indexOf.
    expect(list.indexOf('e2')).toBe(1);
  });

  it('keeps a list that starts with an id of another form', () => {
    const list = listOf(['a', 'e2', 'e3']);
    expect(list.stored).toBe(true);
    expectLikeArray(list, ['a', 'e2', 'e3']);
  });

  it('gives a new array each time, which the list does not see changed', () => {
    const list = listOf(['e1', 'e2']);
    const copy = list.toArray();
    copy.push('e3');
    expect(list.length).toBe(2);
    expect(list.toArray()).not.toBe(list.toArray());
  });
});
