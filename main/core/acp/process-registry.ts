/**
 * Process registry: a record, on disk, of every process the workbench starts (agents, terminals).
 *
 * Why it exists: when the workbench crashes or is killed, its agents and their helpers keep running
 * (they live in their own process groups, so nothing takes them down with us). At the next start-up
 * `reapLeftovers` finds the registry files of dead workbench processes and kills what they started
 * — but only processes whose pid AND start time still match, so a pid the OS has since handed to an
 * unrelated process is never touched.
 *
 * Each workbench process owns exactly one file, `<dataDir>/processes/<ownerPid>-<ownerStart>.json`,
 * rewritten atomically (temp file + rename) after every change: concurrent workbenches never write the
 * same file, and a reader never sees a torn one. The rewrite is asynchronous (changes that come while
 * one is under way are written by one more): an agent starting a terminal mid-turn, or agents
 * exiting while the disk is busy with their traces, no longer holds the core's thread (a synchronous
 * rename took 115 ms there once, issue #11). The owner's start time is in the name so a new
 * workbench that inherits a dead one's pid does not overwrite its leftovers before they are reaped.
 *
 * Also home to the small process probes (alive? start time? group?) the agent process uses. A zombie
 * counts as not running: in containers whose init does not reap orphans, killed processes linger
 * as zombies forever, and `kill(pid, 0)` alone would call them alive.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ProcessEntry {
  pid: number;
  /** The process group to kill with it; null where there are no groups (Windows). */
  pgid: number | null;
  /** OS start time (Linux: clock ticks since boot from /proc); null when it could not be read. */
  startTime: string | null;
  command: string;
  /** What it is for, e.g. "agent" or "terminal". */
  kind: string;
  /** ISO time of registration. */
  registeredAt: string;
}

interface RegistryFile {
  version: 1;
  owner: { pid: number; startTime: string | null };
  processes: ProcessEntry[];
}

interface ProcStat {
  state: string;
  pgid: number;
  startTime: string;
}

const isLinux = process.platform === 'linux';
const isWindows = process.platform === 'win32';

function readLinuxStat(pid: number): ProcStat | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may contain spaces and parentheses: fields resume after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, , pgrp] = fields;
  const startTime = fields[19]; // field 22 of proc(5)
  if (state === undefined || pgrp === undefined || startTime === undefined) return null;
  return { state, pgid: Number(pgrp), startTime };
}

function psField(pid: number, field: 'lstart' | 'pgid'): string | null {
  try {
    const out = execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
    return out.trim() || null;
  } catch {
    return null;
  }
}

/** Start time of a process, to tell it apart from a later process with the same pid. */
export function readProcessStartTime(pid: number): string | null {
  if (isLinux) return readLinuxStat(pid)?.startTime ?? null;
  if (isWindows) return null;
  return psField(pid, 'lstart');
}

export function readProcessGroup(pid: number): number | null {
  if (isLinux) return readLinuxStat(pid)?.pgid ?? null;
  if (isWindows) return null;
  const pgid = Number(psField(pid, 'pgid'));
  return Number.isInteger(pgid) && pgid > 0 ? pgid : null;
}

function signalExists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a process exists and is not a zombie. */
export function isProcessRunning(pid: number): boolean {
  if (!signalExists(pid)) return false;
  if (!isLinux) return true;
  const stat = readLinuxStat(pid);
  return stat !== null && stat.state !== 'Z';
}

/** Whether any non-zombie process is left in a process group (POSIX; always false on Windows). */
export function isGroupRunning(pgid: number): boolean {
  if (isWindows || !signalExists(-pgid)) return false;
  if (!isLinux) return true;
  // kill(-pgid, 0) also succeeds for zombie members: look for a live one. Rare (only while stopping).
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readLinuxStat(pid);
    if (stat && stat.pgid === pgid && stat.state !== 'Z') return true;
  }
  return false;
}

/** Signals a whole process group; false when it is already gone. Never throws. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function registryDir(dataDir: string): string {
  return join(dataDir, 'processes');
}

/**
 * Entries per registry file, shared by every ProcessRegistry of this process on that file: each
 * agent connection constructs its own registry, and each save rewrites the whole file, so separate
 * lists would keep only the last connection's processes (and the first to empty would delete the
 * file under the others). The file's writer is shared the same way: one rewrite at a time.
 */
interface RegistryFileState {
  entries: Map<number, ProcessEntry>;
  /** The rewrites under way (one, then one more for the changes made meanwhile). */
  writing: Promise<void> | null;
  /** Changed since the rewrite under way took its copy. */
  again: boolean;
}
const stateByFile = new Map<string, RegistryFileState>();

/** The registry of this workbench process. Cheap to construct; the file appears on first register. */
export class ProcessRegistry {
  private readonly file: string;
  private readonly ownerStartTime: string | null;
  private readonly state: RegistryFileState;

  constructor(
    readonly dataDir: string,
    readonly ownerPid: number = process.pid,
  ) {
    this.ownerStartTime = readProcessStartTime(ownerPid);
    const stamp = (this.ownerStartTime ?? 'unknown').replace(/[^0-9A-Za-z]+/g, '_');
    this.file = join(registryDir(dataDir), `${ownerPid}-${stamp}.json`);
    let state = stateByFile.get(this.file);
    if (!state) stateByFile.set(this.file, (state = { entries: new Map(), writing: null, again: false }));
    this.state = state;
  }

  get filePath(): string {
    return this.file;
  }

  list(): ProcessEntry[] {
    return [...this.state.entries.values()];
  }

