/**
 * The cold store of a live session's transcript (common/transcript/live-transcript.ts): entries
 * appended to one file in the data folder's `tmp/` and read back by offset. A record is a 4-byte
 * length, the entry as JSON with its long texts (diff old/new text, text blocks of 1 KiB and more)
 * left empty, then those texts as raw UTF-8 — copying a 16 KiB diff is much cheaper than escaping
 * it into JSON (that was 10 % of the core's CPU under a flood). Appends are
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
    const { json, texts } = encode(entry);
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    let worst = 4 + json.length * 3;
    for (const t of texts) worst += t.length * 3;
    if (this.used + worst > BLOCK_BYTES) this.flush(fd);
    if (worst > BLOCK_BYTES) {
      const bytes = Buffer.concat([Buffer.alloc(4), Buffer.from(json, 'utf8'), ...texts.map((t) => Buffer.from(t, 'utf8'))]);
      bytes.writeUInt32LE(Buffer.byteLength(json), 0);
      const at = this.written;
      writeAll(fd, bytes, at);
      this.written += bytes.length;
      return { at, length: bytes.length };
    }
    const at = this.written + this.used;
    const start = this.used;
    const jsonLength = this.block.write(json, start + 4, 'utf8');
    this.block.writeUInt32LE(jsonLength, start);
    let end = start + 4 + jsonLength;
    for (const t of texts) end += this.block.write(t, end, 'utf8');
    this.used = end;
    return { at, length: end - start };
  }

  get(ref: ColdRef): Entry {
    return decode(this.read(ref.at, ref.length), 0, ref.length);
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
      for (let k = i; k < j; k++) out.push(decode(bytes, refs[k]!.at - refs[i]!.at, refs[k]!.length));
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

/** Texts at least this long are written raw, after the JSON. */
const RAW_TEXT_CHARS = 1024;

type RawField = 'text' | 'oldText' | 'newText';
/** Where a raw text goes back: content block index, field, UTF-8 byte length. */
type RawPlace = [number, RawField, number];

/**
 * The entry's JSON with its long texts taken out (a shallow copy: the entry is not touched) and
 * the texts in order. A text that is not well-formed UTF-16 (a lone surrogate) stays in the JSON,
 * which keeps it exactly; UTF-8 could not.
 */
function encode(entry: Entry): { json: string; texts: string[] } {
  const content = (entry as { content?: unknown }).content;
  const texts: string[] = [];
  const places: RawPlace[] = [];
  let copy: unknown[] | undefined;
  if (Array.isArray(content)) {
    content.forEach((block: unknown, i) => {
      if (typeof block !== 'object' || block === null) return;
      const b = block as Record<string, unknown>;
      const fields: RawField[] = b.type === 'diff' ? ['oldText', 'newText'] : b.type === 'text' ? ['text'] : [];
      let changed: Record<string, unknown> | undefined;
      for (const f of fields) {
        const v = b[f];
        if (typeof v !== 'string' || v.length < RAW_TEXT_CHARS || !isWellFormed(v)) continue;
        changed ??= { ...b };
        changed[f] = '';
        texts.push(v);
        places.push([i, f, Buffer.byteLength(v)]);
      }
      if (changed) (copy ??= [...content])[i] = changed;
    });
  }
  const e = copy ? { ...entry, content: copy } : entry;
  return { json: JSON.stringify(places.length ? { e, raw: places } : { e }), texts };
}

function decode(bytes: Buffer, start: number, length: number): Entry {
  const jsonLength = bytes.readUInt32LE(start);
  let at = start + 4 + jsonLength;
  const { e, raw } = JSON.parse(bytes.toString('utf8', start + 4, at)) as { e: Entry; raw?: RawPlace[] };
  for (const [i, field, size] of raw ?? []) {
    ((e as unknown as { content: Array<Record<string, unknown>> }).content[i]!)[field] = bytes.toString('utf8', at, at + size);
    at += size;
  }
  if (at !== start + length) throw new Error(`A transcript spill record is damaged (${at - start} of ${length} bytes used).`);
  return e;
}

const isWellFormed = (text: string): boolean => (text as { isWellFormed?: () => boolean }).isWellFormed?.() ?? false;

function writeAll(fd: number, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
}
