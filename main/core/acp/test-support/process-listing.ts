/**
 * The process listing the reliability tests check for orphans (issue #12): every live process whose
 * command line contains a marker, read from /proc (Linux) or `ps` elsewhere. A marker is something
 * only the test's own processes carry (a temp path, a unique argument).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface ListedProcess {
  pid: number;
  cmdline: string;
}

export function processesMatching(marker: string): ListedProcess[] {
  const found: ListedProcess[] = [];
  if (existsSync('/proc/self/cmdline')) {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      let cmdline: string;
      let state = '';
      try {
        cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        state = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /, '').slice(0, 1);
      } catch {
        continue; // gone meanwhile
      }
      // A zombie has exited already; its parent just has not reaped it yet.
      if (state !== 'Z' && cmdline.includes(marker) && Number(name) !== process.pid) found.push({ pid: Number(name), cmdline });
    }
    return found;
  }
  const out = execFileSync('ps', ['-axo', 'pid=,stat=,command='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m && !m[2]!.startsWith('Z') && m[3]!.includes(marker) && Number(m[1]) !== process.pid) found.push({ pid: Number(m[1]), cmdline: m[3]! });
  }
  return found;
}

/** Waits (bounded) until no process carries the marker; returns those still there. */
export async function orphansAfter(marker: string, ms = 5000): Promise<ListedProcess[]> {
  const deadline = Date.now() + ms;
  let left = processesMatching(marker);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = processesMatching(marker);
  }
  return left;
}
