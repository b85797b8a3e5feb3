// CPU time of a process, or one of its threads, from Linux's /proc: what the benchmarks' A/B tools
// compare, since the machine's load moves it less than wall time.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds of process `pid` (or of its thread `tid`). Throws when it is gone. */
export function procCpuSeconds(pid, tid) {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces): utime is the 14th field, stime the 15th.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds of each thread of process `pid` summed by thread name (`CrRendererMain`, `Compositor`,
 * `CompositorTileW`…: a renderer's main thread, its compositor and its raster workers). Threads that
 * ended meanwhile are not counted; an empty object when the process is gone.
 */
export function procThreadCpuSeconds(pid) {
  return sumByThreadName(pid, (tid) => procCpuSeconds(pid, tid));
}

/**
 * Seconds each thread of process `pid` spent runnable but waiting for a CPU (the second field of
 * `/proc/PID/task/TID/schedstat`), summed by thread name: how long the machine's other work kept a
 * renderer's main thread or compositor from running. An empty object when the process is gone.
 */
export function procThreadRunqueueSeconds(pid) {
  return sumByThreadName(pid, (tid) => Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e9);
}

/** `read(tid)` of each thread of process `pid`, summed by thread name (threads that end meanwhile are left out). */
function sumByThreadName(pid, read) {
  const byName = {};
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byName[name] = (byName[name] ?? 0) + read(tid);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

/** The machine's CPU ticks so far (`/proc/stat`): `busy` (all but idle and iowait) and `total`. */
export function machineCpuTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - fields[4], total };
}
