/**
 * The workspace of an agent for a folder that is not in a git repository: a copy, without `.git`
 * folders, `node_modules` folders and files over a size limit (each listed, so the user is told
 * what the agents will not see). Symbolic links are copied as links; sockets and devices are skipped.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface SkippedPath {
  /** Relative to the copied folder, `/`-separated. */
  path: string;
  reason: 'git-folder' | 'node_modules' | 'too-large' | 'special-file' | 'workbench-data';
  bytes?: number;
}

export interface CopyOptions {
  /** Files larger than this are not copied. */
  maxFileBytes: number;
  /** Paths (relative to the copied folder, `/`-separated) not copied: the workbench's own data folder. */
  skip?: readonly string[];
  /** Told of each file copied, with its size (progress for the user: a large folder takes a while). */
  onFile?: (bytes: number) => void;
}

export const DEFAULT_MAX_COPY_FILE_BYTES = 10 * 1024 * 1024;

const SKIPPED_FOLDERS: Record<string, SkippedPath['reason']> = { '.git': 'git-folder', node_modules: 'node_modules' };

/** Copy `from` into `to` (created), returning what was skipped. */
export async function copyFolder(from: string, to: string, options: CopyOptions): Promise<SkippedPath[]> {
  const skipped: SkippedPath[] = [];
  const walk = async (rel: string): Promise<void> => {
    const src = rel ? join(from, rel) : from;
    const dst = rel ? join(to, rel) : to;
    await mkdir(dst, { recursive: true });
    const names = (await readdir(src)).sort();
    for (const name of names) {
      const childRel = rel ? `${rel}/${name}` : name;
      const s = join(src, name);
      const d = join(dst, name);
      const st = await lstat(s);
      if (options.skip?.includes(childRel)) {
        skipped.push({ path: childRel, reason: 'workbench-data' });
      } else if (name === '.git') {
        // A .git folder, or the .git file of a worktree or submodule: never part of the copy.
        skipped.push({ path: childRel, reason: 'git-folder' });
      } else if (st.isDirectory()) {
        const reason = SKIPPED_FOLDERS[name];
        if (reason) skipped.push({ path: childRel, reason });
        else await walk(childRel);
      } else if (st.isSymbolicLink()) {
        if (SKIPPED_FOLDERS[name]) skipped.push({ path: childRel, reason: SKIPPED_FOLDERS[name]! });
        else await symlink(await readlink(s), d);
      } else if (st.isFile()) {
        if (st.size > options.maxFileBytes) skipped.push({ path: childRel, reason: 'too-large', bytes: st.size });
        else {
          await copyFile(s, d, constants.COPYFILE_FICLONE);
          options.onFile?.(st.size);
        }
      } else {
        skipped.push({ path: childRel, reason: 'special-file' });
      }
    }
  };
  await walk('');
  return skipped;
}

/** One line for a warning: what was not copied and why. */
export function describeSkipped(skipped: readonly SkippedPath[]): string {
  const words = (s: SkippedPath) =>
    s.reason === 'too-large' ? `${s.path} (${Math.round((s.bytes ?? 0) / 1024)} KiB, over the size limit)` : s.reason === 'special-file' ? `${s.path} (not a regular file)` : s.path;
  return `not copied into the workspaces: ${skipped.map(words).join(', ')}`;
}
