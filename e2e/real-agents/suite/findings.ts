/**
 * What the suite itself notices an agent doing off the protocol's usual path, read from the
 * rebuilt transcript and the trace. A stand-in until the conformance engine (main/core/qa/) can
 * judge traces; see conformance.ts. Findings are facts about the agent, not failures of the suite.
 */
import type { TraceRecord } from '../../../common/trace/records';
import type { EntryFlag, PlanEntryItem } from '../../../common/transcript/model';
import type { RebuiltRun } from './trace-check';
import { entries, toolCallEntries } from './trace-check';

export interface Finding {
  id: string;
  level: 'info' | 'warning';
  message: string;
}

/** Transcript flags worth a finding; tool-call ordering is judged from the wire below, more precisely. */
const FLAG_FINDINGS: Partial<Record<EntryFlag, Omit<Finding, 'id'>>> = {
  'after-turn-end': { level: 'warning', message: 'updates arrived after the session/prompt answer' },
  'echoed-by-agent': { level: 'info', message: 'the prompt was echoed back as user_message_chunk' },
  'mode-id-key': { level: 'warning', message: 'current_mode_update carried modeId instead of currentModeId' },
};

const STANDARD_PROMPT_RESULT = new Set(['stopReason', '_meta', 'usage']);
const FINAL = new Set(['completed', 'failed']);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);

/** What the agent itself said about each tool call, in wire order. */
interface ToolWire {
  firstSeen: 'tool_call' | 'tool_call_update' | 'permission';
  toolCalls: number;
  lastStatus?: string;
  title?: string;
}

function toolCallsOnWire(records: TraceRecord[]): Map<string, ToolWire> {
  const tools = new Map<string, ToolWire>();
  for (const r of records) {
    if (r.kind !== 'wire' || r.dir !== 'in') continue;
    const params = obj(r.msg['params']);
    let id: unknown;
    let how: ToolWire['firstSeen'];
    let fields: Json | undefined;
    if (r.msg['method'] === 'session/update') {
      fields = obj(params?.['update']);
      const kind = fields?.['sessionUpdate'];
      if (kind !== 'tool_call' && kind !== 'tool_call_update') continue;
      how = kind;
      id = fields!['toolCallId'];
    } else if (r.msg['method'] === 'session/request_permission') {
      fields = undefined;
      how = 'permission';
      const toolCall = obj(params?.['toolCall']);
      id = toolCall?.['toolCallId'];
      if (typeof id === 'string' && typeof toolCall?.['title'] === 'string' && !tools.get(id)?.title) {
        tools.set(id, { ...(tools.get(id) ?? { firstSeen: how, toolCalls: 0 }), title: toolCall['title'] });
      }
    } else continue;
    if (typeof id !== 'string') continue;
    let t = tools.get(id);
    if (!t) tools.set(id, (t = { firstSeen: how, toolCalls: 0 }));
    if (how === 'tool_call') t.toolCalls++;
    if (typeof fields?.['status'] === 'string') t.lastStatus = fields['status'];
    if (typeof fields?.['title'] === 'string') t.title = fields['title'];
  }
  return tools;
}

