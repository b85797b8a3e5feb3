/**
 * The index's side file of details: per trace file its FileDetail (cards.ts) as one line of JSON,
 * found by the byte offset and length the snapshot records for it. The snapshot (index.json) stays
 * small — cards, positions, documents — so a fresh process parses it quickly; a detail is read
 * (one small positioned read) only when a session's full entry or its file's fold state is needed.
 *
 * A side file is written under the index lock, next to the snapshot that refers to it, with a name of
 * its own (never rewritten in place): a process that loaded an older snapshot keeps reading the older
 * side file it has open, as it does with segments. A catch-up that changed a few details makes the
 * next side file as a copy of the previous one with those appended (`extendDetailFile`: unchanged
 * details keep their offsets, and nothing is read or written by the process but the new details);
 * when too much of it is no longer referenced, it is written whole again, compacted.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { copyFile, open, stat, writeFile } from 'node:fs/promises';

/** Where a detail is in the side file: [byte offset, byte length]. */
export type DetailAt = [number, number];

/** The side file's name for a snapshot generation (the pid keeps two writers apart). */
export const detailFileName = (generation: number, pid = process.pid): string => `details-${generation}-${pid}.jsonl`;

export const DETAIL_FILE = /^details-\d+-\d+\.jsonl$/;

export class DetailFileCorrupt extends Error {
  constructor(path: string, why: string) {
    super(`${path}: ${why}`);
    this.name = 'DetailFileCorrupt';
  }
}

/** An open side file; `read` is synchronous (details are needed deep in synchronous code). */
export class DetailFile {
  private constructor(
    readonly path: string,
    private fd: number | undefined,
    readonly bytes: number,
  ) {}

  /** Opens the side file, which must have the size the snapshot recorded. */
  static async open(path: string, expectedBytes: number): Promise<DetailFile> {
    const size = (await stat(path)).size;
    if (size !== expectedBytes) throw new DetailFileCorrupt(path, `${size} bytes, the index expects ${expectedBytes}`);
    return new DetailFile(path, openSync(path, 'r'), size);
  }

  /** The JSON text of the detail at `at`. */
  read(at: DetailAt): string {
    if (this.fd === undefined) throw new Error(`${this.path} is closed`);
    const [offset, length] = at;
    if (offset < 0 || length < 0 || offset + length > this.bytes) throw new DetailFileCorrupt(this.path, `a detail at ${offset}+${length} is outside its ${this.bytes} bytes`);
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, buf, done, length - done, offset + done);
      if (n === 0) throw new DetailFileCorrupt(this.path, 'cut short');
      done += n;
    }
    return buf.toString('utf8');
  }

  /** The whole file (for copying the details that did not change into the next side file). */
  async readAll(): Promise<Buffer> {
    const file = await open(this.path, 'r');
    try {
      const buf = Buffer.allocUnsafe(this.bytes);
      let done = 0;
      while (done < this.bytes) {
        const { bytesRead } = await file.read(buf, done, this.bytes - done, done);
        if (bytesRead === 0) throw new DetailFileCorrupt(this.path, 'cut short');
        done += bytesRead;
      }
      return buf;
    } finally {
      await file.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Writes a side file from the details in order — each either JSON text (new or changed) or bytes
 * (copied from the previous side file) — one per line. Returns where each one went and the size.
 */
export async function writeDetailFile(path: string, details: ReadonlyArray<string | Uint8Array>): Promise<{ at: DetailAt[]; bytes: number }> {
  const parts: Uint8Array[] = [];
  const at: DetailAt[] = [];
  const newline = Buffer.from('\n');
  let offset = 0;
  for (const d of details) {
    const bytes = typeof d === 'string' ? Buffer.from(d, 'utf8') : d;
    at.push([offset, bytes.length]);
    parts.push(bytes, newline);
    offset += bytes.length + 1;
  }
  await writeFile(path, Buffer.concat(parts, offset));
  return { at, bytes: offset };
}

/**
 * Writes the next side file as a copy of `previous` (the kernel's copy; it must still have
 * `previousBytes`) followed by `appended`, one per line. Unchanged details keep their offsets; returns
 * where each appended one went and the new size. Throws `DetailFileCorrupt` when `previous` is not
 * the size expected (the caller then writes the side file whole).
 */
export async function extendDetailFile(previous: string, previousBytes: number, path: string, appended: readonly string[]): Promise<{ at: DetailAt[]; bytes: number }> {
  await copyFile(previous, path);
  const file = await open(path, 'r+');
  try {
    const size = (await file.stat()).size;
    if (size !== previousBytes) throw new DetailFileCorrupt(previous, `${size} bytes, the index expects ${previousBytes}`);
    const at: DetailAt[] = [];
    const parts: Buffer[] = [];
    let offset = previousBytes;
    for (const d of appended) {
      const bytes = Buffer.from(d, 'utf8');
      at.push([offset, bytes.length]);
      parts.push(bytes, NEWLINE);
      offset += bytes.length + 1;
    }
    const tail = Buffer.concat(parts, offset - previousBytes);
    let done = 0;
    while (done < tail.length) done += (await file.write(tail, done, tail.length - done, previousBytes + done)).bytesWritten;
    return { at, bytes: offset };
  } finally {
    await file.close();
  }
}

const NEWLINE = Buffer.from('\n');
