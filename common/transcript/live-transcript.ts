/**
 * The transcript of a live session as the core keeps it: the same reducer and patch application
 * as `TranscriptBuilder`, but only the most recently touched entries stay in memory (hot); the
 * others are moved to a `ColdStore` (in the core, a spill file) and leave behind a small
 * `ColdEntry` — where the entry is, its kind, and for a tool call what the session's figures
 * need. A patch for a cold entry reads it back first (a late `tool_call_update`, a flag), so the
 * patches and what any reader sees are exactly what `TranscriptBuilder` gives; memory no longer
 * grows with the entries' text and diffs, only by a few dozen bytes per entry.
 *
 * Readers ask for what they need: `window()` (the UI's `session/entries`), `entry()`, the session
 * state, file changes; `transcript` still gives a whole immutable Transcript, reading cold entries
 * back when its `entries` are first looked at (tests, small sessions — not hot paths).
 */
import type { ColdRef, ColdStore } from './cold-store';
import { allFileChanges } from './file-changes';
import { TranscriptApplier } from './apply-patches';
import { emptyTranscript, type Entry, type EntryId, type EntryKind, type FileChange, type SessionState, type TerminalInfo, type ToolCallEntry, type Transcript } from './model';
import type { Patch } from './patches';
import { reduceOwned } from './reducer';
import { initialReducerState, type ReducerState } from './reducer-state';
import type { TraceRecord } from '../trace/records';

/** Entries kept in memory by default: the open message, recent tool calls and a margin. */
export const DEFAULT_HOT_ENTRIES = 64;

/** What a tool call leaves in memory when it goes cold: enough for "files changed". */
export interface ColdToolCall {
  toolCallId: string;
  status: string;
  /** Paths of its diffs (`content[].type === 'diff'` with a string path), in order. */
  diffPaths: string[];
}

/** An entry that is in the cold store. Never handed out: readers get the entry back. */
export class ColdEntry {
  constructor(
    readonly ref: ColdRef,
    readonly kind: EntryKind,
    readonly toolCall?: ColdToolCall,
  ) {}
}

type Slot = Entry | ColdEntry;

export interface LiveTranscriptOptions {
  /** Without one, every entry stays in memory (as with TranscriptBuilder). */
  cold?: ColdStore;
  /** How many recently touched entries stay in memory (default DEFAULT_HOT_ENTRIES, at least 1). */
  hotEntries?: number;
}

export class LiveTranscript {
  private reducerState: ReducerState = initialReducerState();
  /** Maps of `reducerState` only this object has seen: the reducer writes them in place. */
  private owned = new WeakSet<object>();
  /** Shared containers: the id list and the entry map are written in place and keep their identity. */
  private readonly applier = new TranscriptApplier(emptyTranscript(), { shareContainers: true });
  private readonly ids: EntryId[];
  private readonly slots: Record<EntryId, Slot>;
  /** Entries in memory, least recently touched first. */
  private readonly hot = new Set<EntryId>();
  private lastTouched: EntryId | undefined;
  private readonly hotLimit: number;
  private coldCount = 0;

  constructor(private readonly options: LiveTranscriptOptions = {}) {
    const t = this.applier.snapshot();
    this.ids = t.ids as EntryId[];
    this.slots = t.entries as Record<EntryId, Slot>;
    this.hotLimit = Math.max(1, options.hotEntries ?? DEFAULT_HOT_ENTRIES);
  }

  /** Folds one record in; returns the patches that describe the change (possibly none). */
  push(record: TraceRecord): Patch[] {
    const { state, patches } = reduceOwned(this.reducerState, record, this.owned);
    this.reducerState = state;
    if (patches.length === 0) return patches;
    const cold = this.options.cold;
    if (cold) for (const p of patches) this.touch(p);
    this.applier.apply(patches);
    if (cold && this.hot.size > this.hotLimit) this.spill(cold);
    return patches;
  }

  /** The reducer state; from now on it is shared, so the next step copies what it writes. */
  get state(): ReducerState {
    this.owned = new WeakSet();
    return this.reducerState;
  }

  get entryCount(): number {
    return this.ids.length;
  }

  /** Entries now in the cold store (figures, tests). */
  get coldEntries(): number {
    return this.coldCount;
  }

  get session(): SessionState {
    return this.applier.snapshot().session;
  }

  get fileWrites(): readonly FileChange[] {
    return this.applier.snapshot().fileChanges;
  }

  get terminals(): Readonly<Record<string, TerminalInfo>> {
    return this.applier.snapshot().terminals;
  }

  /** One entry (read back when cold), or undefined. Later pushes do not change the returned object. */
  entry(id: EntryId): Entry | undefined {
    const slot = Object.prototype.hasOwnProperty.call(this.slots, id) ? this.slots[id] : undefined;
    if (slot === undefined) return undefined;
    if (slot instanceof ColdEntry) return this.options.cold!.get(slot.ref);
    this.applier.snapshot(); // the next write copies the entry instead of changing this one
    return slot;
  }

  /** The entry of a tool call, by the agent's tool call id. */
  toolCallEntry(toolCallId: string): ToolCallEntry | undefined {
    const info = this.reducerState.toolCalls.get(toolCallId);
    const entry = info ? this.entry(info.entryId) : undefined;
    return entry?.kind === 'tool_call' ? entry : undefined;
  }

