/**
 * Decides which workbench session each trace record of a connection belongs to, as the records
 * happen, and tags them (`sessionId`, `agentSessionId`) before they are written and reduced.
 *
 * Agents send updates before the `session/new` answer names the session (acp-reference §22.4), and
 * replay a whole conversation before answering `session/load`: records of an agent session id not
 * yet bound are held, and handed over — before the answer that binds them — when it arrives.
 * Records of no session (spawn, initialize, stderr, exit) go to every session of the connection.
 */
import type { TraceRecord } from '../../../common/trace/records';

type JsonObject = Record<string, unknown>;

/** Requests that open a session; the workbench session they open is announced before sending. */
const OPENERS = new Set(['session/new', 'session/load', 'session/resume', 'session/fork']);
/** Openers whose params name the agent session being opened (fork names its source instead). */
const OPENS_NAMED = new Set(['session/load', 'session/resume']);

export type Route =
  | { to: 'session'; sessionId: string; before?: TraceRecord[] }
  | { to: 'all' }
  | { to: 'held' };

const key = (dir: 'in' | 'out', id: unknown) => `${dir}:${typeof id}:${String(id)}`;

export class SessionRouter {
  private readonly byAgentId = new Map<string, string>();
  private readonly held = new Map<string, TraceRecord[]>();
  /** Requests by direction and id → the workbench session they belong to. */
  private readonly requestSession = new Map<string, { sessionId: string; method: string }>();
  private readonly opening: string[] = [];

  /** The next session-opening request sent opens this workbench session. */
  expectOpening(sessionId: string): void {
    this.opening.push(sessionId);
  }

  bind(agentSessionId: string, sessionId: string): void {
    this.byAgentId.set(agentSessionId, sessionId);
  }

  sessionOf(agentSessionId: string): string | undefined {
    return this.byAgentId.get(agentSessionId);
  }

  /** Tag the record in place and say where it goes. */
  route(record: TraceRecord): Route {
    if (record.kind === 'wire') this.tagWire(record.dir, record.msg, record);
    else if (record.sessionId === undefined && record.agentSessionId !== undefined) {
      const bound = this.byAgentId.get(record.agentSessionId);
      if (bound !== undefined) record.sessionId = bound;
    }
    if (record.sessionId !== undefined) {
      const before = record.agentSessionId !== undefined ? this.release(record.agentSessionId) : undefined;
      return before?.length ? { to: 'session', sessionId: record.sessionId, before } : { to: 'session', sessionId: record.sessionId };
    }
    if (record.agentSessionId !== undefined) {
      let list = this.held.get(record.agentSessionId);
      if (!list) this.held.set(record.agentSessionId, (list = []));
      list.push(record);
      return { to: 'held' };
    }
    return { to: 'all' };
  }

  /** Records held for an agent session id nobody claimed (for diagnostics, e.g. unknown session ids). */
  heldCount(): number {
    let n = 0;
    for (const list of this.held.values()) n += list.length;
    return n;
  }

  private release(agentSessionId: string): TraceRecord[] | undefined {
    const list = this.held.get(agentSessionId);
    if (!list) return undefined;
    this.held.delete(agentSessionId);
    const sessionId = this.byAgentId.get(agentSessionId);
    for (const r of list) if (sessionId !== undefined) r.sessionId = sessionId;
    return list;
  }

  private tagWire(dir: 'in' | 'out', msg: JsonObject, record: TraceRecord): void {
    const params = (typeof msg.params === 'object' && msg.params !== null ? msg.params : {}) as JsonObject;
    const paramAgentId = typeof params.sessionId === 'string' ? params.sessionId : undefined;
    const hasId = typeof msg.id === 'string' || typeof msg.id === 'number';

    if (typeof msg.method === 'string') {
      if (dir === 'out' && OPENERS.has(msg.method) && this.opening.length > 0) {
        const sessionId = this.opening.shift()!;
        record.sessionId = sessionId;
        if (OPENS_NAMED.has(msg.method) && paramAgentId !== undefined) {
          this.bind(paramAgentId, sessionId);
          record.agentSessionId = paramAgentId;
        }
        if (hasId) this.requestSession.set(key(dir, msg.id), { sessionId, method: msg.method });
        return;
      }
      if (paramAgentId !== undefined) {
        record.agentSessionId = paramAgentId;
        const sessionId = this.byAgentId.get(paramAgentId);
        if (sessionId !== undefined) {
          record.sessionId = sessionId;
          if (hasId) this.requestSession.set(key(dir, msg.id), { sessionId, method: msg.method });
        }
      }
      return;
    }
    // A response: it belongs where its request did (ours when it comes in, theirs when it goes out).
    if (!hasId) return;
    const requestKey = key(dir === 'in' ? 'out' : 'in', msg.id);
    const request = this.requestSession.get(requestKey);
    if (!request) return;
    this.requestSession.delete(requestKey);
    record.sessionId = request.sessionId;
    const result = (typeof msg.result === 'object' && msg.result !== null ? msg.result : {}) as JsonObject;
    if ((request.method === 'session/new' || request.method === 'session/fork') && typeof result.sessionId === 'string') {
      this.bind(result.sessionId, request.sessionId);
      record.agentSessionId = result.sessionId;
    } else {
      for (const [agentId, sessionId] of this.byAgentId) if (sessionId === request.sessionId) record.agentSessionId = agentId;
    }
  }
}
