import { describe, expect, it } from 'vitest';
import { createIdFactory, idTime, isWorkbenchId, newId } from './ids';

describe('workbench ids', () => {
  it('are 26 Crockford base32 characters that encode their creation time', () => {
    const id = createIdFactory(() => 1795946400123)();
    expect(isWorkbenchId(id)).toBe(true);
    expect(idTime(id)).toBe(1795946400123);
    expect(isWorkbenchId(newId())).toBe(true);
    expect(isWorkbenchId('01JDQ9000000000000000SESSI')).toBe(false);
  });

  it('sort as strings in creation order, also within one millisecond and when the clock steps back', () => {
    const times = [1000, 1000, 1000, 999, 1001, 1001];
    let i = 0;
    const next = createIdFactory(() => times[i++]!);
    const ids = times.map(() => next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are unique across many calls', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(5000);
    expect([...ids].sort()).toEqual(ids);
  });
});
