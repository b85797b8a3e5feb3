/**
 * What an agent changed in its workspace: the workspace's state is captured as a commit (objects
 * only, never a ref) whose parent is the agent's base, then compared with the base — files with
 * +/− lines and a binary-safe patch. A worktree uses its own index; a copy uses a private git dir
 * (`<run>/base.git`) and an index file per agent, so git never appears inside the copy.
 */
import { join } from 'node:path';
import { atDir, gitText, runGit, type GitPlace } from './git';
import type { FileChangeStat } from './run-types';

/** Where git runs for one agent's workspace. */
export function workspacePlace(isolation: 'worktree' | 'copy', workspace: string, copy?: { gitDir: string; indexFile: string }): GitPlace {
  if (isolation === 'worktree') return atDir(workspace);
  if (!copy) throw new Error('a copy workspace needs its git dir and index file');
  return { args: ['-C', workspace, '--git-dir', copy.gitDir, '--work-tree', workspace], env: { GIT_INDEX_FILE: copy.indexFile } };
}

/** Pathspecs for everything but the linked folders (links point at the user's own files). */
function pathspecs(excluded: readonly string[]): string[] {
  return ['--', '.', ...excluded.map((p) => `:(exclude,literal)${p}`)];
}

/**
 * The workspace as it is now, as a commit on top of `parent` (or without a parent); `parent`
 * itself when nothing differs from it, so an unchanged workspace keeps its base.
 */
export async function captureWorkspace(place: GitPlace, parent: string | null, excluded: readonly string[], message: string): Promise<string> {
  await runGit(place, ['add', '--all', ...pathspecs(excluded)]);
  const tree = await gitText(place, ['write-tree']);
  if (parent) {
    const parentTree = await gitText(place, ['rev-parse', `${parent}^{tree}`]);
    if (tree === parentTree) return parent;
  }
  return gitText(place, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message]);
}

const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-renames', '--no-color', '--ignore-submodules=none'];

/** Files changed between two commits, with +/− lines and object ids. */
export async function changedFiles(place: GitPlace, from: string, to: string): Promise<FileChangeStat[]> {
  if (from === to) return [];
  const raw = (await runGit(place, ['diff', ...DIFF_FLAGS, '--raw', '-z', '--no-abbrev', from, to])).stdout.toString('utf8');
  const numstat = (await runGit(place, ['diff', ...DIFF_FLAGS, '--numstat', '-z', from, to])).stdout.toString('utf8');
  const counts = new Map<string, { added: number | null; removed: number | null }>();
  for (const item of numstat.split('\0')) {
    if (!item) continue;
    const [a, r, ...rest] = item.split('\t');
    const path = rest.join('\t');
    counts.set(path, { added: a === '-' ? null : Number(a), removed: r === '-' ? null : Number(r) });
  }
  const out: FileChangeStat[] = [];
  const parts = raw.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!;
    const path = parts[i + 1]!;
    if (!meta.startsWith(':')) break;
    const [, newMode, oldId, newId, status] = meta.slice(1).split(' ');
    const zero = (id: string | undefined) => (!id || /^0+$/.test(id) ? null : id);
    const c = counts.get(path) ?? { added: null, removed: null };
    out.push({
      path,
      status: (status?.[0] ?? 'M') as FileChangeStat['status'],
      added: c.added,
      removed: c.removed,
      binary: c.added === null,
      oldId: zero(oldId),
      newId: zero(newId),
      newMode: newMode && !/^0+$/.test(newMode) ? newMode : null,
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A patch `git apply` takes (binary-safe, full object ids), optionally only for some paths. */
export async function patchBetween(place: GitPlace, from: string, to: string, paths?: readonly string[]): Promise<Buffer> {
  if (from === to) return Buffer.alloc(0);
  const args = ['diff', ...DIFF_FLAGS, '--binary', '--full-index', '--src-prefix=a/', '--dst-prefix=b/', from, to];
  if (paths) args.push('--', ...paths.map((p) => `:(literal)${p}`));
  return (await runGit(place, args)).stdout;
}

/** The content of an object (a file's content, or a link's target). */
export async function readObject(place: GitPlace, id: string): Promise<Buffer> {
  return (await runGit(place, ['cat-file', 'blob', id])).stdout;
}

/** The index file of a copy workspace's agent. */
export const copyIndexFile = (runDir: string, index: number) => join(runDir, 'index', `${index}`);