  /** Records a started process; its start time is read now. The file follows (`flushed()`). */
  register(process: { pid: number; pgid?: number | null; command: string; kind: string }): ProcessEntry {
    const entry: ProcessEntry = {
      pid: process.pid,
      pgid: process.pgid ?? null,
      startTime: readProcessStartTime(process.pid),
      command: process.command,
      kind: process.kind,
      registeredAt: new Date().toISOString(),
    };
    this.state.entries.set(entry.pid, entry);
    this.save();
    return entry;
  }

  unregister(pid: number): void {
    if (!this.state.entries.delete(pid)) return;
    this.save();
  }

  /** Resolves once the file holds every change made so far (also when writing it failed). */
  flushed(): Promise<void> {
    return this.state.writing ?? Promise.resolve();
  }

  private save(): void {
    const state = this.state;
    if (state.writing) {
      state.again = true;
      return;
    }
    state.writing = (async () => {
      do {
        state.again = false;
        try {
          await this.write();
        } catch {
          // A registry failure only loses crash clean-up; the processes themselves are fine.
        }
      } while (state.again);
      state.writing = null;
    })();
  }

  private async write(): Promise<void> {
    if (this.state.entries.size === 0) {
      await rm(this.file, { force: true });
      return;
    }
    const content: RegistryFile = { version: 1, owner: { pid: this.ownerPid, startTime: this.ownerStartTime }, processes: this.list() };
    await mkdir(registryDir(this.dataDir), { recursive: true });
    const temp = `${this.file}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, JSON.stringify(content, null, 1));
      await rename(temp, this.file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }
}

export interface ReapReport {
  /** Registry files of dead workbench processes that were handled and deleted. */
  removedFiles: string[];
  /** Leftovers that were still running and were killed. */
  killed: ProcessEntry[];
  /** Entries not touched, and why. */
  leftAlone: Array<{ entry: ProcessEntry; reason: 'not-running' | 'start-time-differs' | 'start-time-unknown' }>;
}

function isOwnerAlive(file: RegistryFile): boolean {
  if (!isProcessRunning(file.owner.pid)) return false;
  return file.owner.startTime === null || readProcessStartTime(file.owner.pid) === file.owner.startTime;
}

function isSameProcess(entry: ProcessEntry): boolean {
  return isProcessRunning(entry.pid) && readProcessStartTime(entry.pid) === entry.startTime;
}

/**
 * Kills the group when the process is still in the group we recorded (then the group is ours:
 * a group id cannot be reused while the group has members), else only the process.
 * Returns the group id when the group was signalled.
 */
function signalLeftover(entry: ProcessEntry, signal: NodeJS.Signals): number | null {
  if (entry.pgid !== null && !isWindows && readProcessGroup(entry.pid) === entry.pgid) {
    signalGroup(entry.pgid, signal);
    return entry.pgid;
  }
  try {
    process.kill(entry.pid, signal);
  } catch {
    // Gone meanwhile.
  }
  return null;
}

/**
 * At start-up: for each registry file whose owner is dead, kill the processes it lists that still
 * run with the same pid and start time (SIGTERM to the group, SIGKILL after `termGraceMs`), then
 * delete the file. Files of live workbench processes are left alone.
 */
export async function reapLeftovers(dataDir: string, options: { termGraceMs?: number } = {}): Promise<ReapReport> {
  const report: ReapReport = { removedFiles: [], killed: [], leftAlone: [] };
  const groups = new Set<number>();
  let names: string[];
  try {
    names = readdirSync(registryDir(dataDir));
  } catch {
    return report;
  }
  for (const name of names) {
    const path = join(registryDir(dataDir), name);
    if (name.endsWith('.tmp')) {
      // A temp file left by a crash between write and rename.
      if (!isProcessRunning(Number(name.split('-')[0]))) rmSync(path, { force: true });
      continue;
    }
    if (!name.endsWith('.json')) continue;
    let file: RegistryFile;
    try {
      file = JSON.parse(readFileSync(path, 'utf8')) as RegistryFile;
    } catch {
      // Unreadable: only its owner could fix it, and an owner pid is in the name.
      if (!isProcessRunning(Number(name.split('-')[0]))) rmSync(path, { force: true });
      continue;
    }
    if (isOwnerAlive(file)) continue;
    for (const entry of file.processes) {
      if (entry.startTime === null) report.leftAlone.push({ entry, reason: 'start-time-unknown' });
      else if (!isProcessRunning(entry.pid)) report.leftAlone.push({ entry, reason: 'not-running' });
      else if (!isSameProcess(entry)) report.leftAlone.push({ entry, reason: 'start-time-differs' });
      else {
        const group = signalLeftover(entry, 'SIGTERM');
        if (group !== null) groups.add(group);
        report.killed.push(entry);
      }
    }
    rmSync(path, { force: true });
    report.removedFiles.push(path);
  }
  // Members that ignore SIGTERM (a wrapper's native child, say) get SIGKILL after the grace period.
  const stillRunning = (): boolean => report.killed.some(isSameProcess) || [...groups].some(isGroupRunning);
  const deadline = Date.now() + (options.termGraceMs ?? 3000);
  while (stillRunning() && Date.now() < deadline) await sleep(50);
  for (const entry of report.killed) if (isSameProcess(entry)) signalLeftover(entry, 'SIGKILL');
  for (const group of groups) if (isGroupRunning(group)) signalGroup(group, 'SIGKILL');
  // SIGKILL is not instantaneous: return once they are really gone (bounded).
  const killDeadline = Date.now() + 2000;
  while (stillRunning() && Date.now() < killDeadline) await sleep(20);
  return report;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
