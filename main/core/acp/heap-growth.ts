/**
 * How far V8 lets the old generation grow past what survived the last full collection, in every
 * process that reads agents' output (the app's main process, the web host, the CLI, the
 * benchmark's core): to twice that (HEAP_GROWING_PERCENT) instead of V8's own factor, which on
 * these machines goes up to 4 ×. Under a flood the core keeps ~15–35 MiB alive but promotes
 * parsed updates that die soon after; with V8's factor that garbage filled an old generation of
 * ~45–70 MiB before a full collection, and the process held the pages. Tighter factors (1.1–1.5 ×)
 * cut the peak no further and cost up to a third more CPU in full collections (docs/performance.md
 * § 1, docs/decisions.md).
 *
 * V8 reads this flag whenever it sets the next limit (after each full collection), so setting it
 * at run time works — unlike the young generation's size, fixed when the heap is set up. A process
 * started with its own `--heap-growing-percent` keeps it (`=0` is V8's own factor; Node does not
 * take the flag in NODE_OPTIONS).
 */
import { setFlagsFromString } from 'node:v8';
import { appliedHeapGrowthFlag, heapGrowthDecided, HEAP_GROWING_FLAG, recordHeapGrowthFlag, withDefaultHeapGrowth as withDefaultHeapGrowthBy } from './heap-growth-state';

export const HEAP_GROWING_PERCENT = 100;
const FLAG = HEAP_GROWING_FLAG;

/** The V8 flag to set, or undefined when the process was started with its own value. */
export function heapGrowingFlag(execArgv: readonly string[]): string | undefined {
  const named = (arg: string) => arg === FLAG || arg.startsWith(`${FLAG}=`) || arg === '--heap_growing_percent' || arg.startsWith('--heap_growing_percent=');
  if (execArgv.some(named)) return undefined;
  return `${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/**
 * Applies the setting once per process (later calls do nothing; the decision is shared by every
 * bundle in the process, heap-growth-state.ts). Returns the flag set, or undefined when the process
 * keeps its own.
 */
export function applyIngestHeapGrowth(): string | undefined {
  if (heapGrowthDecided()) return appliedHeapGrowthFlag();
  const flag = heapGrowingFlag(process.execArgv);
  recordHeapGrowthFlag(flag);
  if (flag !== undefined) setFlagsFromString(flag);
  return flag;
}

/** Runs `fn` with V8's default heap growth, then sets the applied flag back (heap-growth-state.ts). */
export function withDefaultHeapGrowth<T>(fn: () => T): T {
  return withDefaultHeapGrowthBy(fn, setFlagsFromString);
}
