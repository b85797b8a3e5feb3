/**
 * Folders that complete what the user is typing as a project folder ("/home/ada/pr" →
 * "/home/ada/projects/", "/home/ada/prototypes/"; "~/pr" → "~/projects/"): the folders of the typed
 * path's parent whose names start with its last part, case-insensitively; hidden ones only when
 * that part starts with a dot. A folder that cannot be read completes to nothing — never an error:
 * the user is still typing.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';

/** Folders offered at most. */
export const MAX_COMPLETIONS = 50;

export async function folderCompletions(partial: string, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const tilde = partial === '~' || partial.startsWith('~/');
  const typed = tilde ? partial.slice(2) : partial;
  const cut = Math.max(typed.lastIndexOf('/'), sep === '\\' ? typed.lastIndexOf('\\') : -1);
  const dirPart = typed.slice(0, cut + 1);
  const start = typed.slice(cut + 1).toLowerCase();
  if (!tilde && !(dirPart && isAbsolute(dirPart))) return [];
  const parent = tilde ? join(env.HOME || homedir(), dirPart) : dirPart;
  let entries: Dirent[];
  try {
    entries = await readdir(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  const wanted = entries.filter((e) => e.name.toLowerCase().startsWith(start) && (start.startsWith('.') || !e.name.startsWith('.')));
  // A link to a folder is a folder here (a project reached through ~/code → /mnt/…).
  const folders = await Promise.all(wanted.map(async (e) => e.isDirectory() || (e.isSymbolicLink() && (await stat(join(parent, e.name)).then((st) => st.isDirectory(), () => false)))));
  return wanted
    .filter((_, i) => folders[i])
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b))
    .slice(0, MAX_COMPLETIONS)
    .map((n) => `${tilde ? '~/' : ''}${dirPart}${n}${sep}`);
}
