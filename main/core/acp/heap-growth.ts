/**
 * How far V8 lets the old generation grow past what survived the last full collection, in every
 * process that reads agents' output (the app's main process, the web host, the CLI, the
 * benchmark's core): to 1.5 × that (HEAP_GROWING_PERCENT) instead of V8's own factor, which on
 * these machines goes up to 4 ×. Under a flood the core keeps ~15–25 MiB alive but promotes
 * parsed updates that die soon after; with V8's factor that garbage filled an old generation of
 * ~45–70 MiB before a full collection, and the process held the pages. At 2 × (the setting until
 * issue #11's twentieth pass) the peak still rose by 10–16 MiB between a quarter of a flood and its
 * end, and by ≈ 25 more at four times its length; at 1.5 × it rises by ≈ 8 and ≈ 10, for ≈ 1–2 %
 * more CPU — a full collection of a heap this small takes a few milliseconds (docs/performance.md
 * § 1, docs/decisions.md). Tighter still (1.25 ×, 1.4 ×) was no better in the peak.
 *
 * V8 reads this flag whenever it sets the next limit (after each full collection), so setting it
 * at run time works — unlike the young generation's size, fixed when the heap is set up. A process
 * started with its own `--heap-growing-percent` keeps it (`=0` is V8's own factor; Node does not
 * take the flag in NODE_OPTIONS).
 */
import { setFlagsFromString } from 'node:v8';
import { appliedHeapGrowthFlag, heapGrowthDecided, HEAP_GROWING_FLAG, recordHeapGrowthFlag, withDefaultHeapGrowth as withDefaultHeapGrowthBy } from './heap-growth-state';

export const HEAP_GROWING_PERCENT = 50;
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
