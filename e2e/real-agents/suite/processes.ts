/**
 * Orphan detection. Every run gives its agent a HOME of its own (agents.ts), and every process the
 * agent starts inherits it, whatever process group or session it moves to (codex's native binary,
 * Claude's bundled runtime, bwrap sandboxes). So once the run is over, any live process whose
 * environment still holds that HOME is an orphan the workbench failed to stop.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  comm: string;
  args: string;
}

function readProc(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const rest = stat.slice(close + 2).split(' ');
    if (rest[0] === 'Z') return null; // a zombie is already dead; its parent just has not reaped it
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return { pid, ppid: Number(rest[1]), pgid: Number(rest[2]), comm, args };
  } catch {
    return null;
  }
}

/** Live processes whose environment has exactly `NAME=value` (e.g. the run's HOME). */
export function processesWithEnv(name: string, value: string): ProcessInfo[] {
  const needle = `${name}=${value}`;
  const found: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue; // gone, or not ours to read
    }
    if (!environ.split('\0').includes(needle)) continue;
    const info = readProc(pid);
    if (info) found.push(info);
  }
  return found;
}

/**
 * Waits up to `graceMs` for the run's processes to go (a process group being torn down takes a
 * moment), then reports what is left and kills it by pid so one failure does not leak into the
 * next run.
 */
export async function collectOrphans(home: string, graceMs = 5000): Promise<ProcessInfo[]> {
  const end = Date.now() + graceMs;
  let left = processesWithEnv('HOME', home);
  while (left.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    left = processesWithEnv('HOME', home);
  }
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}

export const describeProcess = (p: ProcessInfo): string => `pid ${p.pid} (pgid ${p.pgid}, ${p.comm}): ${p.args.slice(0, 160)}`;
