/**
 * Tests of the conformance engine: seeded random traces of a connection, for the equivalence of
 * the engine's fast path (plain-update.ts) with the full path. A trace mixes a flood's plain
 * updates with everything that must leave the fast path — updates of every kind, in plain shapes
 * and one key, value or `null` away from them, of known, unknown and ended sessions, with known
 * and unknown tool-call ids; broken envelopes, ids on notifications, invalid UTF-8; our requests,
 * prompts, cancels (answered in time, late and never), loads; the agent's requests and answers
 * with known, unknown and `null` ids, errors; noise, stderr, oversize lines, workbench events — in
 * any order, with time that jumps past the cancel limit and sometimes goes back.
 */
import type { TraceRecord } from '../../../common/trace/records';

type Json = Record<string, unknown>;

/** mulberry32: a small seeded generator (the same trace for the same seed, everywhere). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SESSIONS = ['s1', 's2', 's3'];
const CLIENT_CAPABILITIES: Array<Json | undefined> = [
  undefined,
  {},
  { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  { plan: {}, session: { notices: {}, configOptions: { boolean: {} } }, terminal: true },
];
const GATED_AND_ODD_KINDS = ['plan', 'plan_update', 'plan_removed', 'notice', 'available_commands_update', 'current_mode_update', 'usage_update', 'config_option_update', 'session_info_update', 'bogus_kind', 'constructor'];

/** One seeded trace of `count` records (20–220 when not given). */
export function generatedTrace(seed: number, count?: number): TraceRecord[] {
  const r = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
  const chance = (p: number): boolean => r() < p;
  const n = count ?? 20 + Math.floor(r() * 200);
  const records: TraceRecord[] = [];
  let t = 0;
  let nextId = 0;
  let agentId = 0;
  let toolCalls = 0;
  const pending: Array<{ id: number; method: string; sessionId?: string }> = [];
  const agentPending: number[] = [];
  const time = (): number => {
    const roll = r();
    if (roll < 0.03) t += 4000 + Math.floor(r() * 4000); // past the cancel limit, or close to it
    else if (roll < 0.05) t = Math.max(0, t - Math.floor(r() * 50)); // time going back (a merged trace)
    else if (roll < 0.06) t = Math.max(0, t - Math.floor(r() * 8000)); // ... by more than the cancel limit
    else t += Math.floor(r() * 20) / (chance(0.5) ? 1 : 8);
    return t;
  };
  const out = (msg: Json, extra: Partial<TraceRecord> = {}): void => void records.push({ kind: 'wire', t: time(), dir: 'out', msg: { jsonrpc: '2.0', ...msg }, ...extra } as TraceRecord);
  const inn = (msg: Json, extra: Partial<TraceRecord> = {}): void => void records.push({ kind: 'wire', t: time(), dir: 'in', msg, ...extra } as TraceRecord);
  const request = (method: string, params: Json, sessionId?: string): void => {
    const id = nextId++;
    pending.push({ id, method, ...(sessionId ? { sessionId } : {}) });
    out({ id, method, params }, chance(0.05) ? { unchecked: true } : {});
  };
  const session = (): string => (chance(0.05) ? 'unknown-session' : pick(SESSIONS));
  const text = (): Json => ({ type: 'text', text: pick(['hi', 'a longer piece of text', '', 'ü ✓']) });
  const diff = (): Json => ({ type: 'diff', path: `/p/f${Math.floor(r() * 3)}.ts`, newText: 'new', ...(chance(0.5) ? { oldText: 'old' } : {}) });
  const toolId = (): string => (chance(0.15) ? `ghost-${Math.floor(r() * 3)}` : `tc-${Math.floor(r() * (toolCalls + 1))}`);

  /** A plain update (the fast path's) or, with `odd`, one small difference away from it. */
  const update = (odd: boolean): Json => {
    const roll = r();
    let u: Json;
    if (roll < 0.55) u = { sessionUpdate: pick(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']), content: text() };
    else if (roll < 0.75) {
      u = { sessionUpdate: 'tool_call', toolCallId: `tc-${toolCalls++}`, title: 'Edit', kind: pick(['edit', 'read', 'other']), status: pick(['pending', 'in_progress']), content: [diff()] };
      if (chance(0.3)) u.locations = [{ path: '/p/a.ts', ...(chance(0.5) ? { line: Math.floor(r() * 100) } : {}) }];
    } else if (roll < 0.92) {
      u = { sessionUpdate: 'tool_call_update', toolCallId: toolId(), status: pick(['in_progress', 'completed', 'failed']) };
      if (chance(0.6)) u.content = [chance(0.7) ? diff() : { type: 'content', content: text() }];
    } else u = { sessionUpdate: pick(GATED_AND_ODD_KINDS), ...(chance(0.5) ? { content: text() } : {}), ...(chance(0.3) ? { configOptions: [{ type: pick(['boolean', 'select']) }] } : {}) };
    if (!odd) return u;
    switch (Math.floor(r() * 9)) {
      case 0:
        return { ...u, extra: 1 };
      case 1:
        return { ...u, content: null };
      case 2:
        return { ...u, content: { type: 'image', data: 'x', mimeType: 'image/png' } };
      case 3:
        return { ...u, status: 'bogus' };
      case 4:
        return { ...u, toolCallId: 7 };
      case 5:
        return { ...u, locations: [{ path: '/p', line: -1 }] };
      case 6:
        return { ...u, sessionUpdate: null };
      case 7: {
        const { title: _title, ...rest } = u;
        return rest;
      }
      default:
        return { ...u, kind: 'nope' };
    }
  };

  const steps: Array<[weight: number, step: () => void]> = [
    // A flood's plain updates, most of the time.
    [50, () => inn({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: session(), update: update(false) } })],
    // ... and updates that must leave the fast path.
    [6, () => inn({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: session(), update: update(true) } })],
    [
      3,
      () => {
        const params: unknown = pick([{ sessionId: 7, update: update(false) }, { sessionId: session(), update: update(false), extra: true }, [], null, { sessionId: session() }, { update: update(false) }]);
        inn({ jsonrpc: '2.0', method: 'session/update', ...(chance(0.9) ? { params } : {}) });
      },
    ],
    [
      3,
      () => {
        const msg: Json = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: session(), update: update(false) } };
        const which = Math.floor(r() * 5);
        if (which === 0) msg.jsonrpc = '1.0';
        else if (which === 1) delete msg.jsonrpc;
        else if (which === 2) msg.id = pick([null, 99, 'x']);
        else if (which === 3) msg.method = pick(['session/updates', 'fs/read_text_file', '_ext/thing', 'session/prompt']);
        inn(msg, which === 4 ? { invalidUtf8: true } : {});
      },
    ],
    // Our requests and the agent's answers.
    [2, () => request('session/new', { cwd: '/p', mcpServers: [] })],
    [3, () => request('session/prompt', { sessionId: pick(SESSIONS), prompt: [{ type: pick(['text', 'image', 'resource']), text: 'go' }] }, undefined)],
    [1, () => request('session/load', { sessionId: pick(SESSIONS), cwd: '/p', mcpServers: [] })],
    [1, () => request(pick(['session/set_mode', 'session/list', 'session/resume', 'authenticate']), { sessionId: pick(SESSIONS) })],
    [2, () => out({ method: 'session/cancel', params: { sessionId: pick(SESSIONS) } })],
    [
      6,
      () => {
        if (pending.length === 0 || chance(0.05)) return inn({ jsonrpc: '2.0', id: pick([1000, 'nope', null]), result: {} });
        const at = chance(0.8) ? 0 : Math.floor(r() * pending.length);
        const [req] = pending.splice(at, 1);
        const id = req!.id;
        const roll = r();
        if (roll < 0.12) return inn({ jsonrpc: '2.0', id, error: { code: pick([-32601, -32602, -32603]), message: 'no' } });
        if (roll < 0.15) return inn({ jsonrpc: '2.0', id, result: {}, error: { code: 1, message: 'both' } });
        if (roll < 0.17) return inn({ jsonrpc: '2.0', id });
        if (req!.method === 'session/prompt') return inn({ jsonrpc: '2.0', id, result: { stopReason: pick(['end_turn', 'cancelled', 'max_tokens']) } });
        if (req!.method === 'session/new') return inn({ jsonrpc: '2.0', id, result: { sessionId: pick(SESSIONS), ...(chance(0.3) ? { modes: { currentModeId: 'a', availableModes: [] } } : {}) } });
        return inn({ jsonrpc: '2.0', id, result: chance(0.2) ? null : {} });
      },
    ],
    // The agent's requests, our answers, its withdrawals.
    [
      2,
      () => {
        const id = agentId++;
        agentPending.push(id);
        const method = pick(['session/request_permission', 'fs/read_text_file', 'terminal/create']);
        const params: Json = { sessionId: session(), ...(method === 'session/request_permission' ? { toolCall: { toolCallId: toolId() }, options: [] } : { path: '/p/a' }) };
        inn({ jsonrpc: '2.0', id, method, params });
      },
    ],
    [1, () => agentPending.length && out({ id: agentPending.shift(), result: {} })],
    [1, () => agentPending.length && inn({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: pick(agentPending) } })],
    // Not JSON-RPC at all.
    [1, () => void records.push({ kind: 'noise', t: time(), dir: 'in', text: pick(['banner', '', 'log: x']) })],
    [1, () => void records.push({ kind: 'stderr', t: time(), text: 'warn' })],
    [0.3, () => void records.push({ kind: 'oversize', t: time(), dir: 'in', length: 40_000_000, sha256: 'x', head: '{' })],
    [0.5, () => void records.push({ kind: 'notice', t: time(), severity: 'info', message: 'hello' } as TraceRecord)],
  ];
  const total = steps.reduce((s, [w]) => s + w, 0);

  // Most traces open as a connection does; some start anywhere.
  if (chance(0.9)) {
    const caps = pick(CLIENT_CAPABILITIES);
    request('initialize', { protocolVersion: 1, ...(caps ? { clientCapabilities: caps } : {}) });
    if (chance(0.9)) {
      pending.shift();
      inn({ jsonrpc: '2.0', id: 0, result: { protocolVersion: pick([1, 1, 2]), agentCapabilities: { loadSession: chance(0.5), promptCapabilities: { image: chance(0.5) } }, agentInfo: { name: 'gen' } } });
    }
  }
  while (records.length < n) {
    let roll = r() * total;
    for (const [w, step] of steps) {
      if ((roll -= w) < 0) {
        step();
        break;
      }
    }
  }
  return records;
}
