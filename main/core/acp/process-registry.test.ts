import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isGroupRunning, isProcessRunning, ProcessRegistry, readProcessGroup, readProcessStartTime, reapLeftovers, type ProcessEntry } from './process-registry';

const posix = process.platform !== 'win32';
let workDir: string;
let dataDir: string;
let bundledRegistry: string;
const children: ChildProcess[] = [];
const strayPids: number[] = [];

/** Gone = no such process, or a zombie nobody reaps (this CI's init never reaps orphans). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  return !isProcessRunning(pid);
}

function startSleeper(detached = false): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached });
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** The pid of a process that has exited: a dead owner. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await exited(child);
  return child.pid!;
}

function writeRegistryFile(owner: { pid: number; startTime: string | null }, processes: ProcessEntry[]): string {
  mkdirSync(join(dataDir, 'processes'), { recursive: true });
  const path = join(dataDir, 'processes', `${owner.pid}-test.json`);
  writeFileSync(path, JSON.stringify({ version: 1, owner, processes }));
  return path;
}

function entryFor(pid: number, overrides: Partial<ProcessEntry> = {}): ProcessEntry {
  return { pid, pgid: null, startTime: readProcessStartTime(pid), command: 'test', kind: 'agent', registeredAt: new Date().toISOString(), ...overrides };
}

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'acpwb-reap-'));
  // The "crashing workbench" child process uses the real module, bundled for plain node.
  bundledRegistry = join(workDir, 'process-registry.cjs');
  buildSync({ entryPoints: [join(__dirname, 'process-registry.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundledRegistry, logLevel: 'silent' });
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const pid of strayPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('process probes', () => {
  it('reads start time and group, and tells running from gone', async () => {
    const child = startSleeper(posix);
    await new Promise((resolve) => child.once('spawn', resolve));
    const pid = child.pid!;
    expect(isProcessRunning(pid)).toBe(true);
    if (process.platform === 'linux') {
      expect(readProcessStartTime(pid)).toMatch(/^\d+$/);
      expect(readProcessStartTime(pid)).not.toBe(readProcessStartTime(process.pid));
    }
    if (posix) {
      expect(readProcessGroup(pid)).toBe(pid);
      expect(isGroupRunning(pid)).toBe(true);
    }
    child.kill('SIGKILL');
    await exited(child);
    expect(isProcessRunning(pid)).toBe(false);
    expect(readProcessStartTime(pid)).toBeNull();
    if (posix) expect(isGroupRunning(pid)).toBe(false);
  });
});

describe('ProcessRegistry', () => {
  beforeAll(() => {
    dataDir = mkdtempSync(join(workDir, 'data-'));
  });

  it('keeps one file per owner with pid, group, start time and command; entries leave on unregister', async () => {
    const registry = new ProcessRegistry(dataDir);
    const child = startSleeper();
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(existsSync(registry.filePath)).toBe(false);
    const entry = registry.register({ pid: child.pid!, pgid: 4242, command: 'sleeper --flag', kind: 'terminal' });
    expect(registry.filePath).toContain(join(dataDir, 'processes', `${process.pid}-`));
    // Written in the background: the entry is listed at once, the file follows.
    expect(registry.list().map((e) => e.pid)).toEqual([child.pid]);
    await registry.flushed();
    const file = JSON.parse(readFileSync(registry.filePath, 'utf8'));
    expect(file).toEqual({
      version: 1,
      owner: { pid: process.pid, startTime: readProcessStartTime(process.pid) },
      processes: [{ pid: child.pid, pgid: 4242, startTime: readProcessStartTime(child.pid!), command: 'sleeper --flag', kind: 'terminal', registeredAt: entry.registeredAt }],
    });
    registry.register({ pid: process.pid, command: 'self', kind: 'agent' });
    expect(registry.list().map((e) => e.pid)).toEqual([child.pid, process.pid]);
    registry.unregister(child.pid!);
    await registry.flushed();
    expect(JSON.parse(readFileSync(registry.filePath, 'utf8')).processes.map((e: ProcessEntry) => e.pid)).toEqual([process.pid]);
    registry.unregister(process.pid);
    await registry.flushed();
    expect(existsSync(registry.filePath)).toBe(false);
    // No temp files left behind by the atomic rewrites.
    expect(readdirSync(join(dataDir, 'processes'))).toEqual([]);
  });
});

describe('reapLeftovers', () => {
  beforeAll(() => {
    dataDir = mkdtempSync(join(workDir, 'reap-'));
  });

  it.skipIf(!posix)('kills what a crashed workbench left running (SIGKILL after the grace), then deletes its file', async () => {
    const owner = spawn(process.execPath, [join(__dirname, 'test-support', 'registry-owner.cjs'), bundledRegistry, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(owner);
    const line = await new Promise<string>((resolve) => owner.stdout!.once('data', (d: Buffer) => resolve(d.toString())));
    const { grandchild, file } = JSON.parse(line) as { grandchild: number; file: string };
    strayPids.push(grandchild);
    expect(existsSync(file)).toBe(true);

    // A live owner's processes are never touched.
    const early = await reapLeftovers(dataDir, { termGraceMs: 200 });
    expect(early).toEqual({ removedFiles: [], killed: [], leftAlone: [] });
    expect(isGone(grandchild)).toBe(false);

    owner.kill('SIGKILL');
    await exited(owner);
    expect(isGone(grandchild)).toBe(false);
    const report = await reapLeftovers(dataDir, { termGraceMs: 300 });
    expect(report.removedFiles).toEqual([file]);
    expect(report.killed).toEqual([expect.objectContaining({ pid: grandchild, pgid: grandchild, command: 'grandchild', kind: 'terminal' })]);
    expect(report.leftAlone).toEqual([]);
    // It ignores SIGTERM, so this also proves the SIGKILL escalation.
    expect(isGone(grandchild)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('leaves alone a pid whose start time differs, and reports entries no longer running', async () => {
    const reused = startSleeper();
    await new Promise((resolve) => reused.once('spawn', resolve));
    const gone = await deadPid();
    const path = writeRegistryFile({ pid: await deadPid(), startTime: '1' }, [
      entryFor(reused.pid!, { startTime: 'not-the-same-start' }),
      entryFor(gone, { startTime: '12345' }),
      entryFor(reused.pid!, { startTime: null }),
    ]);
    const report = await reapLeftovers(dataDir, { termGraceMs: 200 });
    expect(report.killed).toEqual([]);
    expect(report.leftAlone.map(({ entry, reason }) => [entry.pid, reason])).toEqual([
      [reused.pid, 'start-time-differs'],
      [gone, 'not-running'],
      [reused.pid, 'start-time-unknown'],
    ]);
    expect(report.removedFiles).toEqual([path]);
    expect(isProcessRunning(reused.pid!)).toBe(true);
  });

  it('treats a file whose owner pid now belongs to another process (other start time) as dead', async () => {
    const victim = startSleeper(posix);
    await new Promise((resolve) => victim.once('spawn', resolve));
    // Owner pid is alive (it is us) but started at another time: a reused pid, so its file is stale.
    const path = writeRegistryFile({ pid: process.pid, startTime: 'another-start' }, [entryFor(victim.pid!, { pgid: posix ? victim.pid! : null })]);
    const report = await reapLeftovers(dataDir, { termGraceMs: 200 });
    expect(report.removedFiles).toEqual([path]);
    if (process.platform === 'linux') {
      expect(report.killed.map((e) => e.pid)).toEqual([victim.pid]);
      await exited(victim);
      expect(victim.signalCode).toBe('SIGTERM');
    }
  });

  it('is a no-op without a registry folder', async () => {
    await expect(reapLeftovers(join(workDir, 'nothing-here'))).resolves.toEqual({ removedFiles: [], killed: [], leftAlone: [] });
  });
});
