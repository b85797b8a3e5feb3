/**
 * Reads what the history index needs out of a trace, record by record, without building
 * transcripts: per session its ids, agent, cwd, turns, stop reasons, usage, tool calls, files
 * changed, lineage, the user's metadata; per file its header, the agent's `initialize` info and how
 * the process ended. The state is plain JSON and is saved with the index, so a trace that grows is
 * read on from where the last look stopped. Routing of untagged records follows
 * common/trace/sessions.ts: by `sessionId`, else by the agent's session id, else answers by the
 * request they answer.
 */
import { isJsonObject, type JsonObject } from '../../../common/trace/json';
import type { CorruptLine } from '../../../common/trace/parse';
import type { Lineage, SessionAction, TraceHeader, TraceRecord } from '../../../common/trace/records';
import { promptTitle } from './prompt-title';
import { extractSearchText, type TextSink } from './search-text';
import type { UsageTotals } from './history-types';

export interface SessionSummary {
  id: string;
  agentSessionId?: string;
  action?: SessionAction;
  lineage?: Lineage;
  cwd?: string;
  firstT: number;
  lastT: number;
  firstOffset: number;
  lastOffset: number;
  firstLine: number;
  lastLine: number;
  turns: number;
  stopReasons: Record<string, number>;
  lastStopReason?: string | null;
  turnErrors: number;
  toolCalls: number;
  permissionRequests: number;
  usage: UsageTotals;
  filesChanged: string[];
  agentTitle?: string | null;
  firstPrompt?: string;
  /** `session-meta` records of the trace, with their wall-clock time. */
  meta?: { title?: { value: string | null; atMs: number }; tags?: { value: string[]; atMs: number } };
}

/** Routing state of a trace still being written; dropped once it is finished. */
export interface FoldState {
  /** agent session id → workbench session id. */
  bindings: Record<string, string>;
  /** Our pending requests (`out:<id>`): which session, which method. */
  requests: Record<string, { s: string; m: string }>;
  /** Per session, per tool call: its last status and the files its diffs touch. */
  tools: Record<string, Record<string, { status?: string; paths?: string[] }>>;
  /** Terminals whose final output was indexed. */
  terminals: string[];
}

export interface HeaderInfo {
  connectionId: string;
  startedAtMs: number;
  agent?: { id?: string; name?: string; version?: string };
  launchCommand?: string;
  launchCwd?: string;
  lineage?: Lineage;
}

/** What the index keeps per trace file. */
export interface TraceFileSummary {
  header?: HeaderInfo;
  agentInfo?: { name?: string; title?: string; version?: string };
  pid?: number;
  spawnError?: string;
  exit?: { code: number | null; signal: string | null; expected?: boolean };
  corruptLines: number;
  sessions: Record<string, SessionSummary>;
  fold?: FoldState;
}

export function emptyFileSummary(): TraceFileSummary {
  return { corruptLines: 0, sessions: {}, fold: emptyFold() };
}

function emptyFold(): FoldState {
  return { bindings: {}, requests: {}, tools: {}, terminals: [] };
}

const OPENING = new Set(['session/new', 'session/load', 'session/resume', 'session/fork']);

