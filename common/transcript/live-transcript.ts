/**
 * The transcript of a live session as the core keeps it: the same reducer and patch application
 * as `TranscriptBuilder`, but only the most recently touched entries stay in memory (hot); the
 * others are moved to a `ColdStore` (in the core, a spill file) and leave behind where they are
 * and, for a tool call that changed files, which of the session's path lists it wrote (16 bytes in
 * typed arrays). A patch for a cold entry reads it back first (a late `tool_call_update`, a flag), so the
 * patches and what any reader sees are exactly what `TranscriptBuilder` gives; memory no longer
 * grows with the entries' text and diffs, only by a few bytes per entry (where it is). The ids
 * themselves are kept by position (`EntryIdList`: the reducer's `e1`, `e2`, … are not stored).
 *
 * Readers ask for what they need: `window()` (the UI's `session/entries`), `entry()`, the session
 * state, file changes; `transcript` still gives a whole immutable Transcript, reading cold entries
 * back when its `entries` are first looked at (tests, small sessions — not hot paths).
 */
import type { ColdRef, ColdStore } from './cold-store';
import { entryWeight } from './entry-weight';
import { allFileChanges } from './file-changes';
import { TranscriptApplier } from './apply-patches';
import { EntryIdList } from './entry-ids';
import { PathListArena } from './path-list-arena';
import { withRoom } from './typed-arrays';
import { emptyTranscript, type Entry, type EntryId, type FileChange, type SessionState, type TerminalInfo, type ToolCallEntry, type Transcript } from './model';
import type { Patch } from './patches';
import { reduceOwned } from './reducer';
import { initialReducerState, type ReducerState } from './reducer-state';
import { toolCallInfo } from './tool-call-index';
import type { TraceRecord } from '../trace/records';

/** Entries kept in memory by default: the open message, recent tool calls and a margin. */
export const DEFAULT_HOT_ENTRIES = 64;
/**
 * Weight (`entry-weight.ts`: about the characters of their text) the hot entries may hold by
 * default, beyond the RECENT_ENTRIES most recently touched: a few tool calls with diffs, not 64.
 */
export const DEFAULT_HOT_WEIGHT = 64 * 1024;
/** The most recently touched entries stay in memory whatever they weigh (parallel tool calls, the open message). */
const RECENT_ENTRIES = 4;

/** What `changedPaths` needs of a completed tool call with diffs. */
interface ColdToolCall {
  toolCallId: string;
  /** Paths of its diffs (`content[].type === 'diff'` with a string path), in order. */
  diffPaths: string[];
}

export interface LiveTranscriptOptions {
  /** Without one, every entry stays in memory (as with TranscriptBuilder). */
  cold?: ColdStore;
  /** How many recently touched entries stay in memory (default DEFAULT_HOT_ENTRIES, at least 1). */
  hotEntries?: number;
  /**
   * How much the hot entries may weigh together (default DEFAULT_HOT_WEIGHT); past it the least
   * recently touched go cold, except the few most recently touched.
   */
  hotWeight?: number;
}

export class LiveTranscript {
  private reducerState: ReducerState = initialReducerState();
  /** Maps of `reducerState` only this object has seen: the reducer writes them in place. */
  private owned = new WeakSet<object>();
  /** The entries' ids in order: the applier appends to it; positional ids cost no memory per entry. */
  private readonly ids = new EntryIdList();
  /** Shared containers: the entry map is written in place and keeps its identity; ids go to `ids`. */
  private readonly applier = new TranscriptApplier(emptyTranscript(), { shareContainers: true, ids: this.ids });
  /** The entries in memory (hot); a cold entry has no key here. */
  private readonly hotEntries: Record<EntryId, Entry>;
  /** Entries in memory, least recently touched first, with their weight (entry-weight.ts). */
  private readonly hot = new Map<EntryId, number>();
  /** The sum of the weights in `hot`. */
  private hotWeight = 0;
  private lastTouched: EntryId | undefined;
  private readonly hotLimit: number;
  private readonly hotWeightLimit: number;
  /** Past this many hot entries, weight alone can send the least recently touched cold. */
  private readonly recentLimit: number;
  /**
   * Where each cold entry is in the store, by its index in `ids` (length 0: in memory). Typed
   * arrays: a cold entry costs 12 bytes here, whatever its size.
   */
  private coldAt = new Float64Array(1024);
  private coldLength = new Uint32Array(1024);
  /**
   * The paths of each cold tool call that completed with diffs, by index: a list of `pathLists`
   * (0: none). What `changedPaths` and `fileChanges` need without reading back, outside the JS heap
   * (issue #11: a string per tool call, its id and paths, was most of what a long session's heap
   * grew by).
   */
  private coldPaths = new Uint32Array(1024);
  private readonly pathLists = new PathListArena();
  private coldCount = 0;

