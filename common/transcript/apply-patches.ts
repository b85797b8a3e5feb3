/**
 * Applies patches to a normalized transcript without touching the input: containers (the id list,
 * the entry map, the session object) are copied at most once per batch, and only entries a patch
 * changes become new objects — unchanged entries keep their identity, so memoized rows in the UI
 * do not re-render. Patches for an unknown entry id are skipped (a window may not hold the entry).
 */
import type { ContentBlock } from './acp-types';
import type { Entry, EntryId, FileChange, TerminalInfo, ToolCallEntry, Transcript } from './model';
import type { Patch } from './patches';

/** What a transcript keeps of one terminal's output; older output is dropped from the start. */
export const TERMINAL_OUTPUT_MAX_CHARS = 1_000_000;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<Transcript> & { ids: EntryId[]; entries: Record<EntryId, Entry> };

/** Where a `shareContainers` applier may put appended entries' ids instead of the transcript's id list. */
export interface EntryIdSink {
  push(id: EntryId): void;
}

/**
 * Copy-on-write applier. One "generation" lasts until `snapshot()`: within it each container and
 * each touched entry is copied once and then written in place, so a batch of N patches costs
 * O(N + size of the containers) instead of O(N × size). Snapshots are never written afterwards.
 */
export class TranscriptApplier {
  private draft: Draft;
  private ownRoot = false;
  private ownIds = false;
  private ownEntries = false;
  private ownSession = false;
  private ownFiles = false;
  private ownTerminals = false;
  private readonly ownedEntries = new Set<EntryId>();
  /**
   * The content array the last append-text made in this generation: streamed text is appended to it
   * in place. One array, not a set of all of them: the core's live transcript takes a snapshot only
   * when it is read, and between two reads a set would keep every streamed message's content alive
   * (entries already spilled to disk included). A message's chunks come one after another, so one is
   * what the hot path needs.
   */
  private ownedContent: readonly ContentBlock[] | null = null;

  /**
   * With `shareContainers`, the id list and the entry map are written in place and keep their
   * identity across snapshots (for the renderer's store, where copying 20,000 keys per frame
   * would cost more than the frame): consumers then notice appends by the id count and changed
   * entries by reference — entries, the session object, file changes and terminals are still
   * copied on write. With `ids` as well, appended ids go there instead, and the snapshots' `ids`
   * stay the base's (the core's live transcript keeps them by position: entry-ids.ts).
   */
  constructor(
    base: Transcript,
    private readonly options: { shareContainers?: boolean; ids?: EntryIdSink } = {},
  ) {
    this.draft = base as Draft;
    if (options.shareContainers) {
      this.draft = { ...this.draft, ids: [...this.draft.ids], entries: { ...this.draft.entries } };
      this.ownRoot = this.ownIds = this.ownEntries = true;
    }
  }

  /** The current transcript; later patches will not modify the returned object or anything in it (but see `shareContainers`). */
  snapshot(): Transcript {
    this.ownSession = this.ownFiles = this.ownTerminals = false;
    this.ownedEntries.clear();
    this.ownedContent = null;
    if (this.options.shareContainers) {
      // A new root object, so a consumer comparing transcripts by reference sees the change.
      this.draft = { ...this.draft };
      return this.draft;
    }
    this.ownRoot = this.ownIds = this.ownEntries = false;
    return this.draft;
  }

  apply(patches: readonly Patch[]): void {
    for (const patch of patches) this.applyOne(patch);
  }

