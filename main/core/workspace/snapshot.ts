/**
 * The starting point of a compare run in a git repository: a snapshot commit of the working tree
 * as the user sees it — HEAD plus staged, unstaged and untracked (not ignored) changes — made
 * without touching the user's branch, index, working tree or stash. A temporary index file takes
 * the place of the user's, so the only trace left is new objects under .git/.
 */
import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { relative } from 'node:path';
import { atDir, gitText, runGit } from './git';

export interface RepoInfo {
  /** The repository's top folder (real path). */
  root: string;
  /** The project folder relative to `root`, with `/` separators; `''` when it is the root. */
  subdir: string;
  /** The commit HEAD points at; null in a repository without commits. */
  head: string | null;
  /** The current branch (short name); null when HEAD is detached or unborn without a name. */
  branch: string | null;
}

/** The repository `cwd` is in, or null when it is in none (or the folder is ignored by its repository). */
export async function findRepo(cwd: string): Promise<RepoInfo | null> {
  let top: string;
  try {
    top = await gitText(atDir(cwd), ['rev-parse', '--show-toplevel']);
  } catch {
    return null;
  }
  if (!top) return null; // inside a .git folder or a bare repository
  const root = realpathSync(top);
  const subdir = relative(root, realpathSync(cwd)).split('\\').join('/');
  if (subdir) {
    // An ignored project folder would be missing from the snapshot: treat it as a plain folder.
    const ignored = await runGit(atDir(root), ['check-ignore', '-q', '--', subdir], { allowCodes: [1] });
    if (ignored.code === 0) return null;
  }
  const head = (await runGit(atDir(root), ['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { allowCodes: [1] })).stdout.toString().trim() || null;
  const branch = (await runGit(atDir(root), ['symbolic-ref', '-q', '--short', 'HEAD'], { allowCodes: [1] })).stdout.toString().trim() || null;
  return { root, subdir, head, branch };
}

/**
 * Commit the working tree of `root` as it is now (with `head` as parent when there is one), using
 * `tmpIndex` (a path outside the repository, removed afterwards) instead of the user's index.
 * `excluded` paths (relative to `root`) are left out.
 */
export async function snapshotWorkingTree(root: string, head: string | null, tmpIndex: string, excluded: readonly string[] = []): Promise<string> {
  await rm(tmpIndex, { force: true });
  const place = atDir(root, { GIT_INDEX_FILE: tmpIndex });
  try {
    if (head) await runGit(place, ['read-tree', head]);
    await runGit(place, ['add', '--all', '--', '.', ...excluded.map((p) => `:(exclude,literal)${p}`)]);
    const tree = await gitText(place, ['write-tree']);
    return await gitText(place, ['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', 'acp-workbench: snapshot of the working tree']);
  } finally {
    await rm(tmpIndex, { force: true });
  }
}
