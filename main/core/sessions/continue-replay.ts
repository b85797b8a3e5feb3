/**
 * "Not shown twice": when a past session is continued with `session/load` while we already hold
 * its transcript, the agent replays the whole conversation as `session/update`s before answering.
 * Those lines are recorded in the trace like any other (the trace is the truth, and QA wants to see
 * what the agent replayed), but they are not folded into the continued session's transcript, which
 * starts from the recorded one (a seed) instead. The same filter runs live (AgentSession) and when
 * history rebuilds the continued session, so both show each message once and agree on entry ids.
 *
 * A transcript rebuilt from the child's trace alone (no seed, e.g. `trace` tools) still shows the
 * replay, each entry flagged `replayed` by the reducer.
 */
import type { JsonRpcId, TraceRecord } from '../../../common/trace/records';

export class ReplayFilter {
  /** Our pending `session/load` request id, while the agent is replaying. */
  private loadId: JsonRpcId | undefined;
  private loading = false;

  /** Whether this record is replayed history (to be kept out of the transcript). */
  skip(record: TraceRecord): boolean {
    if (record.kind !== 'wire') return false;
    const msg = record.msg;
    if (record.dir === 'out' && msg.method === 'session/load' && msg.id !== undefined) {
      this.loadId = msg.id as JsonRpcId;
      this.loading = true;
      return false;
    }
    if (!this.loading) return false;
    if (record.dir === 'in' && msg.method === undefined && msg.id === this.loadId) {
      this.loading = false;
      return false;
    }
    return record.dir === 'in' && msg.method === 'session/update';
  }
}

/** The records without the replay of their `session/load`s. */
export function withoutReplay(records: Iterable<TraceRecord>): TraceRecord[] {
  const filter = new ReplayFilter();
  const out: TraceRecord[] = [];
  for (const r of records) if (!filter.skip(r)) out.push(r);
  return out;
}
