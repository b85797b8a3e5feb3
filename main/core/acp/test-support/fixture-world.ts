/**
 * Test world for the connection and the session runtime against the built fixture agent (a real
 * ACP subprocess, e2e/fixtures/README.md): a temp project folder and data folder, the agent's
 * received log (what the client really sent), and clean-up that stops every agent started.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TraceRecord } from '../../../../common/trace/records';
import { readTraceFile } from '../../history/trace-reader';
import { PermissionBroker } from '../../sessions/permission-broker';
import type { ApprovePolicy } from '../../sessions/permission-chain';
import { AlwaysMemory, standardPermissionChain } from '../../sessions/permission-policy';
import { PermissionQueue } from '../../sessions/permission-queue';
import { AgentSession, type OpenHow } from '../../sessions/agent-session';
import { AgentConnection } from '../agent-connection';
import type { ClientCapabilitySwitches } from '../client-capabilities';

export const FIXTURE_AGENT = resolve(__dirname, '..', '..', '..', '..', 'dist', 'fixtures', 'fixture-agent.cjs');
export const SCENARIOS = resolve(__dirname, '..', '..', '..', '..', 'e2e', 'fixtures', 'scenarios');

export type Json = Record<string, unknown>;

/** One line of the fixture agent's received log. */
export interface Received {
  seq: number;
  message?: Json;
  raw?: string;
  error?: string;
}

export interface ConnectOptions {
  /** A scenario object (inline JSON) or a shipped scenario's name. */
  scenario?: object | string;
  switches?: Partial<ClientCapabilitySwitches>;
  startupTimeoutMs?: number;
  maxLineBytes?: number;
  label?: string;
}

export interface SessionOptions extends ConnectOptions {
  policy?: ApprovePolicy;
  interactive?: boolean;
  allowSensitiveFiles?: boolean;
  open?: { how: OpenHow; agentSessionId?: string };
  additionalDirectories?: string[];
}

export class FixtureWorld {
  readonly base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-conn-')));
  /** The session cwd (the project folder). */
  readonly cwd = join(this.base, 'project');
  readonly dataDir = join(this.base, 'data');
  readonly receivedLog = join(this.base, 'received.jsonl');
  readonly queue = new PermissionQueue();
  readonly broker = new PermissionBroker({ deciders: standardPermissionChain({ memory: new AlwaysMemory() }), queue: this.queue });
  private readonly connections: AgentConnection[] = [];

  constructor() {
    mkdirSync(this.cwd);
  }

  /** Spawn the fixture agent (not yet initialized). */
  async connect(options: ConnectOptions = {}): Promise<AgentConnection> {
    const args = [FIXTURE_AGENT, '--max-lifetime-ms', '120000', '--received-log', this.receivedLog];
    const scenario = options.scenario;
    if (typeof scenario === 'string') args.push('--scenario', scenario);
    else if (scenario) args.push('--scenario-json', JSON.stringify(scenario));
    const connection = await AgentConnection.start({
      command: process.execPath,
      args,
      cwd: this.cwd,
      env: { ...process.env, FIXTURE_SCENARIO: '' },
      agent: { id: 'fixture', name: 'fixture', label: options.label ?? 'fixture' },
      dataDir: this.dataDir,
      ...(options.switches ? { switches: options.switches } : {}),
      ...(options.startupTimeoutMs !== undefined ? { startupTimeoutMs: options.startupTimeoutMs } : {}),
      ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
      stop: { stdinGraceMs: 2000, termGraceMs: 2000 },
    });
    this.connections.push(connection);
    return connection;
  }

  /** A session runtime on a fresh, initialized connection, opened (new unless `open` says otherwise). */
  async session(options: SessionOptions = {}): Promise<AgentSession> {
    const connection = await this.connect(options);
    const session = this.sessionOn(connection, options);
    await connection.initialize();
    await session.open(options.open?.how ?? 'new', options.open?.agentSessionId);
    return session;
  }

  /** A session runtime attached to a connection, not opened yet. */
  sessionOn(connection: AgentConnection, options: SessionOptions = {}): AgentSession {
    return new AgentSession({
      connection,
      cwd: this.cwd,
      ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
      broker: this.broker,
      agentId: 'fixture',
      policy: options.policy ?? 'none',
      interactive: options.interactive ?? false,
      ...(options.allowSensitiveFiles ? { allowSensitiveFiles: true } : {}),
    });
  }

  /** Every line the agent received so far (the agent writes each before it reacts to it). */
  received(): Received[] {
    if (!existsSync(this.receivedLog)) return [];
    return readFileSync(this.receivedLog, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Received);
  }

  /** The messages the agent received with this method. */
  receivedCalls(method: string): Json[] {
    return this.received()
      .map((r) => r.message)
      .filter((m): m is Json => m !== undefined && m.method === method);
  }

  /** Our answers to the agent's requests (responses the agent received). */
  receivedResponses(): Json[] {
    return this.received()
      .map((r) => r.message)
      .filter((m): m is Json => m !== undefined && m.method === undefined && ('result' in m || 'error' in m));
  }

  /** Our answer to the agent's request of `method` (found by the id it used in the trace). */
  async answerTo(connection: AgentConnection, method: string): Promise<Json[]> {
    const records = await this.traceRecords(connection);
    const ids = new Set(
      records.filter((r) => r.kind === 'wire' && r.dir === 'in' && r.msg.method === method && 'id' in r.msg).map((r) => JSON.stringify((r as { msg: Json }).msg.id)),
    );
    return this.receivedResponses().filter((m) => ids.has(JSON.stringify(m.id)));
  }

  /** The trace as written so far (flushed first). */
  async traceRecords(connection: AgentConnection): Promise<TraceRecord[]> {
    if (!connection.trace.closed) await connection.trace.flush();
    const parsed = await readTraceFile(connection.trace.path);
    if (parsed.corrupt.length) throw new Error(`corrupt trace lines: ${JSON.stringify(parsed.corrupt)}`);
    return parsed.records;
  }

  /** Stop every agent this world started and remove its folders. */
  async dispose(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
    for (const c of this.connections) {
      if (!c.process.exitInfo) throw new Error(`agent ${c.process.pid} still runs after close()`);
    }
    rmSync(this.base, { recursive: true, force: true });
  }
}

export async function waitFor(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
