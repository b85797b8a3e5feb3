import { describe, expect, it } from 'vitest';
import { machineCpuTicks, procCpuSeconds, procThreadCpuSeconds, procThreadRunqueueSeconds } from './proc-cpu.mjs';

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

  it('gives each thread name’s wait for a CPU, the same names as its CPU time', () => {
    const waits = procThreadRunqueueSeconds(process.pid);
    expect(Object.keys(waits).sort()).toEqual(Object.keys(procThreadCpuSeconds(process.pid)).sort());
    for (const seconds of Object.values(waits)) expect(seconds).toBeGreaterThanOrEqual(0);
    expect(procThreadRunqueueSeconds(2 ** 22 + 12345)).toEqual({});
  });

  it('counts the machine’s busy ticks within its total, never backwards', () => {
    const a = machineCpuTicks();
    const b = machineCpuTicks();
    expect(a.busy).toBeGreaterThan(0);
    expect(a.busy).toBeLessThanOrEqual(a.total);
    expect(b.total).toBeGreaterThanOrEqual(a.total);
    expect(b.busy).toBeGreaterThanOrEqual(a.busy);
  });
});
