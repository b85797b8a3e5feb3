/**
 * A session's changes as one patch (`sessions diff`, History's "Download patch"): each file's
 * unified patch (unified-patch.ts), named relative to the session's folder so that `git apply` run
 * in a copy of that folder applies it. Pure: no `node:path`, so the window builds the same text.
 */
import type { FileDiff } from '../transcript/file-diffs';
import { unifiedPatch } from './unified-patch';

/** The path relative to `cwd` with `/` separators when it is inside it, else null. */
export function patchPath(path: string, cwd: string | undefined): string | null {
  if (!cwd) return null;
  const root = cwd.replace(/[\\/]+$/, '');
  if (root === '' || !path.startsWith(root)) return null;
  const sepChar = path[root.length];
  if (sepChar !== '/' && sepChar !== '\\') return null;
  const rel = path.slice(root.length + 1).replace(/\\/g, '/');
  if (rel === '' || rel.split('/').some((part) => part === '..')) return null;
  return rel;
}

/** How a patch names a file outside the folder: from the file system's root, `/` separators, no leading slash or drive colon. */
export function rootedPatchPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^([A-Za-z]):/, '$1').replace(/^\/+/, '');
}

/** The patch of every file, in the order given. */
export function sessionPatch(files: readonly FileDiff[], cwd: string | undefined): string {
  return files.map((f) => unifiedPatch({ path: patchPath(f.path, cwd) ?? rootedPatchPath(f.path), oldText: f.oldText, newText: f.newText })).join('');
}
