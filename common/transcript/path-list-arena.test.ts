import { describe, expect, it } from 'vitest';
import { PathListArena, RECENT_LISTS } from './path-list-arena';

describe('PathListArena', () => {
  it('gives back every list as stored, across growth of its bytes and index', () => {
    const arena = new PathListArena();
    const lists = Array.from({ length: 2000 }, (_, k) => (k % 3 === 0 ? [`/src/ü-${k}.ts`, `/src/日本-${k}.md`] : [`/work/project/src/module-${k}.ts`]));
    const numbers = lists.map((l) => arena.add(l));
    expect(new Set(numbers).size).toBe(2000);
    numbers.forEach((n, k) => expect(arena.get(n)).toEqual(lists[k]));
    expect(arena.byteLength).toBeGreaterThan(2000 * 20);
  });

  it('stores a list added again lately once, and one added long ago anew', () => {
    const arena = new PathListArena();
    const a = arena.add(['/a.ts', '/b.ts']);
    expect(arena.add(['/a.ts', '/b.ts'])).toBe(a);
    expect(arena.add(['/b.ts', '/a.ts'])).not.toBe(a);
    for (let k = 0; k < RECENT_LISTS; k++) arena.add([`/other-${k}.ts`]);
    const again = arena.add(['/a.ts', '/b.ts']);
    expect(again).not.toBe(a);
    expect(arena.get(again)).toEqual(['/a.ts', '/b.ts']);
    expect(arena.get(a)).toEqual(['/a.ts', '/b.ts']);
  });

  it('keeps empty paths and paths that hold a NUL exactly', () => {
    const arena = new PathListArena();
    const odd = arena.add(['/x\u0000y.ts', '/z.ts']);
    const empty = arena.add(['']);
    expect(arena.get(odd)).toEqual(['/x\u0000y.ts', '/z.ts']);
    expect(arena.get(empty)).toEqual(['']);
  });

  it('has no list 0, nor unknown numbers, and refuses an empty list', () => {
    const arena = new PathListArena();
    arena.add(['/a.ts']);
    expect(arena.get(0)).toEqual([]);
    expect(arena.get(2)).toEqual([]);
    expect(arena.get(-1)).toEqual([]);
    expect(() => arena.add([])).toThrow(/empty list/);
  });
});
