/**
 * Turns (acp-reference §17): our `session/prompt` starts one and gives the user's entry; its answer
 * ends it with the stop reason and per-turn usage; `session/cancel` marks it cancelling, and tool
 * calls still running when it ends cancelled become `cancelled`. An agent that dies mid-turn ends
 * the turn too — with the stderr tail, where the real cause usually is (§22.23).
 */
import { obj, str, type JsonObject, type JsonValue } from '../trace/json';
import type { ExitRecord, JsonRpcId, SpawnRecord } from '../trace/records';
import type { TurnEndEntry } from './model';
import { asContentBlocks, errorOf } from './normalize';
import { rpcKey, type OurRequest } from './reducer-state';
import type { Step } from './step';
import { settleRunningToolCalls } from './tool-calls';

export interface PromptInput {
  requestId: JsonRpcId;
  /** Absent when only the workbench event was seen and it did not carry the blocks. */
  prompt?: JsonValue[] | undefined;
  origin?: string | undefined;
  /** Legacy `PromptRequest.messageId` (§17.4), used to recognise the agent's echo. */
  messageId?: string | undefined;
}

/** Idempotent per request id: the wire line and the `prompt` event may both arrive, in either order. */
export function startTurn(step: Step, input: PromptInput): void {
  const key = rpcKey(input.requestId);
  const known = step.s.prompts.get(key);
  if (known?.entryId !== undefined) {
    if (input.origin !== undefined && known.origin === undefined) {
      step.emit({ op: 'patch-entry', id: known.entryId, fields: { origin: input.origin } });
      step.map('prompts').set(key, { ...known, origin: input.origin });
    }
    return;
  }
  const origin = input.origin ?? known?.origin;
  if (input.prompt === undefined) {
    step.map('prompts').set(key, { ...(origin !== undefined ? { origin } : {}) });
    return;
  }
  const turn = step.turn();
  turn.n += 1;
  turn.status = 'running';
  turn.startT = step.t;
  turn.cancelRequested = false;
  turn.answered = false;
  turn.planEntryId = turn.usageEntryId = turn.commandsEntryId = turn.infoEntryId = undefined;
  const entryId = step.append({
    kind: 'user_message',
    content: asContentBlocks(input.prompt),
    requestId: input.requestId,
    ...(origin !== undefined ? { origin } : {}),
    ...(input.messageId !== undefined ? { messageId: input.messageId } : {}),
  });
  turn.echo = { entryId, armed: true, flagged: false, ...(input.messageId !== undefined ? { messageId: input.messageId } : {}) };
  step.map('prompts').set(key, { entryId, ...(origin !== undefined ? { origin } : {}) });
  step.setSession({ turn: turn.n, turnStatus: 'running' });
}

/** `session/cancel` sent (or the workbench's `cancel` event): the turn is ending. */
export function requestCancel(step: Step): void {
  if (step.s.turn.status !== 'running') return;
  const turn = step.turn();
  turn.status = 'cancelling';
  turn.cancelRequested = true;
  step.setSession({ turnStatus: 'cancelling' });
}

/** The agent answered our `session/prompt`. */
export function endTurn(step: Step, request: OurRequest, msg: JsonObject): void {
  const end: Omit<TurnEndEntry, 'id' | 't' | 'turn' | 'kind'> = { stopReason: null, durationMs: round(step.t - request.t) };
  if (msg.error !== undefined) {
    const error = errorOf(msg.error);
    appendError(step, { ...error, method: 'session/prompt', source: 'response' });
    end.error = { message: error.message, ...(error.code !== undefined ? { code: error.code } : {}) };
  } else {
    const result = obj(msg, 'result');
    end.stopReason = str(result, 'stopReason') ?? null;
    const usage = obj(result, 'usage');
    const meta = obj(result, '_meta');
    if (usage) end.usage = usage;
    if (meta) end.meta = meta;
  }
  const cancelled = end.stopReason === 'cancelled' || (end.stopReason === null && step.s.turn.cancelRequested);
  if (cancelled) settleRunningToolCalls(step, 'cancelled');
  step.append({ kind: 'turn_end', ...end });
  if (request.turn === step.s.turn.n) finishTurn(step);
}

function finishTurn(step: Step): void {
  const turn = step.turn();
  turn.status = 'idle';
  turn.cancelRequested = false;
  turn.answered = true;
  turn.echo = undefined;
  step.setSession({ turnStatus: 'idle' });
}

export function appendError(
  step: Step,
  e: { message: string; code?: number; data?: JsonValue; method?: string; source: 'response' | 'exit' | 'spawn' },
): void {
  const stderrTail = step.s.stderrTail.length > 0 ? [...step.s.stderrTail] : undefined;
  step.append({ kind: 'error', ...e, ...(stderrTail ? { stderrTail } : {}) });
}

export function onSpawn(step: Step, r: SpawnRecord): void {
  if (r.error) {
    appendError(step, { message: `The agent could not be started: ${r.error.message}`, source: 'spawn' });
    return;
  }
  if (r.pid !== undefined) step.s.pid = r.pid;
  step.setSession({ process: { ...(r.pid !== undefined ? { pid: r.pid } : {}) } });
}

export function onExit(step: Step, r: ExitRecord): void {
  const how = r.signal ? `signal ${r.signal}` : `code ${r.code}`;
  step.setSession({ process: { ...(step.s.pid !== undefined ? { pid: step.s.pid } : {}), exited: { code: r.code, signal: r.signal } } });
  for (const [key, request] of step.s.theirs) {
    if (request.method !== 'session/request_permission') continue;
    const known = step.s.permissions.get(key);
    if (known) step.emit({ op: 'upsert-permission', id: known.entryId, permission: { requestId: idOf(key), status: 'cancelled', decidedBy: 'exit', decidedT: step.t } });
  }
  step.s.theirs = new Map();
  step.s.loading = false;
  if (step.s.turn.status !== 'idle') {
    const message = `The agent process exited (${how}) during the turn.`;
    appendError(step, { message, source: 'exit' });
    settleRunningToolCalls(step, 'cancelled');
    step.append({ kind: 'turn_end', stopReason: null, error: { message }, ...(step.s.turn.startT !== undefined ? { durationMs: round(step.t - step.s.turn.startT) } : {}) });
    finishTurn(step);
  } else if (!r.expected && (r.code !== 0 || r.signal)) {
    appendError(step, { message: `The agent process exited unexpectedly (${how}).`, source: 'exit' });
  } else if (!r.expected) {
    step.append({ kind: 'notice', severity: 'info', title: `The agent process exited (${how}).`, source: 'workbench' });
  }
  step.s.ours = new Map();
}

/** Inverse of rpcKey, for ids we only have as keys. */
function idOf(key: string): JsonRpcId {
  if (key.startsWith('n:')) return Number(key.slice(2));
  if (key.startsWith('s:')) return key.slice(2);
  return null;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
