/**
 * "Each trace rebuilds to the same transcript": read the run's trace file back with the history
 * reader, fold it with the same reducer the UI uses, and compare with what the live run reported
 * (the CLI's events and summary, or the live session's transcript).
 */
import { readTraceFile } from '../../../main/core/history/trace-reader';
import { filesChanged, SessionStats, type SessionFigures } from '../../../main/core/sessions/session-stats';
import type { ParsedTrace } from '../../../common/trace/parse';
import type { TraceRecord } from '../../../common/trace/records';
import { recordsForSession } from '../../../common/trace/sessions';
import type { AgentMessageEntry, Entry, ToolCallEntry, Transcript } from '../../../common/transcript/model';
import { rebuildTranscript } from '../../../common/transcript/rebuild';
import type { CliEvent } from './cli-run';
import type { Check } from './checks';

export interface RebuiltRun {
  trace: ParsedTrace;
  /** The session's records plus the connection-wide ones, in trace order. */
  records: TraceRecord[];
  transcript: Transcript;
  figures: SessionFigures;
}

export async function rebuildRun(tracePath: string, sessionId: string): Promise<RebuiltRun> {
  const trace = await readTraceFile(tracePath);
  const records = recordsForSession(trace.records, sessionId);
  const stats = new SessionStats();
  for (const r of records) stats.add(r);
  return { trace, records, transcript: rebuildTranscript(records), figures: stats.figures() };
}

export const entries = (t: Transcript): Entry[] => t.ids.map((id) => t.entries[id]!);
export const toolCallEntries = (t: Transcript): ToolCallEntry[] => entries(t).filter((e): e is ToolCallEntry => e.kind === 'tool_call');

export function agentTextOf(t: Transcript): string {
  return entries(t)
    .filter((e): e is AgentMessageEntry => e.kind === 'agent_message')
    .flatMap((e) => e.content)
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
}

/** The agent text as the CLI streamed it: every agent_message_chunk event, in order. */
export function agentTextOfEvents(events: CliEvent[]): string {
  return events
    .filter((e) => e.type === 'update')
    .map((e) => e['update'] as { sessionUpdate?: string; content?: { type?: string; text?: string } } | null)
    .filter((u) => u?.sessionUpdate === 'agent_message_chunk' && u.content?.type === 'text')
    .map((u) => u!.content!.text ?? '')
    .join('');
}

/** The rebuilt trace against the CLI's `summary` event and its event stream. */
export function compareWithCli(rebuilt: RebuiltRun, summary: Record<string, unknown>, events: CliEvent[]): Check[] {
  const checks: Check[] = [];
  const { trace, transcript, figures } = rebuilt;
  checks.push({ name: 'trace readable', ok: trace.corrupt.length === 0 && trace.header !== undefined, detail: trace.corrupt.length ? `${trace.corrupt.length} corrupt line(s): ${trace.corrupt[0]!.reason}` : `${trace.records.length} records` });
  const same = (field: keyof SessionFigures): void => {
    const live = summary[field];
    const again = figures[field];
    checks.push({ name: `trace: ${field}`, ok: JSON.stringify(live) === JSON.stringify(again), detail: `summary ${JSON.stringify(live)}, trace ${JSON.stringify(again)}` });
  };
  for (const field of ['updates', 'toolCalls', 'permissionRequests', 'stopReason', 'durationMs', 'firstUpdateMs'] as const) same(field);
  const files = filesChanged(transcript);
  checks.push({ name: 'trace: filesChanged', ok: JSON.stringify(files) === JSON.stringify(summary['filesChanged']), detail: `summary ${JSON.stringify(summary['filesChanged'])}, transcript ${JSON.stringify(files)}` });

  const updateEvents = events.filter((e) => e.type === 'update').length;
  checks.push({ name: 'trace: update events', ok: updateEvents === figures.updates, detail: `${updateEvents} update events, ${figures.updates} in the trace` });
  const liveText = agentTextOfEvents(events);
  const rebuiltText = agentTextOf(transcript);
  checks.push({
    name: 'trace: agent text',
    ok: liveText === rebuiltText,
    detail: liveText === rebuiltText ? `${liveText.length} chars` : `events ${JSON.stringify(liveText.slice(-80))}, transcript ${JSON.stringify(rebuiltText.slice(-80))}`,
  });
  const tools = toolCallEntries(transcript);
  checks.push({ name: 'trace: tool call entries', ok: tools.length === figures.toolCalls, detail: `${tools.length} entries, ${figures.toolCalls} ids` });
  const livePermissions = events
    .filter((e) => e.type === 'permission')
    .map((e) => `${String(e['outcome'])}:${String(e['optionId'] ?? '')}`)
    .sort();
  const rebuiltPermissions = tools
    .flatMap((t) => t.permissions)
    .map((p) => `${p.status}:${p.optionId ?? ''}`)
    .sort();
  checks.push({
    name: 'trace: permissions',
    ok: JSON.stringify(livePermissions) === JSON.stringify(rebuiltPermissions),
    detail: `events [${livePermissions.join(', ')}], transcript [${rebuiltPermissions.join(', ')}]`,
  });
  const turnEnd = entries(transcript).filter((e) => e.kind === 'turn_end').pop() as { stopReason?: string | null } | undefined;
  checks.push({ name: 'trace: turn end', ok: (turnEnd?.stopReason ?? null) === summary['stopReason'], detail: `transcript ${String(turnEnd?.stopReason)}, summary ${String(summary['stopReason'])}` });
  return checks;
}

/**
 * The live session's transcript against the one rebuilt from its trace: equal, entry for entry.
 * The order of keys in `entries` carries no meaning (the live transcript reads entries back from
 * its spill file in the order they are asked for), so entries are compared by id.
 */
export function compareTranscripts(live: Transcript, rebuilt: Transcript): Check {
  const diffs: string[] = [];
  const ids = new Set([...live.ids, ...rebuilt.ids]);
  for (const id of ids) {
    const x = JSON.stringify(live.entries[id]);
    const y = JSON.stringify(rebuilt.entries[id]);
    if (x !== y) diffs.push(`${id}: live ${x?.slice(0, 200)} | rebuilt ${y?.slice(0, 200)}`);
  }
  for (const key of ['session', 'fileChanges', 'terminals'] as const) {
    if (JSON.stringify(live[key]) !== JSON.stringify(rebuilt[key])) diffs.push(`${key}: live ${JSON.stringify(live[key]).slice(0, 300)} | rebuilt ${JSON.stringify(rebuilt[key]).slice(0, 300)}`);
  }
  if (JSON.stringify(live.ids) !== JSON.stringify(rebuilt.ids)) diffs.push(`ids: live ${live.ids.length}, rebuilt ${rebuilt.ids.length}`);
  const extra = (t: Transcript) => Object.keys(t.entries).filter((id) => !ids.has(id));
  if (extra(live).length || extra(rebuilt).length) diffs.push(`entries not in ids: live [${extra(live).join(', ')}], rebuilt [${extra(rebuilt).join(', ')}]`);
  if (diffs.length === 0) return { name: 'trace: transcript equal to the live one', ok: true, detail: `${live.ids.length} entries` };
  return { name: 'trace: transcript equal to the live one', ok: false, detail: diffs.slice(0, 4).join('; ') };
}