  /** Entries [offset, offset + limit) in order, cold ones read back (in one pass where the store can). */
  window(offset: number, limit: number): Entry[] {
    this.applier.snapshot();
    const ids = this.ids.slice(offset, offset + limit);
    const out: Entry[] = new Array(ids.length);
    const coldAt: number[] = [];
    const refs: ColdRef[] = [];
    ids.forEach((id, i) => {
      const slot = this.slots[id]!;
      if (slot instanceof ColdEntry) {
        coldAt.push(i);
        refs.push(slot.ref);
      } else out[i] = slot;
    });
    if (refs.length) {
      const cold = this.options.cold!;
      const read = cold.getMany ? cold.getMany(refs) : refs.map((r) => cold.get(r));
      coldAt.forEach((at, k) => (out[at] = read[k]!));
    }
    return out;
  }

  /** Every file change (fs writes and completed tool calls' diffs), reading back only tool calls with diffs. */
  fileChanges(): FileChange[] {
    const snap = this.applier.snapshot();
    const ids: EntryId[] = [];
    const entries: Record<EntryId, Entry> = {};
    for (const id of this.ids) {
      const slot = this.slots[id]!;
      if (slot instanceof ColdEntry) {
        if (slot.toolCall?.status !== 'completed' || slot.toolCall.diffPaths.length === 0) continue;
        entries[id] = this.options.cold!.get(slot.ref);
      } else if (slot.kind === 'tool_call') entries[id] = slot;
      else continue;
      ids.push(id);
    }
    return allFileChanges({ ids, entries, fileChanges: snap.fileChanges });
  }

  /** Paths of the changes `fileChanges()` lists that did not fail, sorted; reads nothing back. */
  changedPaths(): string[] {
    const snap = this.applier.snapshot();
    const written = new Set(snap.fileChanges.map((c) => `${c.toolCallId ?? ''}\u0000${c.path}`));
    const paths = new Set(snap.fileChanges.filter((c) => !c.error && c.path).map((c) => c.path));
    for (const id of this.ids) {
      const call = toolCallSummary(this.slots[id]!);
      if (call?.status !== 'completed') continue;
      for (const path of call.diffPaths) if (path && !written.has(`${call.toolCallId}\u0000${path}`)) paths.add(path);
    }
    return [...paths].sort();
  }

  /**
   * The whole transcript, immutable: later pushes do not change it. Cold entries are read back
   * when `entries` is first used, so `session` or `ids` alone cost no reading.
   */
  get transcript(): Transcript {
    const snap = this.applier.snapshot();
    const ids = [...this.ids];
    const slots = { ...this.slots };
    const cold = this.options.cold;
    let entries: Record<EntryId, Entry> | undefined;
    return {
      ids,
      session: snap.session,
      fileChanges: snap.fileChanges,
      terminals: snap.terminals,
      get entries(): Record<EntryId, Entry> {
        if (!entries) {
          entries = {};
          for (const id of ids) {
            const slot = slots[id]!;
            entries[id] = slot instanceof ColdEntry ? cold!.get(slot.ref) : slot;
          }
        }
        return entries;
      },
    };
  }

  /** Frees the cold store (e.g. deletes the spill file). Entries that were cold cannot be read afterwards. */
  dispose(): void {
    this.options.cold?.close();
  }

  /** Marks the entry a patch targets as just used, reading it back first if it is cold. */
  private touch(p: Patch): void {
    const id = p.op === 'append-entry' ? p.entry.id : 'id' in p ? p.id : undefined;
    if (id === undefined || id === this.lastTouched) return;
    this.lastTouched = id;
    const slot = this.slots[id];
    if (slot instanceof ColdEntry) {
      this.slots[id] = this.options.cold!.get(slot.ref);
      this.coldCount--;
    } else if (slot === undefined && p.op !== 'append-entry') return;
    this.hot.delete(id);
    this.hot.add(id);
  }

  /** Moves the least recently touched entries out until the hot set is within its limit. */
  private spill(cold: ColdStore): void {
    // A new generation: the applier copies any entry it writes next, so the objects spilled now
    // are never written again (they may still be in a patch on its way to a window).
    this.applier.snapshot();
    for (const id of this.hot) {
      if (this.hot.size <= this.hotLimit) break;
      this.hot.delete(id);
      if (id === this.lastTouched) this.lastTouched = undefined;
      const entry = this.slots[id];
      if (entry === undefined || entry instanceof ColdEntry) continue;
      this.slots[id] = new ColdEntry(cold.put(entry), entry.kind, entry.kind === 'tool_call' ? coldToolCall(entry) : undefined);
      this.coldCount++;
    }
  }
}

function coldToolCall(entry: Extract<Entry, { kind: 'tool_call' }>): ColdToolCall {
  const diffPaths: string[] = [];
  for (const c of entry.content) if (c.type === 'diff' && typeof c.path === 'string') diffPaths.push(c.path);
  return { toolCallId: entry.toolCallId, status: entry.status, diffPaths };
}

function toolCallSummary(slot: Slot): ColdToolCall | undefined {
  if (slot instanceof ColdEntry) return slot.toolCall;
  return slot.kind === 'tool_call' ? coldToolCall(slot) : undefined;
}
