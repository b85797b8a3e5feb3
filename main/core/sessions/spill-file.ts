/**
 * The cold store of a live session's transcript (common/transcript/live-transcript.ts): entries
 * appended to one file in the data folder's `tmp/` and read back by offset. A record is a 4-byte
 * length, the entry as JSON with its long texts (diff old/new text, text blocks of 1 KiB and more)
 * left empty, then those texts as raw UTF-8 — copying a 16 KiB diff is much cheaper than escaping
 * it into JSON (that was 10 % of the core's CPU under a flood). A tool call's diff texts that the
 * trace line of its last content update holds (`TextSource`, checked by value when it is spilled)
 * are not written at all when the file has the connection's trace: the record says where that line
 * is and which of its content blocks holds each text, and reading the entry back parses the line
 * (issue #11: each 16 KiB diff was written twice, to the trace and here). Appends are
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
import type { ColdRef, ColdStore, TextSource } from '../../../common/transcript/cold-store';
import type { Entry } from '../../../common/transcript/model';

const BLOCK_BYTES = 256 * 1024;

/** The connection's trace, readable by byte range (main/core/history/trace-read-back.ts). */
export interface TraceBytes {
  read(at: number, length: number): Buffer;
  close(): void;
}

export class SpillFile implements ColdStore {
  readonly path: string;
  private fd: number | null;
  /** Bytes already in the file. */
  private written = 0;
  private readonly block = Buffer.allocUnsafe(BLOCK_BYTES);
  /** Bytes of `block` in use (they follow `written`). */
  private used = 0;

  /**
   * `trace`: the connection's trace. A tool call's long diff texts that the `session/update` line
   * it was last given (`TextSource`) holds are then not written again: the record keeps where that
   * line is, and reading the entry back parses the line and takes the texts from it.
   */
  constructor(dir: string, name: string, private readonly trace?: TraceBytes) {
    this.path = join(dir, name);
    try {
      mkdirSync(dir, { recursive: true });
      this.fd = openSync(this.path, 'w+');
    } catch (err) {
      trace?.close();
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

  put(entry: Entry, source?: TextSource): ColdRef {
    const fd = this.open();
    const { json, texts, size } = encode(entry, this.trace ? source : undefined);
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
      return withSize({ at, length: bytes.length }, size);
    }
    const at = this.written + this.used;
    const start = this.used;
    const jsonLength = this.block.write(json, start + 4, 'utf8');
    this.block.writeUInt32LE(jsonLength, start);
    let end = start + 4 + jsonLength;
    for (const t of texts) end += this.block.write(t, end, 'utf8');
    this.used = end;
    return withSize({ at, length: end - start }, size);
  }

  get(ref: ColdRef): Entry {
    return this.decode(this.read(ref.at, ref.length), 0, ref.length);
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
      for (let k = i; k < j; k++) out.push(this.decode(bytes, refs[k]!.at - refs[i]!.at, refs[k]!.length));
      i = j;
    }
    return out;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    this.trace?.close();
    if (process.platform === 'win32') rmSync(this.path, { force: true });
  }