  constructor(private readonly options: LiveTranscriptOptions = {}) {
    const t = this.applier.snapshot();
    this.hotEntries = t.entries as Record<EntryId, Entry>;
    this.hotLimit = Math.max(1, options.hotEntries ?? DEFAULT_HOT_ENTRIES);
    this.hotWeightLimit = options.hotWeight ?? DEFAULT_HOT_WEIGHT;
    this.recentLimit = Math.min(this.hotLimit, RECENT_ENTRIES);
  }

  /** Folds one record in; returns the patches that describe the change (possibly none). */
  push(record: TraceRecord): Patch[] {
    const { state, patches } = reduceOwned(this.reducerState, record, this.owned);
    this.reducerState = state;
    if (patches.length === 0) return patches;
    const cold = this.options.cold;
    if (cold) for (const p of patches) this.touch(p, cold);
    this.applier.apply(patches);
    if (!cold) return patches;
    this.weigh(patches);
    if (this.hot.size > this.hotLimit || (this.hotWeight > this.hotWeightLimit && this.hot.size > this.recentLimit)) this.spill(cold);
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
    if (hasOwn(this.hotEntries, id)) {
      this.applier.snapshot(); // the next write copies the entry instead of changing this one
      return this.hotEntries[id];
    }
    const i = this.indexOf(id);
    return i >= 0 && this.coldLength[i] ? this.options.cold!.get(this.refAt(i)) : undefined;
  }

  /** The entry of a tool call, by the agent's tool call id. */
  toolCallEntry(toolCallId: string): ToolCallEntry | undefined {
    const info = toolCallInfo(this.reducerState.toolCalls, toolCallId);
    const entry = info ? this.entry(info.entryId) : undefined;
    return entry?.kind === 'tool_call' ? entry : undefined;
  }

  /** Entries [offset, offset + limit) in order, cold ones read back (in one pass where the store can). */
  window(offset: number, limit: number): Entry[] {
    this.applier.snapshot();
    const end = Math.min(this.ids.length, offset + limit);
    const out: Entry[] = [];
    const coldAt: number[] = [];
    const refs: ColdRef[] = [];
    for (let i = offset; i < end; i++) {
      const id = this.ids.at(i)!;
      if (hasOwn(this.hotEntries, id)) out.push(this.hotEntries[id]!);
      else {
        coldAt.push(out.length);
        refs.push(this.refAt(i));
        out.push(undefined as unknown as Entry);
      }
    }
    if (refs.length) {
      const cold = this.options.cold!;
      const read = cold.getMany ? cold.getMany(refs) : refs.map((r) => cold.get(r));
      coldAt.forEach((at, k) => (out[at] = read[k]!));
    }
    return out;
  }

  /** About how many bytes entry `index` is as JSON: a cold entry's stored length, a hot entry's weight (entry-weight.ts). */
  sizeAt(index: number): number {
    const id = this.ids.at(index);
    if (id === undefined) return 0;
    if (hasOwn(this.hotEntries, id)) return this.hot.get(id) ?? entryWeight(this.hotEntries[id]!);
    return this.coldLength[index] ?? 0;
  }

  /** Every file change (fs writes and completed tool calls' diffs), reading back only tool calls with diffs. */
  fileChanges(): FileChange[] {
    const snap = this.applier.snapshot();
    const ids: EntryId[] = [];
    const entries: Record<EntryId, Entry> = {};
    for (let i = 0; i < this.ids.length; i++) {
      const id = this.ids.at(i)!;
      const hot = hasOwn(this.hotEntries, id) ? this.hotEntries[id]! : undefined;
      if (hot?.kind === 'tool_call') entries[id] = hot;
      else if (!hot && this.coldPaths[i]) entries[id] = this.options.cold!.get(this.refAt(i));
      else continue;
      ids.push(id);
    }
    return allFileChanges({ ids, entries, fileChanges: snap.fileChanges });
  }

  /**
   * Paths of the changes `fileChanges()` lists that did not fail, sorted. Reads back only a cold
   * tool call whose path was also written through the client by another tool call or none (its id
   * decides whether the write stands for it).
   */
  changedPaths(): string[] {
    const snap = this.applier.snapshot();
    const written = new Set(snap.fileChanges.map((c) => `${c.toolCallId ?? ''}\u0000${c.path}`));
    const writtenPaths = new Set(snap.fileChanges.map((c) => c.path));
    // Writes through the client by a tool call, by that tool call's entry: decided without its id.
    const writtenAt = new Set<string>();
    for (const c of snap.fileChanges) {
      const info = c.toolCallId === undefined ? undefined : toolCallInfo(this.reducerState.toolCalls, c.toolCallId);
      const i = info ? this.indexOf(info.entryId) : -1;
      if (i >= 0) writtenAt.add(`${i}\u0000${c.path}`);
    }
    const paths = new Set(snap.fileChanges.filter((c) => !c.error && c.path).map((c) => c.path));
    const add = (call: ColdToolCall | undefined) => {
      for (const path of call?.diffPaths ?? []) if (path && !written.has(`${call!.toolCallId}\u0000${path}`)) paths.add(path);
    };
    for (const id in this.hotEntries) {
      const entry = this.hotEntries[id]!;
      if (entry.kind === 'tool_call') add(coldToolCall(entry));
    }
    const count = Math.min(this.ids.length, this.coldPaths.length);
    for (let i = 0; i < count; i++) {
      if (!this.coldPaths[i]) continue;
      const list = this.pathLists.get(this.coldPaths[i]!);
      let toolCallId: string | undefined;
      for (const path of list) {
        if (!path || paths.has(path)) continue;
        if (!writtenPaths.has(path)) paths.add(path);
        else if (!writtenAt.has(`${i}\u0000${path}`)) {
          toolCallId ??= (this.options.cold!.get(this.refAt(i)) as ToolCallEntry).toolCallId;
          if (!written.has(`${toolCallId}\u0000${path}`)) paths.add(path);
        }
      }
    }
    return [...paths].sort();
  }

