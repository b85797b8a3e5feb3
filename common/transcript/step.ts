/**
 * One reducer step: a draft of the next state (each map copied only if this step writes it) and
 * the patches emitted so far. Handlers write through it; `finish()` yields the immutable result.
 *
 * Maps a step may write in place: a caller that keeps only the newest state (TranscriptBuilder, LiveTranscript)
 * passes the set of maps (and state objects) its own earlier steps created and nobody else has
 * seen; those are written in place instead of copied. Copying the tool-call map on every tool-call record made a session
 * with k tool calls cost O(k²) (see docs/performance.md); `reduce()` itself never passes one, so it
 * stays pure.
 */
import type { EntryFlag, Entry, EntryId, EntryKind, SessionState } from './model';
import type { Patch } from './patches';
import type { ReducerState, TurnState } from './reducer-state';
import type { ToolCallTable } from './tool-call-table';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type EntryInit = DistributiveOmit<Entry, 'id' | 't' | 'turn' | 'flags'>;

export interface ReduceResult {
  state: ReducerState;
  patches: Patch[];
}

/** Appending one of these ends the open message: the next chunk starts a new entry. */
const CLOSES_OPEN_MESSAGE = new Set<EntryKind>(['user_message', 'agent_message', 'thought', 'tool_call', 'plan', 'error', 'turn_end', 'unknown_update']);
/** Agent output that, arriving after the turn's answer, is worth flagging (opencode's tail updates). */
const TURN_OUTPUT = new Set<EntryKind>(['agent_message', 'thought', 'tool_call']);

type MapOf<T> = T extends ReadonlyMap<infer K, infer V> ? Map<K, V> : never;
/** What `map(key)` gives to write: the tool calls' own table (tool-call-table.ts), a Map for the rest. */
type Writable<K extends MapKeys> = K extends 'toolCalls' ? ToolCallTable : MapOf<ReducerState[K]>;
type MapKeys = 'toolCalls' | 'ours' | 'theirs' | 'prompts' | 'permissions' | 'configValues' | 'fileChanges';
/** One bit per part of the state a step copies on first write (a number, not a Set: a step is made per record). */
const COPIED_BIT: Record<MapKeys | 'turn', number> = { toolCalls: 1, ours: 2, theirs: 4, prompts: 8, permissions: 16, configValues: 32, fileChanges: 64, turn: 128 };

export class Step {
  readonly s: { -readonly [K in keyof ReducerState]: ReducerState[K] };
  readonly patches: Patch[] = [];
  private copied = 0;

  constructor(
    state: ReducerState,
    readonly t: number,
    private readonly owned?: WeakSet<object>,
  ) {
    // The state object itself, like its maps: one made by an earlier step of the same owner is
    // written in place (copying its ~25 fields was a step's own largest cost, once per record).
    if (owned?.has(state)) this.s = state;
    else {
      this.s = { ...state };
      owned?.add(this.s);
    }
  }

  /** A writable copy of one of the state's maps, made on first use in this step (unless owned, see above). */
  map<K extends MapKeys>(key: K): Writable<K> {
    if ((this.copied & COPIED_BIT[key]) === 0) {
      const current = this.s[key] as ReadonlyMap<unknown, unknown>;
      if (!this.owned?.has(current)) {
        const copy = key === 'toolCalls' ? (current as ToolCallTable).clone() : new Map(current);
        this.owned?.add(copy);
        this.s[key] = copy as never;
      }
      this.copied |= COPIED_BIT[key];
    }
    return this.s[key] as Writable<K>;
  }

  turn(): TurnState {
    if ((this.copied & COPIED_BIT.turn) === 0) {
      this.s.turn = { ...this.s.turn };
      this.copied |= COPIED_BIT.turn;
    }
    return this.s.turn;
  }

  emit(patch: Patch): void {
    this.patches.push(patch);
  }

  setSession(fields: Partial<SessionState>): void {
    this.emit({ op: 'set-session', fields });
  }

  newEntryId(): EntryId {
    return `e${this.s.nextEntry++}`;
  }

  /**
   * Appends `init` as a new entry: `init` itself becomes the entry (its id, time and turn are set
   * on it, after its own fields — the key order a copy `{ ...init, id, t, turn }` would have), so
   * every caller passes an object of its own making. Copying it was ≈ 2.4 % of the core's CPU
   * under a flood: an object spread over entries of many shapes takes V8's slow path.
   */
  append(init: EntryInit, flags: EntryFlag[] = []): EntryId {
    const id = this.newEntryId();
    // No flags array is made for the usual entry, which has none.
    let allFlags: EntryFlag[] | undefined = flags.length ? [...flags] : undefined;
    if (this.s.loading) (allFlags ??= []).push('replayed');
    else if (TURN_OUTPUT.has(init.kind) && this.s.turn.answered) (allFlags ??= []).push('after-turn-end');
    const entry = init as Entry;
    entry.id = id;
    entry.t = this.t;
    entry.turn = this.s.turn.n;
    if (allFlags) entry.flags = allFlags;
    if (CLOSES_OPEN_MESSAGE.has(init.kind)) this.s.open = null;
    this.emit({ op: 'append-entry', entry });
    return id;
  }

  /** The agent started answering: a later user chunk is no longer an echo of our prompt. */
  disarmEcho(): void {
    if (this.s.turn.echo?.armed) this.turn().echo = { ...this.s.turn.echo, armed: false };
  }

  finish(): { state: ReducerState; patches: Patch[] } {
    return { state: this.s, patches: this.patches };
  }
}