  private decode(bytes: Buffer, start: number, length: number): Entry {
    const jsonLength = bytes.readUInt32LE(start);
    let at = start + 4 + jsonLength;
    const { e, raw, trace } = JSON.parse(bytes.toString('utf8', start + 4, at)) as { e: Entry; raw?: RawPlace[]; trace?: TracePlaces };
    const content = (e as unknown as { content: Array<Record<string, unknown>> }).content;
    for (const [i, field, size] of raw ?? []) {
      content[i]![field] = bytes.toString('utf8', at, at + size);
      at += size;
    }
    if (at !== start + length) throw new Error(`A transcript spill record is damaged (${at - start} of ${length} bytes used).`);
    if (trace) {
      const [lineAt, lineLength, places] = trace;
      if (!this.trace) throw new Error('A transcript spill record refers to the trace, but this spill file has none.');
      const texts = tracedContent(this.trace.read(lineAt, lineLength));
      for (const [i, field, j, chars] of places) {
        const text = (texts?.[j] as Record<string, unknown> | undefined)?.[field];
        if (typeof text !== 'string' || text.length !== chars) {
          throw new Error(`The trace line at byte ${lineAt} does not hold the ${field} of a spilled tool call: the trace was changed, or the spill record is damaged.`);
        }
        content[i]![field] = text;
      }
    }
    return e;
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
/** Where a text is in the traced update's content: entry content block index, field, index in the update's content, UTF-16 length. */
type TracePlace = [number, RawField, number, number];
/** The traced line (byte offset and length) and the texts taken from it. */
type TracePlaces = [number, number, TracePlace[]];

/**
 * The entry's JSON with its long texts taken out (a shallow copy: the entry is not touched) and
 * the texts to write after it, in order. A text that is not well-formed UTF-16 (a lone surrogate)
 * stays in the JSON, which keeps it exactly; UTF-8 could not. A diff text that `source`'s content
 * holds (a diff block with the same string in the same field) is not written: the record says
 * where it is in the traced line. `size`, when texts were left in the trace: the record's length
 * had they been written (what `ColdRef.size` reports).
 */
function encode(entry: Entry, source: TextSource | undefined): { json: string; texts: string[]; size?: number } {
  const content = (entry as { content?: unknown }).content;
  const texts: string[] = [];
  const places: RawPlace[] = [];
  let traced: TracePlace[] | undefined;
  /** Every long text's place (written or traced), in content order: the record as it would be without the trace. */
  let all: RawPlace[] | undefined;
  let tracedBytes = 0;
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
        const bytes = Buffer.byteLength(v);
        const j = b.type === 'diff' && source ? tracedBlock(source, i, f, v) : -1;
        if (j >= 0) {
          (traced ??= []).push([i, f, j, v.length]);
          (all ??= [...places]).push([i, f, bytes]);
          tracedBytes += bytes;
          continue;
        }
        texts.push(v);
        places.push([i, f, bytes]);
        all?.push([i, f, bytes]);
      }
      if (changed) (copy ??= [...content])[i] = changed;
    });
  }
  const e = copy ? { ...entry, content: copy } : entry;
  if (!traced) return { json: JSON.stringify(places.length ? { e, raw: places } : { e }), texts };
  const eJson = JSON.stringify(e);
  const json = `{"e":${eJson}${places.length ? `,"raw":${JSON.stringify(places)}` : ''},"trace":${JSON.stringify([source!.at, source!.length, traced])}}`;
  // The record without the trace: {"e":…,"raw":[every text]}, then every text.
  const untraced = `{"e":${eJson},"raw":${JSON.stringify(all)}}`;
  const writtenBytes = places.reduce((n, p) => n + p[2], 0);
  return { json, texts, size: 4 + Buffer.byteLength(untraced) + writtenBytes + tracedBytes };
}

/** Where the traced update holds the entry's text (block `i`, `field`), by the source's places, or -1. */
function tracedBlock(source: TextSource, i: number, field: RawField, text: string): number {
  for (const [block, f, j, chars] of source.places) if (block === i && f === field && chars === text.length) return j;
  return -1;
}

/** The `content` of the `session/update` a trace line records, or undefined. */
function tracedContent(line: Buffer): unknown[] | undefined {
  const record = JSON.parse(line.toString('utf8')) as { msg?: { params?: { update?: { content?: unknown } } } };
  const content = record.msg?.params?.update?.content;
  return Array.isArray(content) ? content : undefined;
}

function withSize(ref: { at: number; length: number }, size: number | undefined): ColdRef {
  return size === undefined ? ref : { ...ref, size };
}

const isWellFormed = (text: string): boolean => (text as { isWellFormed?: () => boolean }).isWellFormed?.() ?? false;

function writeAll(fd: number, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
}