  /**
   * The whole transcript, immutable: later pushes do not change it. Cold entries are read back
   * when `entries` is first used, so `session` or `ids` alone cost no reading.
   */
  get transcript(): Transcript {
    const snap = this.applier.snapshot();
    const ids = this.ids.toArray();
    const hot = { ...this.hotEntries };
    const at = this.coldAt.slice(0, ids.length);
    const length = this.coldLength.slice(0, ids.length);
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
          ids.forEach((id, i) => (entries![id] = hasOwn(hot, id) ? hot[id]! : cold!.get({ at: at[i]!, length: length[i]! })));
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
  private touch(p: Patch, cold: ColdStore): void {
    const id = p.op === 'append-entry' ? p.entry.id : 'id' in p ? p.id : undefined;
    if (id === undefined || id === this.lastTouched) return;
    if (!hasOwn(this.hotEntries, id) && p.op !== 'append-entry') {
      const i = this.indexOf(id);
      if (i < 0 || !this.coldLength[i]) return; // unknown: the applier skips it
      this.hotEntries[id] = cold.get(this.refAt(i));
      this.coldLength[i] = 0;
      this.coldPaths[i] = 0;
      this.coldCount--;
    }
    this.lastTouched = id;
    const weight = this.hot.get(id) ?? 0;
    this.hot.delete(id);
    this.hot.set(id, weight);
  }

  /** Updates the weight of the entries the patches changed (they are hot: `touch` saw them). */
  private weigh(patches: Patch[]): void {
    // Entries weighed whole already (after every patch was applied): later patches are in it.
    let weighed: EntryId[] | undefined;
    for (const p of patches) {
      const id = p.op === 'append-entry' ? p.entry.id : 'id' in p ? p.id : undefined;
      if (id === undefined || weighed?.includes(id)) continue;
      const before = this.hot.get(id);
      if (before === undefined) continue;
      // Streaming text adds its length; anything else is weighed again (a few values).
      let after: number;
      if (p.op === 'append-text') after = before + p.text.length;
      else {
        after = entryWeight(this.hotEntries[id]!);
        (weighed ??= []).push(id);
      }
      this.hot.set(id, after);
      this.hotWeight += after - before;
    }
  }

  /** Moves the least recently touched entries out until the hot set is within its limits. */
  private spill(cold: ColdStore): void {
    // A new generation: the applier copies any entry it writes next, so the objects spilled now
    // are never written again (they may still be in a patch on its way to a window).
    this.applier.snapshot();
    for (const [id, weight] of this.hot) {
      if (this.hot.size <= this.hotLimit && (this.hotWeight <= this.hotWeightLimit || this.hot.size <= this.recentLimit)) break;
      this.hot.delete(id);
      this.hotWeight -= weight;
      if (id === this.lastTouched) this.lastTouched = undefined;
      const entry = this.hotEntries[id];
      const i = this.indexOf(id);
      if (entry === undefined || i < 0) continue;
      const ref = cold.put(entry);
      this.room(i);
      this.coldAt[i] = ref.at;
      this.coldLength[i] = ref.length;
      if (entry.kind === 'tool_call' && entry.status === 'completed') {
        const { diffPaths } = coldToolCall(entry);
        if (diffPaths.length) this.coldPaths[i] = this.pathLists.add(diffPaths);
      }
      delete this.hotEntries[id];
      this.coldCount++;
    }
  }

  /** Index of an entry in `ids` (by its number when it has the reducer's form). */
  private indexOf(id: EntryId): number {
    return this.ids.indexOf(id);
  }

  private refAt(i: number): ColdRef {
    return { at: this.coldAt[i]!, length: this.coldLength[i]! };
  }

  private room(i: number): void {
    this.coldAt = withRoom(this.coldAt, i + 1);
    this.coldLength = withRoom(this.coldLength, i + 1);
    this.coldPaths = withRoom(this.coldPaths, i + 1);
  }
}

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

function coldToolCall(entry: ToolCallEntry): ColdToolCall {
  const diffPaths: string[] = [];
  if (entry.status === 'completed') for (const c of entry.content) if (c.type === 'diff' && typeof c.path === 'string') diffPaths.push(c.path);
  return { toolCallId: entry.toolCallId, diffPaths };
}
