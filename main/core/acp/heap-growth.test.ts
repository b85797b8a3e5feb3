import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowingFlag } from './heap-growth';

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

describe('applyIngestHeapGrowth', () => {
  const argv = process.execArgv;
  afterEach(() => {
    process.execArgv = argv;
    setFlagsFromString.mockClear();
    vi.resetModules();
  });

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
});
