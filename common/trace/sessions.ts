/**
 * Sessions inside one connection's trace (`check` may open several on one agent process), and the
 * records that belong to one of them. Records the core tagged with a `sessionId` are routed by it;
 * untagged ones by the agent's session id in their params, and responses by the request they
 * answer. Connection-wide records (spawn, exit, stderr, initialize) belong to every session.
 */
import { isJsonObject, str } from './json';
import type { Lineage, SessionAction, TraceRecord } from './records';

export interface TraceSessionInfo {
  sessionId: string;
  agentSessionId?: string;
  action?: SessionAction;
  lineage?: Lineage;
  /** Time of its first record. */
  t: number;
}

export function listTraceSessions(records: readonly TraceRecord[]): TraceSessionInfo[] {
  const byId = new Map<string, TraceSessionInfo>();
  for (const r of records) {
    if (r.sessionId === undefined) continue;
    let info = byId.get(r.sessionId);
    if (!info) {
      info = { sessionId: r.sessionId, t: r.t };
      byId.set(r.sessionId, info);
    }
    if (info.agentSessionId === undefined && r.agentSessionId !== undefined) info.agentSessionId = r.agentSessionId;
    if (r.kind === 'session') {
      info.action ??= r.action;
      if (r.lineage && !info.lineage) info.lineage = r.lineage;
    }
  }
  return [...byId.values()];
}

/** The agent ids bound to each workbench session id. */
function agentIdsBySession(records: readonly TraceRecord[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.sessionId === undefined || r.agentSessionId === undefined) continue;
    let set = out.get(r.sessionId);
    if (!set) out.set(r.sessionId, (set = new Set()));
    set.add(r.agentSessionId);
  }
  return out;
}

const idKey = (dir: 'in' | 'out', id: unknown) => `${dir}:${typeof id}:${String(id)}`;

/** The records of one session plus the connection-wide ones, in trace order. */
export function recordsForSession(records: readonly TraceRecord[], sessionId: string): TraceRecord[] {
  const bound = agentIdsBySession(records);
  const mine = bound.get(sessionId) ?? new Set<string>();
  const others = new Set<string>();
  for (const [id, set] of bound) if (id !== sessionId) for (const a of set) if (!mine.has(a)) others.add(a);
  const belongsByAgentId = (agentId: string) => mine.has(agentId) || (mine.size === 0 && !others.has(agentId));

  // Requests (by direction and id) we kept, so their answers follow them.
  const keptRequests = new Set<string>();
  const out: TraceRecord[] = [];
  for (const r of records) {
    let keep: boolean;
    if (r.sessionId !== undefined) keep = r.sessionId === sessionId;
    else if (r.agentSessionId !== undefined) keep = belongsByAgentId(r.agentSessionId);
    else if (r.kind === 'wire') keep = wireBelongs(r.msg, r.dir, belongsByAgentId, keptRequests);
    else keep = true;
    if (!keep) continue;
    if (r.kind === 'wire' && typeof r.msg.method === 'string' && 'id' in r.msg) keptRequests.add(idKey(r.dir, r.msg.id));
    out.push(r);
  }
  return out;
}

function wireBelongs(
  msg: Record<string, unknown>,
  dir: 'in' | 'out',
  belongsByAgentId: (agentId: string) => boolean,
  keptRequests: ReadonlySet<string>,
): boolean {
  if (typeof msg.method === 'string') {
    const params = isJsonObject(msg.params) ? msg.params : undefined;
    const agentId = str(params, 'sessionId');
    return agentId === undefined || belongsByAgentId(agentId);
  }
  // A response travels the other way from its request.
  if (!keptRequests.has(idKey(dir === 'in' ? 'out' : 'in', msg.id))) return false;
  const result = isJsonObject(msg.result) ? msg.result : undefined;
  const created = str(result, 'sessionId');
  return created === undefined || belongsByAgentId(created);
}