  private applyOne(p: Patch): void {
    switch (p.op) {
      case 'append-entry': {
        if (Object.prototype.hasOwnProperty.call(this.draft.entries, p.entry.id)) return;
        (this.options.ids ?? this.ids()).push(p.entry.id);
        this.entries()[p.entry.id] = p.entry;
        // The patch's entry object may be shared with other consumers of the same patch list.
        return;
      }
      case 'append-text': {
        const e = this.entry(p.id);
        if (!e || !('content' in e) || !Array.isArray(e.content)) return;
        const content = e.content as ContentBlock[];
        // A message streams in many chunks between two snapshots: its content array is copied
        // once, then grown in place (only its last block is replaced, never written).
        if (this.ownedContent === content) appendTextInPlace(content, p.text);
        else {
          const copy = appendText(content, p.text);
          (e as { content: ContentBlock[] }).content = copy;
          this.ownedContent = copy;
        }
        return;
      }
      case 'append-block': {
        const e = this.entry(p.id);
        if (e && 'content' in e && Array.isArray(e.content)) (e as { content: ContentBlock[] }).content = [...(e.content as ContentBlock[]), p.block];
        return;
      }
      case 'patch-entry': {
        const e = this.entry(p.id);
        if (e) Object.assign(e, p.fields);
        return;
      }
      case 'patch-tool-call': {
        const e = this.entry(p.id);
        if (e?.kind !== 'tool_call') return;
        // A window's large diffs are previews (window-diffs.ts): kept as the diffs they stand for.
        const diffs = p.keepDiffs && p.fields.content ? e.content.filter((c) => c.type === 'diff' || c.type === 'diff_preview') : [];
        Object.assign(e, p.fields);
        if (diffs.length > 0) e.content = [...diffs, ...e.content];
        return;
      }
      case 'upsert-permission': {
        const e = this.entry(p.id);
        if (e?.kind !== 'tool_call') return;
        const list = (e as ToolCallEntry).permissions;
        const at = list.findIndex((x) => x.requestId === p.permission.requestId);
        (e as ToolCallEntry).permissions =
          at === -1
            ? [...list, { t: 0, options: [], status: 'pending', ...p.permission }]
            : list.map((x, i) => (i === at ? { ...x, ...p.permission } : x));
        return;
      }
      case 'replace-plan': {
        const e = this.entry(p.id);
        if (e?.kind === 'plan') e.entries = p.entries;
        return;
      }
      case 'add-flag': {
        const current = this.draft.entries[p.id];
        if (!current || current.flags?.includes(p.flag)) return;
        const e = this.entry(p.id)!;
        e.flags = [...(e.flags ?? []), p.flag];
        return;
      }
      case 'set-session': {
        Object.assign(this.session(), p.fields);
        return;
      }
      case 'upsert-file-change': {
        const files = this.files();
        const at = files.findIndex((f) => f.id === p.change.id);
        if (at === -1) files.push({ path: '', newText: '', t: 0, turn: 0, ...p.change });
        else files[at] = { ...files[at]!, ...p.change };
        return;
      }
      case 'upsert-terminal': {
        const terminals = this.terminals();
        const old = terminals[p.terminalId];
        terminals[p.terminalId] = { ...(old ?? { terminalId: p.terminalId, status: 'running' }), ...p.fields };
        return;
      }
      case 'append-terminal-output': {
        const terminals = this.terminals();
        const old = terminals[p.terminalId] ?? { terminalId: p.terminalId, status: 'running' as const };
        let output = (old.output ?? '') + p.text;
        let truncated = old.truncated;
        if (output.length > TERMINAL_OUTPUT_MAX_CHARS) {
          output = output.slice(output.length - TERMINAL_OUTPUT_MAX_CHARS);
          truncated = true;
        }
        terminals[p.terminalId] = { ...old, output, ...(truncated ? { truncated } : {}) };
        return;
      }
      default: {
        const never: never = p;
        void never;
      }
    }
  }

  private root(): Draft {
    if (!this.ownRoot) {
      this.draft = { ...this.draft };
      this.ownRoot = true;
    }
    return this.draft;
  }

  private ids(): EntryId[] {
    const d = this.root();
    if (!this.ownIds) {
      d.ids = [...d.ids];
      this.ownIds = true;
    }
    return d.ids;
  }

  private entries(): Record<EntryId, Entry> {
    const d = this.root();
    if (!this.ownEntries) {
      d.entries = { ...d.entries };
      this.ownEntries = true;
    }
    return d.entries;
  }

  /** A writable copy of the entry (made once per generation), or undefined when unknown. */
  private entry(id: EntryId): Entry | undefined {
    const current = this.draft.entries[id];
    if (!current || !Object.prototype.hasOwnProperty.call(this.draft.entries, id)) return undefined;
    if (this.ownedEntries.has(id)) return current;
    const copy = { ...current } as Entry;
    this.entries()[id] = copy;
    this.ownedEntries.add(id);
    return copy;
  }

  private session(): Draft['session'] {
    const d = this.root();
    if (!this.ownSession) {
      d.session = { ...d.session };
      this.ownSession = true;
    }
    return d.session;
  }

  private files(): FileChange[] {
    const d = this.root();
    if (!this.ownFiles) {
      d.fileChanges = [...d.fileChanges];
      this.ownFiles = true;
    }
    return d.fileChanges as FileChange[];
  }

  private terminals(): Record<string, TerminalInfo> {
    const d = this.root();
    if (!this.ownTerminals) {
      d.terminals = { ...d.terminals };
      this.ownTerminals = true;
    }
    return d.terminals as Record<string, TerminalInfo>;
  }
}

/** New content array with `text` merged into a trailing text block (which is copied, not mutated). */
function appendText(content: readonly ContentBlock[], text: string): ContentBlock[] {
  const last = content[content.length - 1];
  if (last?.type === 'text') return [...content.slice(0, -1), { ...last, text: last.text + text }];
  return [...content, { type: 'text', text }];
}

/**
 * `appendText` into an array nobody else has seen. Its last block is one appendText or this
 * function made in the same generation (an array that gets another block is a new array, not
 * owned), so it is written in place too.
 */
function appendTextInPlace(content: ContentBlock[], text: string): void {
  const last = content[content.length - 1];
  if (last?.type === 'text') (last as { text: string }).text = last.text + text;
  else content.push({ type: 'text', text });
}

/** Applies a batch of patches; the input transcript is left untouched. */
export function applyPatches(transcript: Transcript, patches: readonly Patch[]): Transcript {
  if (patches.length === 0) return transcript;
  const applier = new TranscriptApplier(transcript);
  applier.apply(patches);
  return applier.snapshot();
}
