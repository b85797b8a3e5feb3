/** Rules about the order of things: turns, cancellation, tool calls, session loading. */
import { CONVERSATION_KINDS, type ConformanceContext, type Turn } from '../context';
import { docsLink, IN_ANSWERS, IN_CALLS, type FindingDraft, type Rule } from '../types';

type Json = Record<string, unknown>;

/** The turn the current incoming answer ends, when it answers a session's running prompt. */
function endedTurn(ctx: ConformanceContext): Turn | undefined {
  const request = ctx.current.answers;
  if (request?.method !== 'session/prompt' || !request.sessionId) return undefined;
  const turn = ctx.sessions.get(request.sessionId)?.turn;
  return turn?.prompt === request ? turn : undefined;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

export const updateAfterTurn: Rule = {
  id: 'update-after-turn',
  severity: 'error',
  rationale: 'In ACP v1 a turn ends with the session/prompt answer; content sent after it lands outside any turn.',
  docs: docsLink('update-after-turn'),
  on: IN_CALLS,
  observe(record, line, ctx) {
    const c = ctx.current;
    if (record.kind !== 'wire' || record.dir !== 'in' || !c.sessionId || !c.updateKind || !CONVERSATION_KINDS.has(c.updateKind)) return;
    const ended = ctx.sessions.get(c.sessionId)?.ended;
    if (!ended) return;
    return {
      key: `${c.sessionId}:${ended.line}`,
      message: `session/update "${c.updateKind}" arrived after the session/prompt answer that ended the turn`,
      evidence: [ended.line, line],
    };
  },
};

export const toolCallUpdateUnknownId: Rule = {
  id: 'tool-call-update-unknown-id',
  severity: 'warning',
  rationale: 'A tool_call_update patches a tool call announced by tool_call; for an unknown id the client has nothing to patch.',
  docs: docsLink('tool-call-update-unknown-id'),
  on: IN_CALLS,
  observe(record, line, ctx) {
    const c = ctx.current;
    if (record.kind !== 'wire' || record.dir !== 'in' || c.updateKind !== 'tool_call_update' || !c.sessionId) return;
    const id = c.update?.toolCallId;
    if (typeof id !== 'string' || ctx.sessions.get(c.sessionId)?.toolCalls.has(id)) return;
    return { key: `${c.sessionId}:${id}`, message: `tool_call_update for "${id}", which no tool_call announced`, evidence: [line] };
  },
};

export const permissionUnknownToolCall: Rule = {
  id: 'permission-unknown-tool-call',
  severity: 'warning',
  rationale: 'A permission request should be about a tool call the user has seen announced, so the client can show what it is for.',
  docs: docsLink('permission-unknown-tool-call'),
  on: IN_CALLS,
  observe(record, line, ctx) {
    const c = ctx.current;
    if (record.kind !== 'wire' || record.dir !== 'in' || c.method !== 'session/request_permission' || !c.sessionId) return;
    const id = (c.params?.toolCall as Json | undefined)?.toolCallId;
    if (typeof id !== 'string' || ctx.sessions.get(c.sessionId)?.toolCalls.has(id)) return;
    return { key: `${c.sessionId}:${id}`, message: `Permission requested for tool call "${id}", which no tool_call announced`, evidence: [line] };
  },
};

export const cancelUnanswered: Rule = {
  id: 'cancel-unanswered',
  severity: 'error',
  rationale: 'After session/cancel the agent must stop and answer the prompt promptly; a user who pressed stop is otherwise left waiting.',
  docs: docsLink('cancel-unanswered'),
  tick(t, ctx) {
    let drafts: FindingDraft[] | undefined;
    for (const session of ctx.sessions.values()) {
      const turn = session.turn;
      if (!turn?.cancel || turn.reported.has(this.id) || t - turn.cancel.t <= ctx.cancelTimeoutMs) continue;
      turn.reported.add(this.id);
      (drafts ??= []).push({ message: `The prompt was not answered within ${seconds(ctx.cancelTimeoutMs)} of session/cancel`, evidence: [turn.prompt.line, turn.cancel.line] });
    }
    return drafts;
  },
};

export const cancelStopReason: Rule = {
  id: 'cancel-stop-reason',
  severity: 'error',
  rationale: 'A cancelled turn must end with stopReason "cancelled" (even if the agent\'s internals threw), so the client knows it stopped.',
  docs: docsLink('cancel-stop-reason'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in') return;
    const turn = endedTurn(ctx);
    if (!turn?.cancel) return;
    const msg = record.msg as Json;
    if (Object.hasOwn(msg, 'error')) {
      return { message: 'After session/cancel the prompt was answered with an error instead of stopReason "cancelled"', evidence: [line, turn.cancel.line] };
    }
    const stopReason = (msg.result as Json | null)?.stopReason;
    if (stopReason === 'cancelled') return;
    return { message: `After session/cancel the prompt ended with stopReason ${JSON.stringify(stopReason)}, not "cancelled"`, evidence: [line, turn.cancel.line] };
  },
};

export const cancelLeftRequests: Rule = {
  id: 'cancel-left-requests',
  severity: 'warning',
  rationale: 'A cancelled turn should end after its pending requests to the client are answered or withdrawn ($/cancel_request), not leave them dangling.',
  docs: docsLink('cancel-left-requests'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in') return;
    const turn = endedTurn(ctx);
    if (!turn?.cancel) return;
    const sessionId = turn.prompt.sessionId;
    const left = [...ctx.incoming.values()].filter((r) => r.sessionId === sessionId && !r.withdrawn);
    if (left.length === 0) return;
    return {
      message: `The cancelled turn ended while ${left.length} of its request(s) to the client were still pending (${[...new Set(left.map((r) => r.method))].join(', ')})`,
      evidence: [line, turn.cancel.line, ...left.map((r) => r.line)],
    };
  },
};

export const loadReplayedNothing: Rule = {
  id: 'load-replayed-nothing',
  severity: 'warning',
  rationale: 'session/load must replay the conversation as session/update notifications before answering; otherwise the client shows an empty session.',
  docs: docsLink('load-replayed-nothing'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    const request = ctx.current.answers;
    if (record.kind !== 'wire' || record.dir !== 'in' || request?.method !== 'session/load' || request.updates > 0) return;
    if (!Object.hasOwn(record.msg, 'result') || Object.hasOwn(record.msg, 'error')) return;
    return { key: String(request.sessionId), message: `session/load of "${String(request.sessionId)}" was answered without replaying any conversation (no message, thought, tool call or plan update)`, evidence: [line, request.line] };
  },
};