function addUnique(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

export class TraceFold {
  private readonly fold: FoldState;
  private readonly terminalsSeen: Set<string>;

  constructor(
    readonly state: TraceFileSummary,
    private readonly text: TextSink | undefined,
  ) {
    this.fold = state.fold ??= emptyFold();
    this.terminalsSeen = new Set(this.fold.terminals);
  }

  header(h: TraceHeader): void {
    this.state.header = {
      connectionId: h.connectionId,
      startedAtMs: h.startedAtMs,
      ...(h.agent ? { agent: h.agent } : {}),
      ...(h.launch?.command ? { launchCommand: h.launch.command } : {}),
      ...(h.launch?.cwd ? { launchCwd: h.launch.cwd } : {}),
      ...(h.lineage ? { lineage: h.lineage } : {}),
    };
  }

  corrupt(_c: CorruptLine): void {
    this.state.corruptLines++;
  }

  record(r: TraceRecord, line: number, offset: number): void {
    this.connectionWide(r);
    const sessionId = this.route(r);
    if (sessionId === undefined) return;
    const s = this.session(sessionId, r.t, line, offset);
    s.lastT = Math.max(s.lastT, r.t);
    s.lastLine = line;
    s.lastOffset = offset;
    if (r.agentSessionId !== undefined && s.agentSessionId === undefined) s.agentSessionId = r.agentSessionId;
    this.summarize(s, r);
    if (this.text) extractSearchText(r, sessionId, this.text, this.terminalsSeen);
  }

  /** Trace finished: the routing state is no longer needed. */
  settle(): void {
    delete this.state.fold;
  }

  /** Saves what the fold keeps outside the state object. */
  sync(): void {
    if (this.state.fold) this.state.fold.terminals = [...this.terminalsSeen];
  }

  private session(id: string, t: number, line: number, offset: number): SessionSummary {
    let s = this.state.sessions[id];
    if (!s) {
      s = this.state.sessions[id] = {
        id,
        firstT: t,
        lastT: t,
        firstOffset: offset,
        lastOffset: offset,
        firstLine: line,
        lastLine: line,
        turns: 0,
        stopReasons: {},
        turnErrors: 0,
        toolCalls: 0,
        permissionRequests: 0,
        usage: { tokens: {} },
        filesChanged: [],
      };
    }
    return s;
  }

  private connectionWide(r: TraceRecord): void {
    if (r.kind === 'spawn') {
      if (r.pid !== undefined) this.state.pid = r.pid;
      if (r.error) this.state.spawnError = r.error.message;
    } else if (r.kind === 'exit') {
      this.state.exit = { code: r.code, signal: r.signal, ...(r.expected ? { expected: true } : {}) };
    } else if (r.kind === 'wire' && r.dir === 'out' && r.msg.method === 'initialize' && 'id' in r.msg) {
      this.fold.requests[`out:${String(r.msg.id)}`] = { s: '', m: 'initialize' };
    } else if (r.kind === 'wire' && r.dir === 'in' && r.msg.method === undefined) {
      const key = `out:${String(r.msg.id)}`;
      const req = this.fold.requests[key];
      if (req?.m === 'initialize') {
        delete this.fold.requests[key];
        const info = isJsonObject(r.msg.result) && isJsonObject(r.msg.result.agentInfo) ? r.msg.result.agentInfo : undefined;
        if (info) {
          this.state.agentInfo = {
            ...(typeof info.name === 'string' ? { name: info.name } : {}),
            ...(typeof info.title === 'string' ? { title: info.title } : {}),
            ...(typeof info.version === 'string' ? { version: info.version } : {}),
          };
        }
      }
    }
  }

  /** The workbench session a record belongs to; undefined for connection-wide records. */
  private route(r: TraceRecord): string | undefined {
    const known = Object.keys(this.state.sessions);
    const byAgentId = (agentId: string): string | undefined => this.fold.bindings[agentId] ?? (known.length === 1 ? known[0] : undefined);
    if (r.sessionId !== undefined) {
      if (r.agentSessionId !== undefined) this.fold.bindings[r.agentSessionId] = r.sessionId;
      return r.sessionId;
    }
    if (r.agentSessionId !== undefined) return byAgentId(r.agentSessionId);
    if (r.kind !== 'wire') return undefined;
    const msg = r.msg;
    if (typeof msg.method === 'string') {
      const params = isJsonObject(msg.params) ? msg.params : undefined;
      return typeof params?.sessionId === 'string' ? byAgentId(params.sessionId) : undefined;
    }
    // An answer: to our request when it comes in, to the agent's when it goes out.
    if (r.dir !== 'in') return undefined;
    const req = this.fold.requests[`out:${String(msg.id)}`];
    return req && req.s !== '' ? req.s : undefined;
  }

  private summarize(s: SessionSummary, r: TraceRecord): void {
    const atMs = (this.state.header?.startedAtMs ?? 0) + r.t;
    switch (r.kind) {
      case 'session':
        s.action ??= r.action;
        if (r.agentSessionId) {
          s.agentSessionId ??= r.agentSessionId;
          this.fold.bindings[r.agentSessionId] = s.id;
        }
        if (r.cwd) s.cwd = r.cwd;
        if (r.lineage && !s.lineage) s.lineage = r.lineage;
        return;
      case 'session-meta':
        s.meta ??= {};
        if (r.title !== undefined) s.meta.title = { value: r.title, atMs };
        if (r.tags !== undefined) s.meta.tags = { value: r.tags, atMs };
        return;
      case 'fs-write':
        addUnique(s.filesChanged, r.path);
        return;
      case 'wire':
        return this.wire(s, r.dir, r.msg);
      default:
        return;
    }
  }

  private wire(s: SessionSummary, dir: 'in' | 'out', msg: JsonObject): void {
    const params = isJsonObject(msg.params) ? msg.params : undefined;
    if (dir === 'out') {
      if (typeof msg.method !== 'string' || !('id' in msg)) return;
      if (msg.method === 'session/prompt') {
        s.turns++;
        if (s.firstPrompt === undefined) {
          const title = promptTitle(params?.prompt);
          if (title) s.firstPrompt = title;
        }
        this.fold.requests[`out:${String(msg.id)}`] = { s: s.id, m: msg.method };
      } else if (OPENING.has(msg.method)) {
        if (s.cwd === undefined && typeof params?.cwd === 'string') s.cwd = params.cwd;
        this.fold.requests[`out:${String(msg.id)}`] = { s: s.id, m: msg.method };
      }
      return;
    }
    if (typeof msg.method !== 'string') return this.answer(s, msg);
    if (msg.method === 'session/request_permission') {
      s.permissionRequests++;
      const id = isJsonObject(params?.toolCall) ? params.toolCall.toolCallId : undefined;
      if (typeof id === 'string') this.tool(s, id);
      return;
    }
    if (msg.method !== 'session/update' || !isJsonObject(params?.update)) return;
    const u = params.update;
    switch (u.sessionUpdate) {
      case 'tool_call':
      case 'tool_call_update':
        if (typeof u.toolCallId === 'string') this.toolUpdate(s, u.toolCallId, u);
        return;
      case 'usage_update':
        if (typeof u.used === 'number') s.usage.contextUsed = u.used;
        if (typeof u.size === 'number') s.usage.contextSize = u.size;
        if (isJsonObject(u.cost) && typeof u.cost.amount === 'number' && typeof u.cost.currency === 'string') s.usage.cost = { amount: u.cost.amount, currency: u.cost.currency };
        return;
      case 'session_info_update':
        if ('title' in u && (typeof u.title === 'string' || u.title === null)) s.agentTitle = u.title;
        return;
      default:
        return;
    }
  }

  private answer(s: SessionSummary, msg: JsonObject): void {
    const key = `out:${String(msg.id)}`;
    const req = this.fold.requests[key];
    if (!req || req.s !== s.id) return;
    delete this.fold.requests[key];
    const result = isJsonObject(msg.result) ? msg.result : undefined;
    if (req.m === 'session/prompt') {
      if (typeof result?.stopReason === 'string') {
        s.stopReasons[result.stopReason] = (s.stopReasons[result.stopReason] ?? 0) + 1;
        s.lastStopReason = result.stopReason;
      } else if (msg.error !== undefined) {
        s.turnErrors++;
        s.lastStopReason = null;
      }
      if (isJsonObject(result?.usage)) {
        for (const [k, v] of Object.entries(result.usage)) if (typeof v === 'number' && Number.isFinite(v)) s.usage.tokens[k] = (s.usage.tokens[k] ?? 0) + v;
      }
    } else if (OPENING.has(req.m) && typeof result?.sessionId === 'string') {
      this.fold.bindings[result.sessionId] = s.id;
      s.agentSessionId ??= result.sessionId;
    }
  }

  private tool(s: SessionSummary, toolCallId: string): { status?: string; paths?: string[] } {
    const tools = (this.fold.tools[s.id] ??= {});
    let t = tools[toolCallId];
    if (!t) {
      t = tools[toolCallId] = {};
      s.toolCalls++;
    }
    return t;
  }

  private toolUpdate(s: SessionSummary, toolCallId: string, u: JsonObject): void {
    const t = this.tool(s, toolCallId);
    if (Array.isArray(u.content)) {
      for (const c of u.content) {
        if (isJsonObject(c) && c.type === 'diff' && typeof c.path === 'string') addUnique((t.paths ??= []), c.path);
      }
    }
    if (typeof u.status === 'string') t.status = u.status;
    if (t.status === 'completed') for (const p of t.paths ?? []) addUnique(s.filesChanged, p);
  }
}
