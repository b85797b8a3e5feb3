/**
 * Small file helpers for the user's own files (settings, secrets): a reader that tells "missing"
 * from "unreadable", and an atomic writer, so a crash mid-write never leaves a half file behind.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The file's text, or undefined when it does not exist (other errors propagate). */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Write via a temp file in the same folder + rename: readers see the old file or the new one,
 * never a torn one. `mode` is applied to the temp file before any content is written, so a
 * secret never sits in a world-readable file even briefly.
 */
export async function writeFileAtomic(file: string, text: string, options: { mode?: number; dirMode?: number } = {}): Promise<void> {
  const dir = dirname(file);
  await fs.mkdir(dir, { recursive: true, ...(options.dirMode !== undefined ? { mode: options.dirMode } : {}) });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const mode = options.mode ?? 0o644;
  const handle = await fs.open(temp, 'wx', mode);
  try {
    // The umask may have narrowed or (for 0600) not mattered; chmod makes the mode exact.
    await handle.chmod(mode);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** JSON the way a person would write it: 2-space indent, trailing newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
