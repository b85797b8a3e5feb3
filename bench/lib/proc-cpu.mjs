// CPU time of a process, or one of its threads, from Linux's /proc: what the benchmarks' A/B tools
// compare, since the machine's load moves it less than wall time.
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds of process `pid` (or of its thread `tid`). Throws when it is gone. */
export function procCpuSeconds(pid, tid) {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces): utime is the 14th field, stime the 15th.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND;
}
