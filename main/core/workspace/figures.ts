/**
 * The figures a comparison shows per agent, computed from the trace records of its session — a
 * pure function, so a live run and a run reopened from its traces give the same numbers. Counts
 * come from SessionStats (the `run --json` summary's figures); this adds what comparing needs:
 * turns, the time permission requests waited for an answer, and tool calls by kind.
 */
import type { TraceRecord } from '../../../common/trace/records';
import { recordsForSession } from '../../../common/trace/sessions';
import { rebuildTranscript } from '../../../common/transcript/rebuild';
import type { ToolCallEntry } from '../../../common/transcript/model';
import { SessionStats } from '../sessions/session-stats';
import type { AgentFigures } from './run-types';

type Json = Record<string, unknown>;

const idKey = (id: unknown) => `${typeof id}:${String(id)}`;

export function agentFigures(allRecords: readonly TraceRecord[], sessionId: string): AgentFigures {
  const records = recordsForSession(allRecords, sessionId);
  const stats = new SessionStats();
  for (const r of records) stats.add(r);
  const counted = stats.figures();

  // Turns: our session/prompt requests and their answers.
  const prompts = new Map<string, number>();
  let turns = 0;
  let durationMs: number | null = null;
  let firstPromptT: number | undefined;
  let firstUpdateMs: number | null = null;
  // Permission requests: from the agent's request to our answer.
  const asked = new Map<string, number>();
  const waits: Array<[number, number]> = [];

  for (const r of records) {
    if (r.kind !== 'wire') continue;
    const msg = r.msg as Json;
    if (r.dir === 'out' && msg.method === 'session/prompt') {
      turns++;
      prompts.set(idKey(msg.id), r.t);
      firstPromptT ??= r.t;
    } else if (r.dir === 'in' && msg.method === undefined && prompts.has(idKey(msg.id))) {
      durationMs = (durationMs ?? 0) + (r.t - prompts.get(idKey(msg.id))!);
      prompts.delete(idKey(msg.id));
    } else if (r.dir === 'in' && msg.method === 'session/update' && firstPromptT !== undefined && firstUpdateMs === null) {
      firstUpdateMs = Math.round(r.t - firstPromptT);
    } else if (r.dir === 'in' && msg.method === 'session/request_permission' && 'id' in msg) {
      asked.set(idKey(msg.id), r.t);
    } else if (r.dir === 'out' && msg.method === undefined && asked.has(idKey(msg.id))) {
      waits.push([asked.get(idKey(msg.id))!, r.t]);
      asked.delete(idKey(msg.id));
    }
  }

  const toolCallsByKind: Record<string, number> = {};
  const transcript = rebuildTranscript(records);
  let lastAnswer: string | null = null;
  for (let i = transcript.ids.length - 1; i >= 0 && lastAnswer === null; i--) {
    const entry = transcript.entries[transcript.ids[i]!];
    if (entry?.kind === 'agent_message') lastAnswer = cutAnswer(entry.content.map((b) => (b.type === 'text' ? b.text : '')).join(''));
  }
  for (const id of transcript.ids) {
    const entry = transcript.entries[id];
    if (entry?.kind !== 'tool_call') continue;
    const kind = (entry as ToolCallEntry).toolKind || 'other';
    toolCallsByKind[kind] = (toolCallsByKind[kind] ?? 0) + 1;
  }

  return {
    stopReason: counted.stopReason,
    turns,
    updates: counted.updates,
    firstUpdateMs,
    durationMs: durationMs === null ? null : Math.round(durationMs),
    permissionWaitMs: Math.round(unionLength(waits)),
    toolCalls: counted.toolCalls,
    toolCallsByKind,
    permissionRequests: counted.permissionRequests,
    usage: counted.usage,
    lastAnswer,
  };
}

/** Characters of the last answer kept with the figures (the comparison shows it; the trace has it all). */
export const LAST_ANSWER_CHARS = 4000;

function cutAnswer(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= LAST_ANSWER_CHARS ? trimmed : `${trimmed.slice(0, LAST_ANSWER_CHARS)}…`;
}

/** Total length covered by the intervals (two requests waiting at once count once). */
export function unionLength(intervals: ReadonlyArray<readonly [number, number]>): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (s > end) {
      if (end > start) total += end - start;
      start = s;
      end = e;
    } else if (e > end) end = e;
  }
  if (end > start) total += end - start;
  return total;
}

/**
 * The figures of an agent whose work went on in a second session (a run reopened after a restart):
 * counts and times add up; the stop reason and usage are the latest session's (usage is what the
 * agent last reported, not a sum: agents report context use, which does not add).
 */
export function addFigures(before: AgentFigures, after: AgentFigures): AgentFigures {
  const byKind = { ...before.toolCallsByKind };
  for (const [kind, n] of Object.entries(after.toolCallsByKind)) byKind[kind] = (byKind[kind] ?? 0) + n;
  const sumOrNull = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
  return {
    stopReason: after.stopReason ?? before.stopReason,
    turns: before.turns + after.turns,
    updates: before.updates + after.updates,
    firstUpdateMs: before.firstUpdateMs ?? after.firstUpdateMs,
    durationMs: sumOrNull(before.durationMs, after.durationMs),
    permissionWaitMs: before.permissionWaitMs + after.permissionWaitMs,
    toolCalls: before.toolCalls + after.toolCalls,
    toolCallsByKind: byKind,
    permissionRequests: before.permissionRequests + after.permissionRequests,
    lastAnswer: after.lastAnswer ?? before.lastAnswer ?? null,
    usage: after.usage ?? before.usage,
  };
}
