/**
 * One seed of the hostile agent (e2e/fixtures/hostile/hostile-agent.mjs) through the real
 * connection and session runtime: what it says it emitted, what the trace holds, and the
 * conformance report of the trace. Used by hostile.test.ts and the soak script.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TraceRecord } from '../../../../common/trace/records';
import { readTraceFile } from '../../history/trace-reader';
import { conformanceReportFromFile } from '../../qa/report-file';
import type { ConformanceReport } from '../../qa/engine';
import { AgentSession } from '../../sessions/agent-session';
import type { PermissionBroker } from '../../sessions/permission-broker';
import { AgentConnection } from '../agent-connection';

export const HOSTILE_AGENT = resolve(__dirname, '..', '..', '..', '..', 'e2e', 'fixtures', 'hostile', 'hostile-agent.mjs');

export interface Emitted {
  seq: number;
  kind: string;
  expect: 'wire' | 'noise' | 'oversize';
  bytes: number;
}

export interface HostileSetup {
  seed: number;
  cwd: string;
  dataDir: string;
  /** Where the agent logs what it wrote. */
  emitLog: string;
  broker: PermissionBroker;
  count?: number;
  maxLineBytes?: number;
}

/** Starts the hostile agent and opens a session on it (the handshake is well-behaved). */
export async function startHostile(setup: HostileSetup): Promise<AgentSession> {
  const maxLine = setup.maxLineBytes ?? 64 * 1024;
  const connection = await AgentConnection.start({
    command: process.execPath,
    args: [HOSTILE_AGENT, '--seed', String(setup.seed), '--count', String(setup.count ?? 120), '--max-line', String(maxLine), '--emit-log', setup.emitLog],
    cwd: setup.cwd,
    env: { ...process.env },
    agent: { id: 'hostile', name: `hostile-${setup.seed}`, label: `hostile seed ${setup.seed}` },
    dataDir: setup.dataDir,
    maxLineBytes: maxLine,
    stop: { stdinGraceMs: 1000, termGraceMs: 1000 },
  });
  const session = new AgentSession({ connection, cwd: setup.cwd, broker: setup.broker, agentId: 'hostile', policy: 'none', interactive: false });
  try {
    await connection.initialize();
    await session.open('new');
  } catch (err) {
    await connection.close();
    throw err;
  }
  return session;
}

export function readEmitted(emitLog: string): Emitted[] {
  if (!existsSync(emitLog)) return [];
  return readFileSync(emitLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Emitted);
}

export interface LineCounts {
  wire: number;
  noise: number;
  oversize: number;
}

export function countEmitted(emitted: Emitted[]): LineCounts {
  const c: LineCounts = { wire: 0, noise: 0, oversize: 0 };
  for (const e of emitted) c[e.expect]++;
  return c;
}

export function countIncoming(records: TraceRecord[]): LineCounts {
  const c: LineCounts = { wire: 0, noise: 0, oversize: 0 };
  for (const r of records) {
    if (r.kind === 'wire' && r.dir === 'in') c.wire++;
    else if (r.kind === 'noise' && r.dir === 'in') c.noise++;
    else if (r.kind === 'oversize' && r.dir === 'in') c.oversize++;
  }
  return c;
}

/** The trace of the session's connection as flushed so far, and its conformance report. */
export async function traceAndReport(session: AgentSession): Promise<{ records: TraceRecord[]; corrupt: number; report: ConformanceReport }> {
  const trace = session.connection.trace;
  if (!trace.closed) await trace.flush();
  const parsed = await readTraceFile(trace.path);
  const report = await conformanceReportFromFile(trace.path);
  return { records: parsed.records, corrupt: parsed.corrupt.length, report };
}

/** Waits until the trace holds as many incoming lines as the agent says it wrote. */
export async function settleTrace(session: AgentSession, emitLog: string, ms = 30_000): Promise<{ emitted: Emitted[]; records: TraceRecord[] }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const trace = session.connection.trace;
    if (!trace.closed) await trace.flush();
    const emitted = readEmitted(emitLog);
    const { records } = await readTraceFile(trace.path);
    const a = countIncoming(records);
    const b = countEmitted(emitted);
    if ((a.wire === b.wire && a.noise === b.noise && a.oversize === b.oversize) || Date.now() > deadline) return { emitted, records };
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const joinLog = (dir: string, seed: number): string => join(dir, `hostile-${seed}.emitted.jsonl`);
