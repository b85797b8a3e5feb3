/**
 * Tool calls (acp-reference §8, §22.7–9): `tool_call` upserts by id (agents re-send it),
 * `tool_call_update` patches only the fields present (`content`/`locations` replace), an unknown id
 * creates the entry lazily from whatever arrived, and nothing a later message carries may erase a
 * diff the user has to review — a re-sent `tool_call` without one keeps it.
 */
import { isJsonObject, str, type JsonObject } from '../trace/json';
import type { ToolCallStatus } from './acp-types';
import type { EntryFlag } from './model';
import { asLocations, asToolCallContent, hasDiff } from './normalize';
import type { ToolCallFields } from './patches';
import { packToolCallInfo, toolCallInfo, unpackToolCallInfo, type ToolCallInfo } from './tool-call-index';
import type { Step } from './step';
import { appendUnknownUpdate } from './unknown';
import { onAgentTerminalMeta } from './agent-terminals';

const RUNNING = new Set<string>(['pending', 'in_progress']);

export function isRunning(status: string): boolean {
  return RUNNING.has(status);
}

/** The fields present in a ToolCall / ToolCallUpdate; `null` means "unchanged" like absence. */
export function toolCallFields(u: JsonObject): ToolCallFields {
  const f: ToolCallFields = {};
  if (typeof u.title === 'string') f.title = u.title;
  if (typeof u.name === 'string') f.name = u.name;
  if (typeof u.kind === 'string') f.toolKind = u.kind;
  if (typeof u.status === 'string') f.status = u.status;
  if (Array.isArray(u.content)) f.content = asToolCallContent(u.content);
  if (Array.isArray(u.locations)) f.locations = asLocations(u.locations);
  if (u.rawInput !== undefined && u.rawInput !== null) f.rawInput = u.rawInput;
  if (u.rawOutput !== undefined && u.rawOutput !== null) f.rawOutput = u.rawOutput;
  if (isJsonObject(u._meta)) f.meta = u._meta;
  return f;
}

const isEmptyObject = (v: unknown) => isJsonObject(v) && Object.keys(v).length === 0;

function infoAfter(old: ToolCallInfo, f: ToolCallFields): ToolCallInfo {
  const next: ToolCallInfo = {
    entryId: old.entryId,
    status: f.status ?? old.status,
    hasContent: f.content ? f.content.length > 0 : old.hasContent,
    hasDiff: f.content ? hasDiff(f.content) : old.hasDiff,
    hasRawInput: f.rawInput !== undefined ? !isEmptyObject(f.rawInput) : old.hasRawInput,
  };
  const same =
    next.status === old.status && next.hasContent === old.hasContent && next.hasDiff === old.hasDiff && next.hasRawInput === old.hasRawInput;
  return same ? old : next;
}

function track(step: Step, toolCallId: string, old: ToolCallInfo, f: ToolCallFields): void {
  const next = infoAfter(old, f);
  if (next !== old) step.map('toolCalls').set(toolCallId, packToolCallInfo(next));
  if (isRunning(next.status)) step.s.activeToolCallId = toolCallId;
  else if (step.s.activeToolCallId === toolCallId) step.s.activeToolCallId = undefined;
}

/** Creates the entry for a tool call first seen now; returns its info. */
function create(step: Step, toolCallId: string, f: ToolCallFields, flags: EntryFlag[]): ToolCallInfo {
  const content = f.content ?? [];
  const entryId = step.append(
    {
      kind: 'tool_call',
      toolCallId,
      title: f.title ?? '',
      toolKind: f.toolKind ?? 'other',
      status: f.status ?? 'pending',
      content,
      locations: f.locations ?? [],
      permissions: [],
      ...(f.name !== undefined ? { name: f.name } : {}),
      ...(f.rawInput !== undefined ? { rawInput: f.rawInput } : {}),
      ...(f.rawOutput !== undefined ? { rawOutput: f.rawOutput } : {}),
      ...(f.meta !== undefined ? { meta: f.meta } : {}),
    },
    flags,
  );
  const info: ToolCallInfo = {
    entryId,
    status: f.status ?? 'pending',
    hasContent: content.length > 0,
    hasDiff: hasDiff(content),
    hasRawInput: f.rawInput !== undefined && !isEmptyObject(f.rawInput),
  };
  step.map('toolCalls').set(toolCallId, packToolCallInfo(info));
  if (isRunning(info.status)) step.s.activeToolCallId = toolCallId;
  return info;
}

