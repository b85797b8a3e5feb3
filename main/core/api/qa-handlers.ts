/**
 * The QA requests (issue #9) over the live sessions: the protocol inspector of a session's
 * connection (windows, one message, export), its live conformance findings, fault rules and manual
 * answers, and the raw request composer (sent through the unchecked path, marked so in the trace).
 */
import type { InspectorDir, InspectorFilter, InspectorKind, RawRequestResult } from '../../../common/api/qa-types';
import { INSPECTOR_KINDS } from '../../../common/api/qa-types';
import { ApiError } from '../../../common/api/errors';
import { clientCapabilities } from '../acp/client-capabilities';
import { FaultRuleError } from '../qa/faults/fault-rules';
import { composerTemplates } from '../qa/inspector/templates';
import type { SessionManager } from '../sessions/session-manager';
import type { RequestHandlers } from './handlers';

type QaRequests = Pick<
  RequestHandlers,
  | 'inspector/window'
  | 'inspector/message'
  | 'inspector/export'
  | 'qa/findings'
  | 'qa/state'
  | 'qa/set-rules'
  | 'qa/manual-answer'
  | 'qa/raw-request'
  | 'qa/templates'
>;

export const RAW_REQUEST_TIMEOUT_MS = 60_000;

function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null || value === '') throw new ApiError({ code: 'bad_params', message: `missing ${what}` });
  return value;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/** The filter fields of a request, checked (unknown values are dropped, not trusted). */
export function filterOf(p: InspectorFilter): InspectorFilter {
  const f: InspectorFilter = {};
  if (p.scope === 'connection' || p.scope === 'session') f.scope = p.scope;
  const dirs = strings(p.dirs)?.filter((d): d is InspectorDir => d === 'in' || d === 'out');
  if (dirs?.length) f.dirs = dirs;
  const kinds = strings(p.kinds)?.filter((k): k is InspectorKind => (INSPECTOR_KINDS as readonly string[]).includes(k));
  if (kinds?.length) f.kinds = kinds;
  const methods = strings(p.methods);
  if (methods?.length) f.methods = methods;
  const updateKinds = strings(p.updateKinds);
  if (updateKinds?.length) f.updateKinds = updateKinds;
  if (typeof p.search === 'string' && p.search.trim()) f.search = p.search;
  if (Array.isArray(p.indexes)) f.indexes = p.indexes.filter((i): i is number => typeof i === 'number');
  return f;
}

function rpcError(err: unknown): NonNullable<RawRequestResult['error']> {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  return {
    ...(typeof e?.code === 'number' ? { code: e.code } : {}),
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(e?.data !== undefined ? { data: e.data } : {}),
  };
}

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'agent';

export function qaHandlers(sessions: SessionManager): QaRequests {
  const qaOf = (p: { sessionId?: string } | undefined) => sessions.qaOf(need(p?.sessionId, 'sessionId'));
  return {
    'inspector/window': async (p) => qaOf(p).qa.inspector.window(p.sessionId, filterOf(p), { offset: p.offset ?? 0, limit: Number(p.limit ?? 0), ...(typeof p.locate === 'number' ? { locate: p.locate } : {}) }),
    'inspector/message': async (p) => {
      const found = await qaOf(p).qa.inspector.message(Number(p.index));
      if (!found) throw new ApiError({ code: 'not_found', message: `No message ${String(p.index)} in this session's inspector` });
      return { row: found.row, record: found.record as unknown as Record<string, unknown> };
    },
    'inspector/export': async (p) => {
      const { qa, session } = qaOf(p);
      const { text, count } = await qa.inspector.exportJsonl(p.sessionId, filterOf(p));
      return { text, count, fileName: `inspector-${fileSafe(session.connection.label)}-${p.sessionId}.jsonl` };
    },
    'qa/findings': (p) => qaOf(p).qa.findings(),
    'qa/state': (p) => {
      const { qa, session } = qaOf(p);
      return { rules: qa.faults.list(), pending: qa.faults.pending(), clientCapabilities: clientCapabilities(session.connection.switches) };
    },
    'qa/set-rules': (p) => {
      const { qa } = qaOf(p);
      try {
        return qa.faults.setRules(p.rules);
      } catch (err) {
        if (err instanceof FaultRuleError) throw new ApiError({ code: 'bad_params', message: err.message });
        throw err;
      }
    },
    'qa/manual-answer': (p) => {
      const { qa } = qaOf(p);
      need(p.key, 'key');
      if (p.error !== undefined) {
        const e = p.error as { code?: unknown; message?: unknown; data?: unknown };
        if (typeof e?.code !== 'number' || !Number.isInteger(e.code)) throw new ApiError({ code: 'bad_params', message: 'An error answer needs an integer code' });
        const error = { code: e.code, message: typeof e.message === 'string' ? e.message : '', ...(e.data !== undefined ? { data: e.data } : {}) };
        return { answered: qa.faults.answer(p.key, { error }) };
      }
      return { answered: qa.faults.answer(p.key, { result: p.result ?? null }) };
    },
    'qa/raw-request': async (p) => {
      const { session } = qaOf(p);
      const method = need(typeof p.method === 'string' ? p.method.trim() : undefined, 'method');
      const conn = session.connection;
      if (conn.process.exitInfo || conn.stopping) throw new ApiError({ code: 'not_available', message: `${conn.label} is not running`, hint: 'Restart the session, then send again.' });
      const params = p.params === undefined ? {} : p.params;
      const started = performance.now();
      const ms = () => Math.round((performance.now() - started) * 10) / 10;
      if (p.notification) {
        try {
          await conn.notify(method, params);
          return { ok: true, notification: true, ms: ms() };
        } catch (err) {
          return { ok: false, notification: true, error: rpcError(err), ms: ms() };
        }
      }
      const timeoutMs = Math.min(600_000, Math.max(100, Number(p.timeoutMs) || RAW_REQUEST_TIMEOUT_MS));
      const answer = conn.requestUnchecked(method, params, { again: true }).then(
        (result) => ({ ok: true as const, result: result ?? null }),
        (err: unknown) => ({ ok: false as const, error: rpcError(err) }),
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const first = await Promise.race([answer, timeout]);
      clearTimeout(timer);
      if (first === 'timeout') return { ok: false, timedOut: true, error: { message: `No answer within ${timeoutMs / 1000} s (the request stays pending on the agent's side)` }, ms: ms() };
      return { ...first, ms: ms() };
    },
    'qa/templates': (p) => {
      const { session, cwd } = qaOf(p);
      return composerTemplates({ init: session.connection.init as unknown as Record<string, unknown> | undefined, agentSessionId: session.agentSessionId, cwd });
    },
  };
}
