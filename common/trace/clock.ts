/**
 * Record timestamps: monotonic milliseconds since the connection started, so durations stay right
 * when the wall clock steps (NTP, sleep); the header keeps the wall-clock start once.
 */

interface PerformanceLike {
  now(): number;
}

// `performance` is global in Node 20 and browsers; common/ is typed without DOM or Node.
const perf = (globalThis as unknown as { performance?: PerformanceLike }).performance;

export interface TraceClock {
  /** Wall clock at start, ms since epoch. */
  readonly startedAtMs: number;
  /** ISO 8601 form of `startedAtMs`, for the header. */
  readonly startedAt: string;
  /** Milliseconds since start, monotonic, microsecond-rounded. */
  now(): number;
}

export function createTraceClock(monotonic: () => number = () => (perf ? perf.now() : Date.now()), wall: () => number = Date.now): TraceClock {
  const origin = monotonic();
  const startedAtMs = wall();
  let last = 0;
  return {
    startedAtMs,
    startedAt: new Date(startedAtMs).toISOString(),
    now() {
      // Rounding could otherwise make two readings a microsecond apart compare out of order.
      const t = Math.round((monotonic() - origin) * 1000) / 1000;
      last = Math.max(last, t);
      return last;
    },
  };
}
