import { describe, expect, it } from 'vitest';
import { procCpuSeconds, procThreadCpuSeconds } from './proc-cpu.mjs';

describe('CPU time from /proc', () => {
  it('sums a process’s threads by name, the process’s own thread among them', () => {
    const threads = procThreadCpuSeconds(process.pid);
    const sums = Object.values(threads);
    expect(sums.length).toBeGreaterThan(0);
    for (const seconds of sums) expect(seconds).toBeGreaterThanOrEqual(0);
    // The main thread (its id is the process's) is in one of the sums, and all of them make the process.
    const main = procCpuSeconds(process.pid, process.pid);
    expect(sums.some((s) => s >= main)).toBe(true);
    expect(sums.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(procCpuSeconds(process.pid) + 0.05);
  });

  it('gives nothing for a process that is gone', () => {
    expect(procThreadCpuSeconds(2 ** 22 + 12345)).toEqual({});
  });
});
