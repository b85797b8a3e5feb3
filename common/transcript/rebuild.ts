/**
 * Folding records into a transcript: `TranscriptBuilder` for a live session (push each record as it
 * is traced, send the returned patches on), `rebuildTranscript` for history. Both go through the
 * same reducer and the same patch application.
 */
import { recordsForSession } from '../trace/sessions';
import type { TraceRecord } from '../trace/records';
import { TranscriptApplier } from './apply-patches';
import { emptyTranscript, type Transcript } from './model';
import type { Patch } from './patches';
import { reduceOwned } from './reducer';
import { initialReducerState, type ReducerState } from './reducer-state';

export class TranscriptBuilder {
  private reducerState: ReducerState = initialReducerState();
  private readonly applier = new TranscriptApplier(emptyTranscript());
  /** Maps of `reducerState` that only this builder has seen: the reducer writes them in place. */
  private owned = new WeakSet<object>();

  /** Folds one record in; returns the patches that describe the change (possibly none). */
  push(record: TraceRecord): Patch[] {
    const { state, patches } = reduceOwned(this.reducerState, record, this.owned);
    this.reducerState = state;
    this.applier.apply(patches);
    return patches;
  }

  /** The transcript so far; an immutable snapshot (later pushes do not change it). */
  get transcript(): Transcript {
    return this.applier.snapshot();
  }

  /** The reducer state; from now on it is shared, so the next step copies what it writes. */
  get state(): ReducerState {
    this.owned = new WeakSet();
    return this.reducerState;
  }
}

export function rebuildTranscript(records: Iterable<TraceRecord>): Transcript {
  const builder = new TranscriptBuilder();
  for (const record of records) builder.push(record);
  return builder.transcript;
}

/** The transcript of one session of a connection's trace. */
export function rebuildSessionTranscript(records: readonly TraceRecord[], sessionId: string): Transcript {
  return rebuildTranscript(recordsForSession(records, sessionId));
}
