/**
 * What a window gets of a transcript's large diffs (issue #11): each one as a preview
 * (common/diff/large-diff-preview.ts), in the patches of `session/patches` and the entries of
 * `session/entries`. The core's own transcript, the trace, the spill file and every reader in the
 * core keep the full texts; a window asks for them with `session/diff-texts`.
 *
 * Exceptions, sent whole as before: diffs under 8 KiB, the diffs of a tool call waiting for the
 * user's permission (a user sees in full what they approve: an entry with a pending permission, or
 * a batch that asks one about it), and a permission request's own content. An item an agent sent
 * with the preview's type is renamed (`diff_preview (sent by the agent)`), so that the window shows
 * it raw, as any unknown content, and never takes it for one of ours.
 *
 * Inputs are never written: the patches and entries are the core's own objects (copy on write).
 */
import { isLargeDiff, previewOfDiff } from '../diff/large-diff-preview';
import type { ToolCallContent } from './acp-types';
import type { Entry, ToolCallEntry } from './model';
import type { Patch } from './patches';

/** The type an agent's own `diff_preview` item is renamed to. */
export const FOREIGN_PREVIEW_TYPE = 'diff_preview (sent by the agent)';

/** `content` with its large diffs as previews, or null when nothing in it changes. */
export function windowContent(content: readonly ToolCallContent[]): ToolCallContent[] | null {
  let out: ToolCallContent[] | null = null;
  for (let i = 0; i < content.length; i++) {
    const item = content[i]!;
    let next: ToolCallContent;
    if (isLargeDiff(item)) next = previewOfDiff(item);
    else if (item.type === 'diff_preview') next = { ...item, type: FOREIGN_PREVIEW_TYPE } as unknown as ToolCallContent;
    else continue;
    out ??= content.slice();
    out[i] = next;
  }
  return out;
}

/** A batch of patches as a window gets it: the same patches, large diffs as previews. */
export function windowPatches(patches: Patch[]): Patch[] {
  let asking: Set<string> | null = null;
  for (const p of patches) {
    // A new permission is pending unless it says otherwise (apply-patches.ts).
    if (p.op === 'upsert-permission' && (p.permission.status === undefined || p.permission.status === 'pending')) (asking ??= new Set()).add(p.id);
  }
  let out: Patch[] | null = null;
  for (let i = 0; i < patches.length; i++) {
    const p = patches[i]!;
    let next: Patch | undefined;
    if (p.op === 'append-entry') {
      if (p.entry.kind !== 'tool_call' || asking?.has(p.entry.id)) continue;
      const content = windowContent(p.entry.content);
      if (content) next = { op: 'append-entry', entry: { ...p.entry, content } };
    } else if (p.op === 'patch-tool-call') {
      if (!p.fields.content || asking?.has(p.id)) continue;
      const content = windowContent(p.fields.content);
      if (content) next = { ...p, fields: { ...p.fields, content } };
    }
    if (!next) continue;
    out ??= patches.slice();
    out[i] = next;
  }
  return out ?? patches;
}

/** An entry as a window gets it (a tool call waiting for permission keeps its diffs whole). */
export function windowEntry(entry: Entry): Entry {
  if (entry.kind !== 'tool_call' || hasPendingPermission(entry)) return entry;
  const content = windowContent(entry.content);
  return content ? { ...entry, content } : entry;
}

function hasPendingPermission(entry: ToolCallEntry): boolean {
  return entry.permissions.some((p) => p.status === 'pending');
}
