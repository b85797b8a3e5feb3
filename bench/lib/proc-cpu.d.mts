/** Types of proc-cpu.mjs (for its test). */
export function procCpuSeconds(pid: number, tid?: number): number;
export function procThreadCpuSeconds(pid: number): Record<string, number>;
export function procThreadRunqueueSeconds(pid: number): Record<string, number>;
export function machineCpuTicks(): { busy: number; total: number };
