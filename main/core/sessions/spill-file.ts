/**
 * The cold store of a live session's transcript (common/transcript/live-transcript.ts): entries
 * appended to one file in the data folder's `tmp/` and read back by offset. A record is a 4-byte
 * length (of the JSON), the entry's long texts (diff old/new text, text blocks of 1 KiB and more) as
 * raw UTF-8, then the entry as JSON with those texts left empty and their places and byte sizes —
 * copying a 16 KiB diff is much cheaper than escaping it into JSON (that was 10 % of the core's CPU
 * under a flood), and writing the texts first gives their sizes without measuring them. Appends are
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
    const raw = longTexts(entry);
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    let worst = 4;
    for (const r of raw) worst += r.text.length * 3;
    if (this.used + worst + ROOM_FOR_JSON > BLOCK_BYTES) this.flush(fd);
    if (worst + ROOM_FOR_JSON > BLOCK_BYTES) return this.putAlone(fd, entry, raw);
    // The texts first, straight into the block: their UTF-8 sizes come from the writes (no pass
    // over each text to measure it), and the JSON that lists them follows.
    const start = this.used;
    let end = start + 4;
    const places: RawPlace[] = [];
    for (const r of raw) {
      const size = this.block.write(r.text, end, 'utf8');
      places.push([r.index, r.field, size]);
      end += size;
    }
    const json = entryJson(entry, raw, places);
    if (end + json.length * 3 > BLOCK_BYTES) return this.putAlone(fd, entry, raw, json);
    const jsonLength = this.block.write(json, end, 'utf8');
    this.block.writeUInt32LE(jsonLength, start);
    end += jsonLength;
    const at = this.written + start;
    this.used = end;
    return { at, length: end - start };
  }

  /** A record that does not fit in a block (huge texts, or a huge entry): written on its own. */
  private putAlone(fd: number, entry: Entry, raw: readonly LongText[], knownJson?: string): ColdRef {
    this.flush(fd);
    const texts = raw.map((r) => Buffer.from(r.text, 'utf8'));
    const json = Buffer.from(knownJson ?? entryJson(entry, raw, raw.map((r, k) => [r.index, r.field, texts[k]!.length])), 'utf8');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(json.length, 0);
    const bytes = Buffer.concat([head, ...texts, json]);
    const at = this.written;
    writeAll(fd, bytes, at);
    this.written += bytes.length;
    return { at, length: bytes.length };
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

/** Texts at least this long are written raw, before the JSON. */
const RAW_TEXT_CHARS = 1024;
/** Room kept in the block for an entry's JSON besides its long texts (a bigger JSON is written alone). */
const ROOM_FOR_JSON = 16 * 1024;

type RawField = 'text' | 'oldText' | 'newText';
/** Where a raw text goes back: content block index, field, UTF-8 byte length. */
type RawPlace = [number, RawField, number];

/** A long text of the entry, written raw: its content block (the entry's own object), index and field. */
interface LongText {
  block: Record<string, unknown>;
  index: number;
  field: RawField;
  text: string;
}

/**
 * The entry's long texts, in order. A text that is not well-formed UTF-16 (a lone surrogate) stays
 * in the JSON, which keeps it exactly; UTF-8 could not.
 */
function longTexts(entry: Entry): LongText[] {
  const content = (entry as { content?: unknown }).content;
  const out: LongText[] = [];
  if (!Array.isArray(content)) return out;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (typeof block !== 'object' || block === null) continue;
    const b = block as Record<string, unknown>;
    if (b.type === 'diff') {
      takeLong(out, b, i, 'oldText');
      takeLong(out, b, i, 'newText');
    } else if (b.type === 'text') takeLong(out, b, i, 'text');
  }
  return out;
}

function takeLong(out: LongText[], block: Record<string, unknown>, index: number, field: RawField): void {
  const text = block[field];
  if (typeof text === 'string' && text.length >= RAW_TEXT_CHARS && isWellFormed(text)) out.push({ block, index, field, text });
}

/**
 * `{"e": entry, "raw": places}` with the long texts as empty strings. The entry's own blocks are
 * blanked for the moment of `JSON.stringify` and restored at once (no copy of the entry, its
 * content array and blocks per spill: key order and every other value stay as they are); a block
 * that cannot be written (frozen) is copied instead.
 */
function entryJson(entry: Entry, raw: readonly LongText[], places: readonly RawPlace[]): string {
  if (raw.length === 0) return JSON.stringify({ e: entry });
  let blanked = 0;
  try {
    for (; blanked < raw.length; blanked++) raw[blanked]!.block[raw[blanked]!.field] = '';
  } catch {
    restore(raw, blanked);
    return JSON.stringify({ e: copiedWithout(entry, raw), raw: places });
  }
  try {
    return JSON.stringify({ e: entry, raw: places });
  } finally {
    restore(raw, blanked);
  }
}

function restore(raw: readonly LongText[], count: number): void {
  for (let k = 0; k < count; k++) raw[k]!.block[raw[k]!.field] = raw[k]!.text;
}

/** A shallow copy of the entry with its long texts empty (the entry is not touched). */
function copiedWithout(entry: Entry, raw: readonly LongText[]): Entry {
  const content = [...(entry as unknown as { content: unknown[] }).content];
  for (const r of raw) {
    const copy = content[r.index] === r.block ? { ...r.block } : (content[r.index] as Record<string, unknown>);
    copy[r.field] = '';
    content[r.index] = copy;
  }
  return { ...entry, content } as Entry;
}

/** A record: a 4-byte JSON length, the raw texts, then the JSON (`{ e, raw? }`). */
function decode(bytes: Buffer, start: number, length: number): Entry {
  const jsonLength = bytes.readUInt32LE(start);
  const end = start + length;
  const { e, raw } = JSON.parse(bytes.toString('utf8', end - jsonLength, end)) as { e: Entry; raw?: RawPlace[] };
  let at = start + 4;
  for (const [i, field, size] of raw ?? []) {
    ((e as unknown as { content: Array<Record<string, unknown>> }).content[i]!)[field] = bytes.toString('utf8', at, at + size);
    at += size;
  }
  if (at !== end - jsonLength) throw new Error(`A transcript spill record is damaged (${at + jsonLength - start} of ${length} bytes used).`);
  return e;
}

const isWellFormed = (text: string): boolean => (text as { isWellFormed?: () => boolean }).isWellFormed?.() ?? false;

function writeAll(fd: number, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
}
