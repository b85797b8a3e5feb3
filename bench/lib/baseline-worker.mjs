// Baseline clients for the ingest and event-loop benchmarks, each in its own process:
//   --client parse  a bare line-split + JSON.parse client (the ceiling: no validation, no state);
//   --client sdk    the bare @agentclientprotocol/sdk client: `client()` + `ndJsonStream`, a
//                   session/update handler that only counts.
// Both spawn --agents flood agents, initialize, open one session each, then prompt all at once and
// time from the prompts to the last turn's end. Prints one JSON line (see worker-common.mjs).
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk/unstable';
import { finish, floodArgs, parseArgs, peakWhenReached, startProbe, workloadOf } from './worker-common.mjs';

const args = parseArgs();
const agents = Number(args.agents ?? 4);
const workload = workloadOf(args);
// Peak RSS when a quarter of the flood's updates (all agents together) has arrived.
const quarter = peakWhenReached(workload.n === undefined ? Infinity : (workload.n * agents) / 4);
let received = 0;

function spawnAgent() {
  return spawn(process.execPath, floodArgs(workload), { stdio: ['pipe', 'pipe', 'inherit'] });
}

/** Bare parse: split lines, JSON.parse each, count session/update, match responses by id. */
async function bareParse() {
  const child = spawnAgent();
  let updates = 0;
  let nextId = 0;
  const pending = new Map();
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    for (const line of parts) {
      if (!line) continue;
      const msg = JSON.parse(line);
      if (msg.method === 'session/update') {
        updates++;
        quarter.note(++received);
      }
      else if (msg.id !== undefined && pending.has(msg.id)) {
        pending.get(msg.id)(msg.result);
        pending.delete(msg.id);
      }
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await request('session/new', { cwd: process.cwd(), mcpServers: [] });
  return {
    prompt: () => request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] }),
    updates: () => updates,
    close: () => child.stdin.end(),
  };
}

/** Bare SDK: the SDK's own ndJsonStream and client app; the handler only counts. */
async function bareSdk() {
  const child = spawnAgent();
  let updates = 0;
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const app = client({ name: 'bench-bare-sdk' }).onNotification('session/update', () => {
    updates++;
    quarter.note(++received);
  });
  const conn = app.connect(stream);
  await conn.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
  const { sessionId } = await conn.agent.request('session/new', { cwd: process.cwd(), mcpServers: [] });
  return {
    prompt: () => conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] }),
    updates: () => updates,
    close: () => child.stdin.end(),
  };
}

const make = args.client === 'sdk' ? bareSdk : bareParse;
const sessions = await Promise.all(Array.from({ length: agents }, () => make()));
const probe = startProbe();
const t0 = performance.now();
const answers = await Promise.all(sessions.map((s) => s.prompt()));
const ms = performance.now() - t0;
const p = probe.stop();
const updates = sessions.reduce((n, s) => n + s.updates(), 0);
for (const s of sessions) s.close();
finish({ client: args.client ?? 'parse', agents, updates, ms, rate: (updates / ms) * 1000, stopReasons: answers.map((a) => a.stopReason), ...p, quarterPeak: quarter.peak });
