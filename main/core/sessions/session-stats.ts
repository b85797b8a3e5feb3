/**
 * The figures of a session's turns that `run --json` summaries and compare runs report, counted
 * from the session's trace records as they pass (so a rebuild from the trace gives the same):
 * updates, distinct tool calls, permission requests, files changed, time to first update, turn
 * duration, usage.
 */
import type { TraceRecord } from '../../../common/trace/records';
import type { Transcript } from '../../../common/transcript/model';
import { allFileChanges } from '../../../common/transcript/file-changes';

type Json = Record<string, unknown>;

export interface SessionFigures {
  updates: number;
  toolCalls: number;
  permissionRequests: number;
  firstUpdateMs: number | null;
  durationMs: number | null;
  stopReason: string | null;
  usage: Json | null;
}

const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);

export class SessionStats {
  private updates = 0;
  private readonly toolCallIds = new Set<string>();
  private permissionRequests = 0;
  private promptRequestId: unknown;
  private promptT: number | undefined;
  private firstUpdateT: number | undefined;
  private endT: number | undefined;
  private stopReason: string | null = null;
  private lastUsageUpdate: Json | undefined;
  private turnUsage: Json | undefined;

  /** Feed every record the session receives (its own and the connection's). */
  add(record: TraceRecord): void {
    if (record.kind !== 'wire' || record.sessionId === undefined) return;
    const msg = record.msg as Json;
    const params = obj(msg.params);
    if (record.dir === 'in' && msg.method === 'session/update') {
      this.updates++;
      if (this.promptT !== undefined && this.firstUpdateT === undefined) this.firstUpdateT = record.t;
      const update = obj(params?.update);
      if (update && (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && typeof update.toolCallId === 'string') {
        this.toolCallIds.add(update.toolCallId);
      }
      if (update?.sessionUpdate === 'usage_update') this.lastUsageUpdate = update;
      return;
    }
    if (record.dir === 'in' && msg.method === 'session/request_permission') {
      this.permissionRequests++;
      const id = obj(params?.toolCall)?.toolCallId;
      if (typeof id === 'string') this.toolCallIds.add(id);
      return;
    }
    if (record.dir === 'out' && msg.method === 'session/prompt') {
      this.promptRequestId = msg.id;
      this.promptT = record.t;
      this.firstUpdateT = undefined;
      this.endT = undefined;
      return;
    }
    if (record.dir === 'in' && msg.method === undefined && msg.id === this.promptRequestId && this.promptT !== undefined && this.endT === undefined) {
      this.endT = record.t;
      const result = obj(msg.result);
      if (typeof result?.stopReason === 'string') this.stopReason = result.stopReason;
      const usage = obj(result?.usage);
      if (usage) this.turnUsage = usage;
    }
  }

  figures(): SessionFigures {
    const round = (v: number) => Math.round(v);
    let usage: Json | null = null;
    if (this.lastUsageUpdate || this.turnUsage) {
      const { sessionUpdate: _kind, _meta, ...fields } = this.lastUsageUpdate ?? {};
      void _kind;
      void _meta;
      usage = { ...fields, ...this.turnUsage };
    }
    return {
      updates: this.updates,
      toolCalls: this.toolCallIds.size,
      permissionRequests: this.permissionRequests,
      firstUpdateMs: this.promptT !== undefined && this.firstUpdateT !== undefined ? round(this.firstUpdateT - this.promptT) : null,
      durationMs: this.promptT !== undefined && this.endT !== undefined ? round(this.endT - this.promptT) : null,
      stopReason: this.stopReason,
      usage,
    };
  }
}

/** Files the agent changed: successful `fs/write_text_file` paths, plus diff paths of tool calls that completed. */
export function filesChanged(transcript: Transcript): string[] {
  return [...new Set(allFileChanges(transcript).filter((c) => !c.error && c.path).map((c) => c.path))].sort();
}
