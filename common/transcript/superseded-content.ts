/**
 * Tool-call content a later patch of the same batch replaces (issue #11): an agent sends a tool
 * call's diff when it opens the call and again when it completes it, and under a flood both land in
 * one batch for a window. Applied in order, the batch's second `patch-tool-call` with `content`
 * (without `keepDiffs`) replaces the whole content array, so whatever content the entry had before
 * it — from its `append-entry` or an earlier `patch-tool-call` — never reaches the state a batch
 * builds. Those earlier patches are replaced by copies without their content: the window applies
 * the same state from fewer bytes (each 16 KiB diff serialized once, not twice), and the pending
 * batch no longer holds the superseded diff until its delivery.
 *
 * Why the state stays the same: the only patches that read an entry's content are ones that write
 * only its content (`append-text`, `append-block`, `patch-tool-call` with `keepDiffs`), and a full
 * replacement overwrites all of it; nothing else in `TranscriptApplier` looks at content. Patches
 * are never removed or reordered, only their content dropped (an emptied `patch-tool-call` stays,
 * with its other fields). A batch is applied whole before it is shown (the renderer commits once
 * per batch), so no in-between state is lost either.
 */
import type { Entry } from './model';
import type { Patch } from './patches';

/** The entry whose tool-call content `p` sets, if it sets any. */
function contentTarget(p: Patch): string | undefined {
  if (p.op === 'patch-tool-call') return p.fields.content !== undefined ? p.id : undefined;
  if (p.op === 'append-entry') return p.entry.kind === 'tool_call' && p.entry.content.length > 0 ? p.entry.id : undefined;
  return undefined;
}

/** `p` without the content a later patch replaces (`p` carries content: see `contentTarget`). */
function withoutContent(p: Patch): Patch {
  if (p.op === 'append-entry') return { op: 'append-entry', entry: { ...p.entry, content: [] } as Entry };
  if (p.op !== 'patch-tool-call') return p;
  const { content: _dropped, ...fields } = p.fields;
  return { op: 'patch-tool-call', id: p.id, fields };
}

/**
 * A coalescing step for a batch being gathered (`IntervalBatcherOptions.coalesce`): after items
 * were pushed at `from..`, a full content replacement among them empties the content of the last
 * earlier patch of the batch that set that entry's content. Keeps one index per entry whose content
 * the batch sets, and starts over when handed a new batch (after a delivery). Not exhaustive — a
 * content patch that a `keepDiffs` patch read stays when a later replacement drops both — only
 * ever correct.
 */
export function supersededContent(): (pending: Patch[], from: number) => void {
  let batch: Patch[] | null = null;
  const lastContent = new Map<string, number>();
  return (pending, from) => {
    if (pending !== batch) {
      batch = pending;
      lastContent.clear();
    }
    for (let i = from; i < pending.length; i++) {
      const p = pending[i]!;
      const id = contentTarget(p);
      if (id === undefined) continue;
      if (p.op === 'patch-tool-call' && !p.keepDiffs) {
        const earlier = lastContent.get(id);
        if (earlier !== undefined) pending[earlier] = withoutContent(pending[earlier]!);
      }
      lastContent.set(id, i);
    }
  };
}