/** Drops an empty `rawInput` that would erase a real one (Claude's first `tool_call` has `{}`). */
function protect(info: ToolCallInfo, f: ToolCallFields): ToolCallFields {
  const out = { ...f };
  if (out.rawInput !== undefined && isEmptyObject(out.rawInput) && info.hasRawInput) delete out.rawInput;
  return out;
}

export function onToolCall(step: Step, update: JsonObject): void {
  const toolCallId = str(update, 'toolCallId');
  if (toolCallId === undefined) return appendUnknownUpdate(step, update);
  step.disarmEcho();
  const f = toolCallFields(update);
  onAgentTerminalMeta(step, f.meta);
  const info = toolCallInfo(step.s.toolCalls, toolCallId);
  if (!info) {
    create(step, toolCallId, f, []);
    return;
  }
  // A re-sent `tool_call` (claude-code-acp 0.16) is a partial restatement, not a replacement.
  const patch = protect(info, f);
  let keepDiffs = false;
  if (patch.content && info.hasDiff && !hasDiff(patch.content)) {
    if (patch.content.length === 0) delete patch.content;
    else keepDiffs = true;
  }
  step.emit({ op: 'add-flag', id: info.entryId, flag: 'tool-call-resent' });
  step.emit({ op: 'patch-tool-call', id: info.entryId, fields: patch, ...(keepDiffs ? { keepDiffs } : {}) });
  track(step, toolCallId, info, keepDiffs ? { ...patch, content: undefined } : patch);
}

export function onToolCallUpdate(step: Step, update: JsonObject): void {
  const toolCallId = str(update, 'toolCallId');
  if (toolCallId === undefined) return appendUnknownUpdate(step, update);
  step.disarmEcho();
  const f = toolCallFields(update);
  onAgentTerminalMeta(step, f.meta);
  const info = toolCallInfo(step.s.toolCalls, toolCallId);
  if (!info) {
    create(step, toolCallId, f, ['created-lazily']);
    return;
  }
  step.emit({ op: 'patch-tool-call', id: info.entryId, fields: f });
  track(step, toolCallId, info, f);
}

/** Marks every still-running tool call with a local status (v1 has no `cancelled`, §8.1). */
export function settleRunningToolCalls(step: Step, status: ToolCallStatus): void {
  // Only the running ones' ids are read out of the table (a long session has thousands of tool calls).
  const running = [...step.s.toolCalls.entriesWhere((stored) => isRunning(unpackToolCallInfo(stored).status))];
  for (const [toolCallId, stored] of running) {
    const info = unpackToolCallInfo(stored);
    step.emit({ op: 'patch-tool-call', id: info.entryId, fields: { status } });
    step.map('toolCalls').set(toolCallId, packToolCallInfo({ ...info, status }));
  }
  step.s.activeToolCallId = undefined;
}

/**
 * Finds or lazily creates the tool call a permission request is about, merging the request's
 * fields without letting its content replace the call's own (codex sends reason text there).
 */
export function toolCallForPermission(
  step: Step,
  toolCall: JsonObject | undefined,
  fallbackId: string,
): { entryId: string; merged: boolean; hadDiff: boolean } {
  const toolCallId = str(toolCall, 'toolCallId') ?? fallbackId;
  const f = toolCall ? toolCallFields(toolCall) : {};
  delete f.status;
  const info = toolCallInfo(step.s.toolCalls, toolCallId);
  if (!info) {
    const created = create(step, toolCallId, f, ['created-lazily']);
    step.s.activeToolCallId = toolCallId;
    return { entryId: created.entryId, merged: true, hadDiff: false };
  }
  const patch = protect(info, f);
  const merged = patch.content !== undefined && !info.hasContent;
  if (!merged) delete patch.content;
  if (Object.keys(patch).length > 0) step.emit({ op: 'patch-tool-call', id: info.entryId, fields: patch });
  track(step, toolCallId, info, patch);
  step.s.activeToolCallId = toolCallId;
  return { entryId: info.entryId, merged, hadDiff: info.hasDiff };
}
