/**
 * Small hand-made traces for the history tests: a header and the records of a plausible session,
 * with every place a searched word can hide (prompt, streamed answer, thought, tool title and
 * output, terminal output, file paths).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader } from '../../../../common/trace/records';

export type Line = Record<string, unknown>;

let counter = 0;
/** ULID-shaped ids that sort by creation (time part from `ms`). */
export function testId(ms: number, tag = ''): string {
  const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = '';
  let rest = Math.floor(ms);
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[rest % 32]! + time;
    rest = Math.floor(rest / 32);
  }
  const n = String(++counter).padStart(6, '0');
  return `${time}${`TEST${tag}`.toUpperCase().replace(/[^0-9A-HJKMNP-TV-Z]/g, 'X').slice(0, 10).padEnd(10, 'X')}${n}`;
}

export function header(connectionId: string, startedAtMs: number, extra: Line = {}): Line {
  return {
    kind: 'header',
    format: 'acp-workbench-trace',
    version: 1,
    connectionId,
    startedAt: new Date(startedAtMs).toISOString(),
    startedAtMs,
    agent: { id: 'claude-acp', name: 'Claude Code' },
    launch: { command: 'claude-agent-acp', args: [], cwd: '/work/proj', env: [] },
    clientCapabilities: null,
    ...extra,
  };
}

export interface SessionScript {
  sessionId: string;
  agentSessionId?: string;
  cwd?: string;
  prompt?: string;
  /** Streamed in pieces of this many characters. */
  answer?: string;
  chunk?: number;
  thought?: string;
  tool?: { id?: string; title: string; output?: string; path?: string; diff?: { path: string; oldText: string | null; newText: string } };
  terminalOutput?: string;
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number };
  lineage?: Line;
}

/** Records of one session opened and prompted once, starting at time `t`. */
export function sessionRecords(s: SessionScript, t = 10, requestBase = 1): Line[] {
  const a = s.agentSessionId ?? `agent-${s.sessionId.slice(-6)}`;
  const tag = { sessionId: s.sessionId, agentSessionId: a };
  const update = (u: Line): Line => ({ kind: 'wire', t: (t += 1), dir: 'in', ...tag, msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: a, update: u } } });
  const out: Line[] = [
    { kind: 'wire', t: (t += 1), dir: 'out', sessionId: s.sessionId, msg: { jsonrpc: '2.0', id: requestBase, method: 'session/new', params: { cwd: s.cwd ?? '/work/proj', mcpServers: [] } } },
    { kind: 'wire', t: (t += 1), dir: 'in', ...tag, msg: { jsonrpc: '2.0', id: requestBase, result: { sessionId: a } } },
    { kind: 'session', t: (t += 1), action: s.lineage?.parentSessionId ? 'forked' : 'created', ...tag, cwd: s.cwd ?? '/work/proj', ...(s.lineage ? { lineage: s.lineage } : {}) },
  ];
  const pid = requestBase + 1;
  out.push({ kind: 'prompt', t: (t += 1), ...tag, requestId: pid, origin: 'user' });
  out.push({ kind: 'wire', t: (t += 1), dir: 'out', ...tag, msg: { jsonrpc: '2.0', id: pid, method: 'session/prompt', params: { sessionId: a, prompt: [{ type: 'text', text: s.prompt ?? 'hello' }] } } });
  if (s.thought) out.push(update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: s.thought } }));
  if (s.tool) {
    const id = s.tool.id ?? 'call_1';
    out.push(update({ sessionUpdate: 'tool_call', toolCallId: id, title: s.tool.title, kind: s.tool.diff ? 'edit' : 'read', status: 'pending', ...(s.tool.path ? { locations: [{ path: s.tool.path }] } : {}) }));
    const content: Line[] = [];
    if (s.tool.output !== undefined) content.push({ type: 'content', content: { type: 'text', text: s.tool.output } });
    if (s.tool.diff) content.push({ type: 'diff', ...s.tool.diff });
    out.push(update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', content }));
  }
  if (s.terminalOutput !== undefined) {
    out.push({ kind: 'terminal', t: (t += 1), ...tag, terminalId: 'term-1', action: 'created', command: 'npm', args: ['test'], cwd: s.cwd ?? '/work/proj' });
    out.push({ kind: 'terminal', t: (t += 1), ...tag, terminalId: 'term-1', action: 'exited', exitCode: 0, signal: null, output: s.terminalOutput });
  }
  const answer = s.answer ?? 'done';
  const step = s.chunk ?? answer.length;
  for (let i = 0; i < answer.length; i += step) out.push(update({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: answer.slice(i, i + step) } }));
  out.push({ kind: 'wire', t: (t += 1), dir: 'in', ...tag, msg: { jsonrpc: '2.0', id: pid, result: { stopReason: s.stopReason ?? 'end_turn', ...(s.usage ? { usage: s.usage } : {}) } } });
  return out;
}

export function traceText(lines: Line[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** A complete trace file (header, spawn, sessions, exit) as text. */
export function sessionTrace(connectionId: string, startedAtMs: number, sessions: SessionScript[], options: { exit?: boolean; header?: Line } = {}): string {
  const lines: Line[] = [header(connectionId, startedAtMs, options.header), { kind: 'spawn', t: 1, pid: 999999 }];
  sessions.forEach((s, i) => lines.push(...sessionRecords(s, 10 + i * 100, 1 + i * 10)));
  if (options.exit ?? true) lines.push({ kind: 'exit', t: 10 + sessions.length * 100, code: 0, signal: null, expected: true });
  return traceText(lines);
}

/** A fresh data folder with an empty traces/ folder. */
export function tempDataDir(prefix = 'acpwb-history-'): { dataDir: string; traces: string } {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const traces = join(dataDir, 'traces');
  mkdirSync(traces, { recursive: true });
  return { dataDir, traces };
}

export function writeTrace(traces: string, connectionId: string, text: string): string {
  const path = join(traces, `${connectionId}.jsonl`);
  writeFileSync(path, text);
  return path;
}

/** Nobody's agent process is alive in these tests (pid 999999). */
export const deadAgents = () => false;

/** A trace header as the trace writer's tests write it (typed, the writer's own constants). */
export const WRITER_HEADER: TraceHeader = {
  kind: 'header',
  format: TRACE_FORMAT,
  version: TRACE_FORMAT_VERSION,
  connectionId: '01JDQ9000000000000000CONN1',
  startedAt: '2026-11-29T10:00:00.000Z',
  startedAtMs: 1795946400000,
  launch: { command: 'node', args: [], cwd: '/w', env: [] },
  clientCapabilities: { terminal: true },
};
