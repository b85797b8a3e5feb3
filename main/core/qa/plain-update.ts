/**
 * The conformance engine's fast path for what a flood is made of: plain `session/update`
 * notifications. For such a record every rule of the default set (rules/index.ts) that the full
 * path would call is silent, and the record only moves the context's counters; this module says
 * whether a record is one, and if so applies it to the context without calling the rules one by
 * one. Anything else — however small the difference — goes the full path, which judges it as
 * before. `engine.test.ts` / `plain-update.test.ts` hold the reports of both paths identical.
 *
 * Why each rule of the default set is silent for a record `takePlainUpdate` takes (a notification
 * from the agent, `jsonrpc` "2.0", no `id`, valid UTF-8, params in a plain shape):
 * - stdout-noise, oversize-line, result-and-error, unknown-response-id, schema-result, protocol-version,
 *   advertised-method-missing, unadvertised-method-answered, advertised-content-refused,
 *   unadvertised-content-accepted, cancel-stop-reason, cancel-left-requests, load-replayed-nothing:
 *   never called for a notification (their `on`);
 * - jsonrpc-envelope: the envelope has no problem (the checks above) and the line is valid UTF-8;
 * - schema-params, schema-tolerated: `acpSchema().plainUpdate` — the full validation is clean;
 * - unknown-method, unknown-update-kind: `plainUpdate` is true only when the schema defines the
 *   method and every plain kind;
 * - unadvertised-client-method, permission-unknown-tool-call: only for other methods;
 * - unadvertised-update: no plain kind needs a client capability (checked below, once) and none
 *   carries config options;
 * - update-after-turn: taken only when the session has no ended turn (every plain kind is a
 *   conversation kind);
 * - tool-call-update-unknown-id: a `tool_call_update` is taken only for an announced id;
 * - cancel-unanswered (a time rule, asked before every record): taken only when no running turn
 *   has a cancel pending (`cancelledTurns`), so it has nothing to judge.
 */
import type { TraceRecord } from '../../../common/trace/records';
import { CONVERSATION_KINDS, type ConformanceContext } from './context';
import { unadvertisedUpdateCapability } from './gates';
import { acpSchema } from './schema/acp-schema';
import { PLAIN_UPDATE_KINDS } from './schema/plain-updates';

type Json = Record<string, unknown>;

/**
 * The fast path holds only while every plain kind is a conversation kind and none is gated by a
 * client capability (with no capability advertised at all, none is asked for): a change to either
 * list turns it off instead of making it wrong.
 */
const PLAIN_KINDS_SILENT = PLAIN_UPDATE_KINDS.every((k) => CONVERSATION_KINDS.has(k) && unadvertisedUpdateCapability(k, {}) === undefined);

/**
 * If `record` is a plain update that no rule of the default set reports on, apply it to `ctx`
 * (as `begin`/`end` would, `lastT` included) and return true; else change nothing and return false.
 */
export function takePlainUpdate(record: TraceRecord, ctx: ConformanceContext): boolean {
  if (record.kind !== 'wire' || record.dir !== 'in' || record.invalidUtf8 || ctx.cancelledTurns !== 0) return false;
  const msg = record.msg as Json;
  if (typeof msg !== 'object' || msg === null || msg.method !== 'session/update' || msg.jsonrpc !== '2.0' || 'id' in msg) return false;
  const params = msg.params as Json;
  if (!PLAIN_KINDS_SILENT || !acpSchema().plainUpdate(params)) return false;
  // plainUpdate: params is { sessionId: string, update: { sessionUpdate: a plain kind, ... } }.
  const sessionId = params.sessionId as string;
  const update = params.update as Json;
  const kind = update.sessionUpdate as string;
  const session = ctx.sessions.get(sessionId);
  if (session?.ended) return false;
  if (kind === 'tool_call_update' && session?.toolCalls.has(update.toolCallId as string) !== true) return false;
  ctx.applyUpdate(sessionId, kind, update, session);
  ctx.lastT = Math.max(ctx.lastT, record.t);
  return true;
}
