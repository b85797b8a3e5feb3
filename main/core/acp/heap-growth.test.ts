import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowingFlag, withDefaultHeapGrowth } from './heap-growth';

const setFlagsFromString = vi.fn();
vi.mock('node:v8', async (original) => ({ ...(await original<typeof import('node:v8')>()), setFlagsFromString: (flag: string) => setFlagsFromString(flag) }));

describe('heapGrowingFlag', () => {
  it('asks for the fixed growth when the process has no value of its own', () => {
    expect(heapGrowingFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowingFlag(['--enable-source-maps', '--max-old-space-size=4096'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it('leaves a value given on the command line, in either spelling', () => {
    expect(heapGrowingFlag(['--heap-growing-percent=50'])).toBeUndefined();
    expect(heapGrowingFlag(['--heap_growing_percent=0'])).toBeUndefined();
    // A flag that merely starts alike is not the same flag.
    expect(heapGrowingFlag(['--heap-growing-percentage=5'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });
});

const startArgv = process.execArgv;
/** The process as it started: its own arguments, no flag applied by an earlier test, fresh modules. */
function resetHeapGrowth(): void {
  process.execArgv = startArgv;
  setFlagsFromString.mockClear();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('acp-workbench.heap-growing-flag')];
  vi.resetModules();
}

describe('applyIngestHeapGrowth', () => {
  afterEach(resetHeapGrowth);

  it('sets the V8 flag once per process', async () => {
    process.execArgv = [];
    const { applyIngestHeapGrowth } = await import('./heap-growth');
    expect(applyIngestHeapGrowth()).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(applyIngestHeapGrowth()).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(setFlagsFromString.mock.calls).toEqual([[`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]]);
  });

  it("sets nothing when the process was started with its own value", async () => {
    process.execArgv = ['--heap-growing-percent=0'];
    const { applyIngestHeapGrowth } = await import('./heap-growth');
    expect(applyIngestHeapGrowth()).toBeUndefined();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });

  it('is seen by another copy of the module in the same process (the launcher’s bundle)', async () => {
    process.execArgv = [];
    const first = await import('./heap-growth');
    first.applyIngestHeapGrowth();
    vi.resetModules();
    const second = await import('./heap-growth');
    expect(second).not.toBe(first);
    expect(second.applyIngestHeapGrowth()).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(setFlagsFromString).toHaveBeenCalledTimes(1);
  });
});

describe('withDefaultHeapGrowth', () => {
  afterEach(resetHeapGrowth);

  it('touches no flag when the process never applied one', () => {
    expect(withDefaultHeapGrowth(() => 7)).toBe(7);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });

  it('sets V8’s default for the call and the applied value back, also when the call throws', async () => {
    process.execArgv = [];
    const { applyIngestHeapGrowth, withDefaultHeapGrowth: during } = await import('./heap-growth');
    applyIngestHeapGrowth();
    setFlagsFromString.mockClear();
    const seen: unknown[][] = [];
    expect(during(() => (seen.push(...setFlagsFromString.mock.calls), 'data'))).toBe('data');
    expect(seen).toEqual([['--heap-growing-percent=0']]);
    expect(setFlagsFromString.mock.calls).toEqual([['--heap-growing-percent=0'], [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]]);
    setFlagsFromString.mockClear();
    expect(() => during(() => { throw new Error('boom'); })).toThrow('boom');
    expect(setFlagsFromString.mock.calls).toEqual([['--heap-growing-percent=0'], [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]]);
  });

  it('leaves a value the process was started with', async () => {
    process.execArgv = ['--heap-growing-percent=50'];
    const { applyIngestHeapGrowth, withDefaultHeapGrowth: during } = await import('./heap-growth');
    applyIngestHeapGrowth();
    during(() => undefined);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
