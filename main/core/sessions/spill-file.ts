/**
 * The cold store of a live session's transcript (common/transcript/live-transcript.ts): entries
 * as JSON, appended to one file in the data folder's `tmp/` and read back by offset. Appends are
 * gathered in a 256 KiB block and written in one call; an entry still in the block is read from
 * it. Reads and writes are synchronous: a window of entries is a few reads of the page cache, and
 * `session/entries` stays a plain call.
 *
 * The file lives only as long as the session: on POSIX it is unlinked as soon as it is open (the
 * open descriptor keeps it, and nothing is left behind if the process dies); elsewhere it is
 * deleted by `close()`. The trace stays the record of truth — this is a cache of the transcript.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ColdRef, ColdStore } from '../../../common/transcript/cold-store';
import type { Entry } from '../../../common/transcript/model';

const BLOCK_BYTES = 256 * 1024;

export class SpillFile implements ColdStore {
  readonly path: string;
  private fd: number | null;
  /** Bytes already in the file. */
  private written = 0;
  private readonly block = Buffer.allocUnsafe(BLOCK_BYTES);
  /** Bytes of `block` in use (they follow `written`). */
  private used = 0;

  constructor(dir: string, name: string) {
    this.path = join(dir, name);
    try {
      mkdirSync(dir, { recursive: true });
      this.fd = openSync(this.path, 'w+');
    } catch (err) {
      throw new Error(`Could not create the transcript spill file ${this.path}: ${(err as Error).message}. Check that the data folder is writable.`);
    }
    if (process.platform !== 'win32') {
      try {
        unlinkSync(this.path);
      } catch {
        // Left for close() to remove.
      }
    }
  }

  /** Bytes spilled so far (figures, tests). */
  get size(): number {
    return this.written + this.used;
  }

  put(entry: Entry): ColdRef {
    const fd = this.open();
    const text = JSON.stringify(entry);
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (this.used + text.length * 3 > BLOCK_BYTES) this.flush(fd);
    if (text.length * 3 > BLOCK_BYTES) {
      const bytes = Buffer.from(text, 'utf8');
      const at = this.written;
      writeAll(fd, bytes, at);
      this.written += bytes.length;
      return { at, length: bytes.length };
    }
    const at = this.written + this.used;
    const length = this.block.write(text, this.used, 'utf8');
    this.used += length;
    return { at, length };
  }

  get(ref: ColdRef): Entry {
    return JSON.parse(this.read(ref.at, ref.length).toString('utf8')) as Entry;
  }

  /** Consecutive refs (the usual window: entries spilled in order) are read in one call. */
  getMany(refs: readonly ColdRef[]): Entry[] {
    const out: Entry[] = [];
    let i = 0;
    while (i < refs.length) {
      let j = i + 1;
      let end = refs[i]!.at + refs[i]!.length;
      while (j < refs.length && refs[j]!.at === end && end - refs[i]!.at < 4 * BLOCK_BYTES) end += refs[j++]!.length;
      const bytes = this.read(refs[i]!.at, end - refs[i]!.at);
      for (let k = i; k < j; k++) {
        const from = refs[k]!.at - refs[i]!.at;
        out.push(JSON.parse(bytes.toString('utf8', from, from + refs[k]!.length)) as Entry);
      }
      i = j;
    }
    return out;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    if (process.platform === 'win32') rmSync(this.path, { force: true });
  }

  private read(at: number, length: number): Buffer {
    const fd = this.open();
    if (at >= this.written) return this.block.subarray(at - this.written, at - this.written + length);
    if (at + length > this.written) this.flush(fd); // straddles the block: write it first
    const bytes = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, bytes, done, length - done, at + done);
      if (n === 0) throw new Error(`The transcript spill file ${this.path} ended early (wanted ${length} bytes at ${at}).`);
      done += n;
    }
    return bytes;
  }

  private flush(fd: number): void {
    if (this.used === 0) return;
    writeAll(fd, this.block.subarray(0, this.used), this.written);
    this.written += this.used;
    this.used = 0;
  }

  private open(): number {
    if (this.fd === null) throw new Error('The session was closed: its transcript is only in the trace now (open it from history).');
    return this.fd;
  }
}

function writeAll(fd: number, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
}