export function observeFindings(run: RebuiltRun, opts: { cancelled: boolean }): Finding[] {
  const found = new Map<string, Finding>();
  const add = (id: string, level: Finding['level'], message: string): void => void (found.has(id) || found.set(id, { id, level, message }));
  const list = entries(run.transcript);
  const tools = toolCallEntries(run.transcript);

  for (const e of list) for (const flag of e.flags ?? []) {
    const f = FLAG_FINDINGS[flag];
    if (f) add(flag, f.level, f.message);
  }
  for (const e of list) if (e.kind === 'unknown_update') add(`unknown-update:${String(e.sessionUpdate)}`, 'info', `update kind the workbench does not model: ${String(e.sessionUpdate)}`);

  const plans = list.filter((e): e is PlanEntryItem => e.kind === 'plan');
  const todoTool = tools.find((t) => /todo|plan|task/i.test(`${t.title} ${t.name ?? ''} ${JSON.stringify(t.rawInput ?? '')}`));
  if (plans.length === 0 && todoTool) add('plan-as-tool-call', 'info', `its todo list is a tool call ("${todoTool.title}", kind ${todoTool.toolKind}), not a plan update`);
  const planUpdates = run.records.filter((r) => r.kind === 'wire' && r.dir === 'in' && obj(obj(r.msg['params'])?.['update'])?.['sessionUpdate'] === 'plan');
  for (let i = 1; i < planUpdates.length; i++) {
    const a = JSON.stringify(obj(obj((planUpdates[i - 1] as { msg: Json }).msg['params'])?.['update'])?.['entries']);
    const b = JSON.stringify(obj(obj((planUpdates[i] as { msg: Json }).msg['params'])?.['update'])?.['entries']);
    if (a === b) add('plan-repeated', 'info', 'the same plan was sent twice in a row');
  }

  for (const t of tools) {
    if (t.toolKind === 'execute' && t.status === 'completed' && t.content.length === 0 && t.rawOutput === undefined && !t.meta) {
      add('shell-output-missing', 'info', 'a completed shell tool call carries no output (no content, rawOutput or _meta)');
    }
  }
  for (const [id, t] of toolCallsOnWire(run.records)) {
    const name = t.title ?? id;
    if (t.firstSeen === 'permission') {
      add('permission-before-tool-call', 'info', t.toolCalls ? `permission request for "${name}" came before its tool_call` : `"${name}" was announced only by its permission request (no tool_call)`);
    }
    if (t.firstSeen === 'tool_call_update') add('update-before-tool-call', 'warning', `tool_call_update for "${name}" before any tool_call`);
    if (t.toolCalls > 1) add('tool-call-repeated', 'warning', `tool_call sent ${t.toolCalls} times for "${name}" (later ones should be tool_call_update)`);
    if (!FINAL.has(t.lastStatus ?? '')) {
      if (opts.cancelled) add('no-final-status-after-cancel', 'info', `after the cancel, "${name}" got no final status (last: ${t.lastStatus ?? 'none'})`);
      else add('no-final-status', 'warning', `"${name}" never got a final status (last: ${t.lastStatus ?? 'none'})`);
    }
  }
  const cancelSent = run.records.some((r) => r.kind === 'cancel');
  if (run.figures.stopReason === 'cancelled' && !cancelSent) add('cancelled-without-cancel', 'warning', 'ended the turn with stopReason "cancelled" although the client sent no session/cancel');

  for (const r of run.records) inspectRecord(r, add);
  return [...found.values()];
}

function inspectRecord(r: TraceRecord, add: (id: string, level: Finding['level'], message: string) => void): void {
  if (r.kind === 'noise' && r.dir === 'in') add('stdout-noise', 'warning', 'printed non-JSON lines on stdout');
  if (r.kind === 'wire' && r.dir === 'in' && r.problem) add(`wire:${r.problem}`, 'warning', `JSON-RPC problem: ${r.problem}`);
  if (r.kind === 'exit' && r.signal) add('no-exit-on-eof', 'info', `did not exit when stdin closed (stopped by ${r.signal})`);
  if (r.kind === 'wire' && r.dir === 'in' && r.msg['method'] === undefined && r.msg['result'] && typeof r.msg['result'] === 'object') {
    const result = r.msg['result'] as Record<string, unknown>;
    if ('stopReason' in result) {
      const extra = Object.keys(result).filter((k) => !STANDARD_PROMPT_RESULT.has(k));
      if (extra.length) add('prompt-result-extra-fields', 'info', `session/prompt result has non-standard fields: ${extra.join(', ')}`);
    }
  }
  if (r.kind === 'wire' && r.dir === 'in' && typeof r.msg['method'] === 'string' && 'id' in r.msg && typeof r.msg['id'] === 'string') {
    add('string-request-ids', 'info', 'sends its requests with string ids (UUIDs)');
  }
}

/** Which client methods the agent called (fs, terminal): facts for docs/agents.md. */
export function clientCalls(records: TraceRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) {
    if (r.kind !== 'wire' || r.dir !== 'in' || typeof r.msg['method'] !== 'string' || !('id' in r.msg)) continue;
    const m = r.msg['method'] as string;
    out[m] = (out[m] ?? 0) + 1;
  }
  return out;
}

