/**
 * Regression (found by workbench-kill.test.ts): every agent connection constructs its own
 * ProcessRegistry on the one file of this workbench process. Each must add to that file, not
 * replace it, or a workbench killed with several agents only has its last agent reaped; and the
 * first connection to end must not delete the others' entries.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ProcessRegistry } from './process-registry';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('registries of one process on one data folder share its file (and its writer: changes made during a rewrite are written by the next)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-reg-'));
  dirs.push(dataDir);
  const a = new ProcessRegistry(dataDir);
  const b = new ProcessRegistry(dataDir);
  expect(a.filePath).toBe(b.filePath);
  a.register({ pid: process.pid, command: 'agent a', kind: 'agent' });
  b.register({ pid: process.ppid, command: 'agent b', kind: 'agent' });
  const pids = () => (JSON.parse(readFileSync(a.filePath, 'utf8')) as { processes: Array<{ pid: number }> }).processes.map((p) => p.pid).sort();
  await b.flushed();
  expect(pids()).toEqual([process.pid, process.ppid].sort());
  a.unregister(process.pid);
  await a.flushed();
  expect(pids()).toEqual([process.ppid]);
  b.unregister(process.ppid);
  await a.flushed();
  expect(() => readFileSync(a.filePath)).toThrow();
  // Many changes at once: the last state is what the file ends with, and no temp file is left.
  for (let i = 0; i < 20; i++) a.register({ pid: process.pid, command: `agent ${i}`, kind: 'agent' });
  a.unregister(process.pid);
  b.register({ pid: process.ppid, command: 'last', kind: 'agent' });
  await b.flushed();
  expect(pids()).toEqual([process.ppid]);
  expect(readdirSync(join(dataDir, 'processes'))).toEqual([basename(a.filePath)]);
});
