import { afterEach, describe, expect, it } from 'vitest';
import { appliedHeapGrowthFlag, heapGrowthDecided, recordHeapGrowthFlag, withDefaultHeapGrowth } from './heap-growth-state';

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('acp-workbench.heap-growing-flag')];
});

describe('heap growth state', () => {
  it('is undecided until recorded; a process keeping its own value is decided with no flag', () => {
    expect(heapGrowthDecided()).toBe(false);
    recordHeapGrowthFlag(undefined);
    expect(heapGrowthDecided()).toBe(true);
    expect(appliedHeapGrowthFlag()).toBeUndefined();
  });

  it('runs a call with the flag at V8’s default and sets the applied flag back, also when it throws', () => {
    const set: string[] = [];
    expect(withDefaultHeapGrowth(() => 1, (f) => set.push(f))).toBe(1);
    expect(set).toEqual([]); // nothing applied: nothing touched
    recordHeapGrowthFlag('--heap-growing-percent=100');
    const during: string[] = [];
    expect(withDefaultHeapGrowth(() => (during.push(...set), 'data'), (f) => set.push(f))).toBe('data');
    expect(during).toEqual(['--heap-growing-percent=0']);
    expect(set).toEqual(['--heap-growing-percent=0', '--heap-growing-percent=100']);
    expect(() => withDefaultHeapGrowth(() => { throw new Error('boom'); }, (f) => set.push(f))).toThrow('boom');
    expect(set.slice(2)).toEqual(['--heap-growing-percent=0', '--heap-growing-percent=100']);
  });
});
