/**
 * Which `--heap-growing-percent` this process applied (heap-growth.ts), kept where every bundle
 * loaded into the process sees it — the CLI's launcher is a bundle of its own and saves V8's code
 * cache of the main bundle (main/cli/code-cache.ts). Loads nothing, so the launcher can use it
 * without loading `node:v8` at every start.
 */
export const HEAP_GROWING_FLAG = '--heap-growing-percent';

const APPLIED = Symbol.for('acp-workbench.heap-growing-flag');
type Slot = { [APPLIED]?: string | undefined };

/** Whether this process has decided (applied a flag or kept its own value). */
export function heapGrowthDecided(): boolean {
  return APPLIED in (globalThis as Slot);
}

/** The flag this process applied; undefined when none (not decided yet, or it kept its own). */
export function appliedHeapGrowthFlag(): string | undefined {
  return (globalThis as Slot)[APPLIED];
}

export function recordHeapGrowthFlag(flag: string | undefined): void {
  (globalThis as Slot)[APPLIED] = flag;
}

/**
 * Runs `fn` with V8's own heap growth (the flag at its default), then sets the applied flag back.
 * For V8's code cache: V8 stamps cached data with a hash of the flags that differ from their
 * defaults and rejects data whose stamp differs from the flags of the process reading it — a cache
 * saved after the flag was applied would be rejected by every later start, which begins with the
 * defaults (docs/performance.md § 7, eighth pass). `setFlags` is `node:v8`'s `setFlagsFromString`.
 */
export function withDefaultHeapGrowth<T>(fn: () => T, setFlags: (flags: string) => void): T {
  const flag = appliedHeapGrowthFlag();
  if (flag === undefined) return fn();
  setFlags(`${HEAP_GROWING_FLAG}=0`); // 0 = V8's default, so the flag no longer counts as changed
  try {
    return fn();
  } finally {
    setFlags(flag);
  }
}
