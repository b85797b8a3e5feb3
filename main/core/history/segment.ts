/**
 * One immutable piece of the full-text index on disk: a sorted term dictionary and, per term, its
 * postings (document id, the fields it occurs in, its weighted count). Histories hold millions of
 * distinct words (identifiers, hashes, numbers), so the dictionary is not loaded: it is cut into
 * blocks of 128 terms, and only the first term of each block is read when the segment is opened. A
 * lookup reads one block and the postings of the word; answering from a cold process costs a few
 * milliseconds however big the history is. New text goes into new small segments; segments are
 * merged now and then (history-index.ts).
 *
 * File layout (little-endian):
 *   header (32 B): "ACPWSEG2" | u32 termCount | u32 blockCount | u32 docCount | u32 sparseBytes
 *                  | f64 blocksStart (file offset)
 *   sparse index:  per block: f64 offset (from blocksStart) | u32 bytes | u8 n | first term (n bytes)
 *   blocks:        per term: u8 n | term (n bytes, UTF-8; terms sorted by bytes) | varint df
 *                  | varint postingsOffset (from the postings start) | varint postingsBytes
 *   postings:      per term, per document in increasing id order:
 *                  varint(docId - previousDocId) (first: docId + 1), u8 fieldMask, varint(weight)
 */
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { encodeUtf8, pooledTerm, pooledTerms, type PooledTerms } from './pooled-terms';
import { byteOrder, termOrder } from './term-order';
import { CHUNK_BITS, CHUNK_INTS, CHUNK_MASK, type ChunkPool } from './arena-chunks';
import { KEY_BASE, keyDigit, SHORT_TERM } from './short-key';
import { withRoom } from '../../../common/transcript/typed-arrays';

export { compareTerms } from './term-order';

const MAGIC = 'ACPWSEG2';
const HEADER_BYTES = 32;
const BLOCK_TERMS = 128;
const MAX_TERM_BYTES = 255;

export interface Posting {
  doc: number;
  mask: number;
  weight: number;
}

class ByteBuffer {
  bytes: Uint8Array;
  length = 0;

  constructor(initial = 16) {
    this.bytes = new Uint8Array(Math.max(1, initial));
  }

  private room(n: number): void {
    if (this.length + n > this.bytes.length) this.bytes = withRoom(this.bytes, this.length + n, this.length);
  }

  byte(v: number): void {
    this.room(1);
    this.bytes[this.length++] = v;
  }

  varint(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.length++] = v;
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }

  f64(v: number): void {
    this.room(8);
    new DataView(this.bytes.buffer, this.bytes.byteOffset).setFloat64(this.length, v, true);
    this.length += 8;
  }

  u32(v: number): void {
    this.room(4);
    new DataView(this.bytes.buffer, this.bytes.byteOffset).setUint32(this.length, v, true);
    this.length += 4;
  }

  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** Reads varints and bytes from a buffer, checking bounds (a damaged file must not loop or lie). */
class Cursor {
  i = 0;
  constructor(
    readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}

  get done(): boolean {
    return this.i >= this.bytes.length;
  }

  byte(): number {
    if (this.i >= this.bytes.length) throw new Error(`${this.what} end in the middle of a value`);
    return this.bytes[this.i++]!;
  }

  varint(): number {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (this.i >= this.bytes.length) throw new Error(`${this.what} end in the middle of a number`);
      const b = this.bytes[this.i++]!;
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 0x80;
      if (mul > 2 ** 56) throw new Error(`${this.what} hold a number too large`);
    }
  }

  take(n: number): Uint8Array {
    if (this.i + n > this.bytes.length) throw new Error(`${this.what} end in the middle of a value`);
    const out = this.bytes.subarray(this.i, this.i + n);
    this.i += n;
    return out;
  }
}

/** Receives postings one by one (a class's method: one call target however many sinks there are). */
export interface PostingSink {
  posting(doc: number, mask: number, weight: number): void;
}

/** Decodes a term's postings into a sink object (search's hot path: see search.ts WordHits). */
export function decodePostingsInto(bytes: Uint8Array, sink: PostingSink): void {
  const c = new Cursor(bytes, 'postings');
  let doc = -1;
  while (!c.done) {
    doc += c.varint();
    const mask = c.byte();
    sink.posting(doc, mask, c.varint());
  }
}

/** decodePostingsInto with a callback. */
export function decodePostings(bytes: Uint8Array, onPosting: (doc: number, mask: number, weight: number) => void): void {
  decodePostingsInto(bytes, { posting: onPosting });
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

const startsWith = (t: Uint8Array, prefix: Uint8Array) => t.length >= prefix.length && compareBytes(t.subarray(0, prefix.length), prefix) === 0;

export interface SegmentInfo {
  terms: number;
  docs: number;
  bytes: number;
}


/**
 * Writes a segment from terms given in order, straight into two growing buffers (dictionary
 * blocks and postings): millions of terms cost no object each.
 */
class SegmentWriter {
  private readonly blocks: ByteBuffer;
  private readonly sparse = new ByteBuffer(1 << 12);
  private readonly postingsBuf: ByteBuffer;
  /** Where each block's entry starts in the sparse index (its length is filled in at the end). */
  private readonly sparseAt: number[] = [];
  private terms = 0;

  /**
   * `expect`: the bytes the blocks and postings will about take (a merge knows them from its
   * inputs), so the buffers start at that size instead of doubling up to it — each doubling
   * copied the buffer and left the old one to the garbage collector, and the merges at a
   * rebuild's end, both workers' at once, made its peak memory.
   */
  constructor(expect: { blocks: number; postings: number } = { blocks: 1 << 16, postings: 1 << 16 }) {
    this.blocks = new ByteBuffer(expect.blocks);
    this.postingsBuf = new ByteBuffer(expect.postings);
  }

  add(key: Uint8Array, df: number, postings: Uint8Array): void {
    if (key.length > MAX_TERM_BYTES) return;
    if (this.terms % BLOCK_TERMS === 0) {
      this.sparseAt.push(this.sparse.length);
      this.sparse.f64(this.blocks.length);
      this.sparse.u32(0);
      this.sparse.byte(key.length);
      this.sparse.raw(key);
    }
    this.blocks.byte(key.length);
    this.blocks.raw(key);
    this.blocks.varint(df);
    this.blocks.varint(this.postingsBuf.length);
    this.blocks.varint(postings.length);
    this.postingsBuf.raw(postings);
    this.terms++;
  }

  async write(path: string, docs: number): Promise<SegmentInfo> {
    const sparse = this.sparse.view();
    const sv = new DataView(sparse.buffer, sparse.byteOffset, sparse.byteLength);
    this.sparseAt.forEach((at, b) => {
      const begin = sv.getFloat64(at, true);
      const next = this.sparseAt[b + 1];
      const end = next !== undefined ? sv.getFloat64(next, true) : this.blocks.length;
      sv.setUint32(at + 8, end - begin, true);
    });
    const blocksStart = HEADER_BYTES + sparse.length;
    const head = new Uint8Array(HEADER_BYTES);
    const hv = new DataView(head.buffer);
    head.set(new TextEncoder().encode(MAGIC), 0);
    hv.setUint32(8, this.terms, true);
    hv.setUint32(12, this.sparseAt.length, true);
    hv.setUint32(16, docs, true);
    hv.setUint32(20, sparse.length, true);
    hv.setFloat64(24, blocksStart, true);
    const size = blocksStart + this.blocks.length + this.postingsBuf.length;
    // Written under another name and renamed: a reader never sees half a segment.
    const tmp = `${path}.tmp-${process.pid}`;
    const file = await open(tmp, 'w');
    try {
      for (const part of [head, sparse, this.blocks.view(), this.postingsBuf.view()]) {
        let done = 0;
        while (done < part.length) done += (await file.write(part, done, part.length - done)).bytesWritten;
      }
    } finally {
      await file.close();
    }
    await rename(tmp, path);
    return { terms: this.terms, docs, bytes: size };
  }
}


/** The short key (short-key.ts `shortKey`) of the term chars[at, at + len) (lower case, folded); 0 when it has none. */
function charsKey(chars: Uint16Array, at: number, len: number): number {
  if (len < 2 || len > SHORT_TERM) return 0;
  let key = 0;
  for (let i = at; i < at + len; i++) {
    const d = keyDigit(chars[i]!);
    if (d === 0) return 0;
    key = key * KEY_BASE + d;
  }
  return key;
}

/** A key table twice as big, its keys placed again. */
function grownKeySlots(old: Float64Array): Float64Array {
  const slots = new Float64Array(old.length * 2);
  const mask = (slots.length >> 1) - 1;
  for (let s = 0; s < old.length; s += 2) {
    const key = old[s]!;
    if (key === 0) continue;
    const m = Math.imul(key | 0, 0x9e3779b1);
    let slot = (m ^ (m >>> 15)) & mask;
    while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
    slots[2 * slot] = key;
    slots[2 * slot + 1] = old[s + 1]!;
  }
  return slots;
}

function grownInts(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * Collects postings in memory, documents in any order (each once); sorted when written. Its terms
 * are not strings: their characters are kept in one pool (as the term counter keeps a document's),
 * found by hash and compared there, and encoded to UTF-8, sorted and written from the pool. (As JS
 * strings they lived as long as the builder — promoted to the old generation and marked there —
 * and each probe compared strings.)
 */
export class SegmentBuilder {
  private termCount = 0;
  /** Term k's characters are chars[starts[k], starts[k + 1]). */
  private chars: Uint16Array = new Uint16Array(1 << 14);
  private starts: Int32Array = new Int32Array(1024);
  /**
   * The postings as a log, in the order they were added: (term, doc, mask, weight) per posting, four
   * ints, in chunks (arena-chunks.ts: int i of the log is chunks[i >>> CHUNK_BITS][i & CHUNK_MASK]).
   * Written one after another, so an add touches no per-term memory (a chain of blocks per term did:
   * its last block, its count, its place in the arena — cold again after every fold, ≈ a fifth of
   * the builder's add and write in one thread); `write` counts the log by term and scatters it into
   * each term's triplets (`byTerm`), two passes over memory read in order.
   */
  private readonly chunks: Int32Array[] = [];
  /** Ints of the postings log used: (term, doc, mask, weight) per posting, in the order added. */
  private logUsed = 0;
  /**
   * Open addressing, four ints a slot: the term's hashTerm, its index + 1 (0 = empty), where its
   * characters start and how many — a probe reads one slot and, on a match, the characters.
   */
  private slots: Int32Array = new Int32Array(4096);
  private hashed = 0;
  /**
   * The terms that have a short key (short-key.ts: 2–10 characters a–z, 0–9 — most of them), by it:
   * open addressing, two numbers a slot, the key (0 = empty) and the term's index. Equal keys are
   * equal terms: found with no characters compared.
   */
  private keySlots: Float64Array = new Float64Array(4096);
  private keyed = 0;
  private postings = 0;
  private readonly docs = new Set<number>();
  private released = false;

  /** `pool`: where the arena's chunks come from, and go back to on `release` (a fold worker's). */
  constructor(private readonly pool?: ChunkPool) {}

  /** Gives the arena's chunks back to the pool once the segment is written; the builder is done with. */
  release(): void {
    this.pool?.give(this.chunks);
    this.chunks.length = 0;
    this.released = true;
  }

  /** `terms`: term → [weight, field mask] (see doc-terms.ts). */
  addDocument(doc: number, terms: ReadonlyMap<string, readonly [number, number]>): void {
    const list = [...terms.keys()];
    this.addDocumentTerms(
      doc,
      list,
      list.map((t) => terms.get(t)![0]),
      list.map((t) => terms.get(t)![1]),
    );
  }

  /** The same as addDocument, from parallel lists; `hashes` (hashTerm of each term) when known. */
  addDocumentTerms(doc: number, terms: readonly string[], weights: ArrayLike<number>, masks: ArrayLike<number>, hashes?: ArrayLike<number>): void {
    this.addPooled(doc, pooledTerms(terms, weights, masks, hashes));
  }

  /** A document's terms as a pool (a term counter: fold-file.ts FoldedDoc). */
  addPooled(doc: number, terms: PooledTerms): void {
    if (this.released) throw new Error('a released segment builder takes no more documents');
    if (this.docs.has(doc)) throw new Error(`document ${doc} added twice`);
    this.docs.add(doc);
    const { size, chars: src, starts: from, hashes, weights, masks, keys } = terms;
    for (let i = 0; i < size; i++) {
      const at = from[i]!;
      const len = from[i + 1]! - at;
      const key = keys !== undefined ? keys[i]! : charsKey(src, at, len);
      let k = -1;
      if (key > 0) {
        // A short term: found by its key, added when new.
        const keySlots = this.keySlots;
        const mask = (keySlots.length >> 1) - 1;
        const m = Math.imul(key | 0, 0x9e3779b1);
        for (let slot = (m ^ (m >>> 15)) & mask; k < 0; slot = (slot + 1) & mask) {
          const stored = keySlots[2 * slot]!;
          if (stored === key) k = keySlots[2 * slot + 1]!;
          else if (stored === 0) {
            k = this.newTerm(src, at, at + len);
            keySlots[2 * slot] = key;
            keySlots[2 * slot + 1] = k;
            if (++this.keyed * 4 > keySlots.length) this.keySlots = grownKeySlots(keySlots);
          }
        }
      } else {
        // Any other: found by hash, confirmed by its length and characters, added when new.
        const h = hashes[i]!;
        const { slots, chars } = this;
        const mask = (slots.length >> 2) - 1;
        for (let slot = h & mask; k < 0; slot = (slot + 1) & mask) {
          const s = 4 * slot;
          const e = slots[s + 1]!;
          if (e === 0) k = this.insert(src, at, at + len, h, slot);
          else if (slots[s] === h && slots[s + 3] === len) {
            const to = slots[s + 2]!;
            let j = 0;
            while (j < len && chars[to + j] === src[at + j]) j++;
            if (j === len) k = e - 1;
          }
        }
      }
      this.append(k, doc, masks[i]!, weights[i]!);
    }
    this.postings += size;
  }

  private append(k: number, doc: number, mask: number, weight: number): void {
    const at = this.logUsed;
    if ((at & CHUNK_MASK) === 0) this.chunks.push(this.pool ? this.pool.take() : new Int32Array(CHUNK_INTS));
    const chunk = this.chunks[at >>> CHUNK_BITS]!;
    const o = at & CHUNK_MASK;
    chunk[o] = k;
    chunk[o + 1] = doc;
    chunk[o + 2] = mask;
    chunk[o + 3] = weight;
    this.logUsed = at + 4;
  }

  /** Term src[from, to) (hash h), new, at an empty slot: its characters pooled, its first block made. */
  private insert(src: Uint16Array, from: number, to: number, h: number, slot: number): number {
    const k = this.newTerm(src, from, to);
    const at = this.starts[k]!;
    const slots = this.slots;
    slots[4 * slot] = h;
    slots[4 * slot + 1] = k + 1;
    slots[4 * slot + 2] = at;
    slots[4 * slot + 3] = to - from;
    if (++this.hashed * 8 > this.slots.length) this.grow();
    return k;
  }

  /** Term src[from, to), new: its characters pooled, its first block made; its index (the caller puts it in a table). */
  private newTerm(src: Uint16Array, from: number, to: number): number {
    const k = this.termCount++;
    if (k + 1 === this.starts.length) this.starts = grownInts(this.starts);
    const at = this.starts[k]!;
    const end = at + (to - from);
    if (end > this.chars.length) {
      const chars = new Uint16Array(Math.max(this.chars.length * 2, end));
      chars.set(this.chars.subarray(0, at));
      this.chars = chars;
    }
    const chars = this.chars;
    for (let i = from, j = at; i < to; ) chars[j++] = src[i++]!;
    this.starts[k + 1] = end;
    return k;
  }

  /**
   * Every term's triplets, in the order they were added, one term after another: term k's are
   * items[3 * first[k], 3 * first[k + 1]) — the log counted and scattered by term.
   */
  private byTerm(): { items: Int32Array; first: Int32Array } {
    const terms = this.termCount;
    const first = new Int32Array(terms + 1);
    const used = this.logUsed;
    const chunks = this.chunks;
    for (let c = 0; c * CHUNK_INTS < used; c++) {
      const chunk = chunks[c]!;
      const end = Math.min(CHUNK_INTS, used - c * CHUNK_INTS);
      for (let o = 0; o < end; o += 4) {
        const k = chunk[o]! + 1;
        first[k] = first[k]! + 1;
      }
    }
    for (let k = 0; k < terms; k++) first[k + 1] = first[k + 1]! + first[k]!;
    const next = first.slice(0, terms);
    const items = new Int32Array(3 * (used >>> 2));
    for (let c = 0; c * CHUNK_INTS < used; c++) {
      const chunk = chunks[c]!;
      const end = Math.min(CHUNK_INTS, used - c * CHUNK_INTS);
      for (let o = 0; o < end; o += 4) {
        const k = chunk[o]!;
        const p = 3 * next[k]!;
        next[k] = next[k]! + 1;
        items[p] = chunk[o + 1]!;
        items[p + 1] = chunk[o + 2]!;
        items[p + 2] = chunk[o + 3]!;
      }
    }
    return { items, first };
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 2) - 1;
    for (let s = 0; s < old.length; s += 4) {
      if (old[s + 1] === 0) continue;
      let slot = old[s]! & mask;
      while (slots[4 * slot + 1] !== 0) slot = (slot + 1) & mask;
      const to = 4 * slot;
      slots[to] = old[s]!;
      slots[to + 1] = old[s + 1]!;
      slots[to + 2] = old[s + 2]!;
      slots[to + 3] = old[s + 3]!;
    }
    this.slots = slots;
  }

  /** Postings so far (to flush big builds in several segments). */
  get size(): number {
    return this.postings;
  }

  get documentCount(): number {
    return this.docs.size;
  }

  get empty(): boolean {
    return this.termCount === 0;
  }

  /**
   * Every term's UTF-8 bytes in one pool (term k: bytes[at[k], at[k + 1])), and their order. A term
   * with a lone surrogate (never one the tokenizer makes) sends the whole dictionary the string
   * way — TextEncoder's bytes (U+FFFD for it), compareTerms's order — as before the pool.
   */
  private dictionary(): { bytes: Uint8Array; at: Int32Array; order: Int32Array } {
    const n = this.termCount;
    const { chars, starts } = this;
    const at = new Int32Array(n + 1);
    const bytes = new Uint8Array(3 * starts[n]!);
    let end = 0;
    for (let k = 0; k < n && end >= 0; k++) at[k + 1] = end = encodeUtf8(chars, starts[k]!, starts[k + 1]!, bytes, end);
    if (end >= 0) return { bytes, at, order: byteOrder(bytes, at, n) };
    const terms = Array.from({ length: n }, (_, k) => pooledTerm({ chars, starts }, k));
    const encoder = new TextEncoder();
    end = 0;
    terms.forEach((t, k) => {
      end += encoder.encodeInto(t, bytes.subarray(end)).written;
      at[k + 1] = end;
    });
    return { bytes, at, order: termOrder(terms) };
  }

  /**
   * Writes the segment. `docIds`: the documents were added under provisional numbers (a fold
   * worker's, before the main thread gives them their ids); each posting of document d is written
   * as document docIds[d] — the same bytes as a builder given those ids in the first place.
   */
  async write(path: string, docIds?: Int32Array): Promise<SegmentInfo> {
    if (this.released) throw new Error('a released segment builder has nothing to write');
    const writer = new SegmentWriter();
    const buf = new ByteBuffer(1 << 12);
    const { bytes, at, order: sorted } = this.dictionary();
    const { items, first } = this.byTerm();
    for (const k of sorted) {
      // Term k's triplets: items[base, base + n).
      const base = 3 * first[k]!;
      const n = 3 * first[k + 1]! - base;
      if (docIds) for (let i = base; i < base + n; i += 3) items[i] = docIds[items[i]!]!;
      let order: number[] | undefined;
      for (let i = base + 3; i < base + n; i += 3) {
        if (items[i]! < items[i - 3]!) {
          order = Array.from({ length: n / 3 }, (_, k) => base + k * 3).sort((a, b) => items[a]! - items[b]!);
          break;
        }
      }
      buf.length = 0;
      let last = -1;
      for (let k = 0; k < n / 3; k++) {
        const i = order ? order[k]! : base + k * 3;
        buf.varint(items[i]! - last);
        buf.byte(items[i + 1]!);
        buf.varint(items[i + 2]!);
        last = items[i]!;
      }
      writer.add(bytes.subarray(at[k]!, at[k + 1]!), n / 3, buf.view());
    }
    return writer.write(path, this.docs.size);
  }
}

export class SegmentCorrupt extends Error {
  constructor(path: string, why: string) {
    super(`search segment ${path} is corrupt: ${why}`);
    this.name = 'SegmentCorrupt';
  }
}

export interface TermInfo {
  term: Uint8Array;
  df: number;
  postingsOffset: number;
  postingsBytes: number;
}

const EMPTY = new Uint8Array(0);

/** Reads one dictionary entry of a block (term, df, where its postings are) into `into`. */
function readTermEntry(c: Cursor, into: TermInfo): void {
  into.term = c.take(c.byte());
  into.df = c.varint();
  into.postingsOffset = c.varint();
  into.postingsBytes = c.varint();
}

/** A segment opened for searching: the sparse index in memory, blocks and postings read on demand. */
/** The first term of each block of a segment: views into the sparse index as read. */
class FirstTerms {
  private readonly start: Uint32Array;
  private readonly size: Uint8Array;

  constructor(
    private readonly sparse: Uint8Array,
    readonly length: number,
  ) {
    this.start = new Uint32Array(length);
    this.size = new Uint8Array(length);
  }

  set(b: number, start: number, size: number): void {
    this.start[b] = start;
    this.size[b] = size;
  }

  at(b: number): Uint8Array {
    const start = this.start[b]!;
    return this.sparse.subarray(start, start + this.size[b]!);
  }
}

export class SegmentReader {
  private constructor(
    readonly path: string,
    private readonly file: FileHandle | undefined,
    private readonly whole: Uint8Array | undefined,
    readonly termCount: number,
    readonly docCount: number,
    private readonly blockOffsets: Float64Array,
    private readonly blockBytes: Uint32Array,
    private readonly firstTerms: FirstTerms,
    private readonly blocksStart: number,
    private readonly postingsStart: number,
    readonly bytes: number,
  ) {}

  /** `inMemory`: read the whole file (merges); otherwise only the header and sparse index. */
  static async open(path: string, expectedBytes: number, inMemory = false): Promise<SegmentReader> {
    let file: FileHandle | undefined;
    let whole: Uint8Array | undefined;
    let size: number;
    const read = async (offset: number, length: number): Promise<Uint8Array> => {
      if (whole) return whole.subarray(offset, offset + length);
      const out = new Uint8Array(length);
      const { bytesRead } = await file!.read(out, 0, length, offset);
      if (bytesRead !== length) throw new SegmentCorrupt(path, 'cut short');
      return out;
    };
    if (inMemory) {
      const data = await readFile(path);
      whole = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      size = whole.length;
    } else {
      file = await open(path, 'r');
      size = (await file.stat()).size;
    }
    try {
      if (size !== expectedBytes) throw new SegmentCorrupt(path, `${size} bytes, the index expects ${expectedBytes}`);
      if (size < HEADER_BYTES) throw new SegmentCorrupt(path, 'too short');
      const head = await read(0, HEADER_BYTES);
      if (new TextDecoder().decode(head.subarray(0, 8)) !== MAGIC) throw new SegmentCorrupt(path, 'not a segment file');
      const hv = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
      const termCount = hv.getUint32(8, true);
      const blockCount = hv.getUint32(12, true);
      const docs = hv.getUint32(16, true);
      const sparseBytes = hv.getUint32(20, true);
      const blocksStart = hv.getFloat64(24, true);
      if (blocksStart !== HEADER_BYTES + sparseBytes || blocksStart > size) throw new SegmentCorrupt(path, 'sizes do not add up');
      const sparse = await read(HEADER_BYTES, sparseBytes);
      const sv = new DataView(sparse.buffer, sparse.byteOffset, sparse.byteLength);
      // Typed arrays and views into the sparse index read (no object per block: a warm start opens
      // every segment, ≈ 17,000 blocks for 10,000 sessions).
      const blockOffsets = new Float64Array(blockCount);
      const blockBytes = new Uint32Array(blockCount);
      const firstTerms = new FirstTerms(sparse, blockCount);
      let at = 0;
      for (let b = 0; b < blockCount; b++) {
        if (at + 13 > sparse.length) throw new SegmentCorrupt(path, 'sparse index cut short');
        blockOffsets[b] = sv.getFloat64(at, true);
        blockBytes[b] = sv.getUint32(at + 8, true);
        const n = sparse[at + 12]!;
        firstTerms.set(b, at + 13, Math.min(n, sparse.length - at - 13));
        at += 13 + n;
      }
      const blocksEnd = blockCount ? blockOffsets[blockCount - 1]! + blockBytes[blockCount - 1]! : 0;
      const postingsStart = blocksStart + blocksEnd;
      if (postingsStart > size) throw new SegmentCorrupt(path, 'blocks run past the end');
      return new SegmentReader(path, file, whole, termCount, docs, blockOffsets, blockBytes, firstTerms, blocksStart, postingsStart, size);
    } catch (err) {
      await file?.close();
      throw err instanceof SegmentCorrupt ? err : new SegmentCorrupt(path, (err as Error).message);
    }
  }

  async close(): Promise<void> {
    await this.file?.close();
  }

  private async read(offset: number, length: number): Promise<Uint8Array> {
    if (offset + length > this.bytes) throw new SegmentCorrupt(this.path, 'a read runs past the end');
    if (this.whole) return this.whole.subarray(offset, offset + length);
    const out = new Uint8Array(length);
    const { bytesRead } = await this.file!.read(out, 0, length, offset);
    if (bytesRead !== length) throw new SegmentCorrupt(this.path, 'cut short');
    return out;
  }

  private async block(b: number): Promise<TermInfo[]> {
    const bytes = await this.read(this.blocksStart + this.blockOffsets[b]!, this.blockBytes[b]!);
    const c = new Cursor(bytes, `block ${b} of ${this.path}`);
    const out: TermInfo[] = [];
    try {
      while (!c.done) {
        const t: TermInfo = { term: EMPTY, df: 0, postingsOffset: 0, postingsBytes: 0 };
        readTermEntry(c, t);
        out.push(t);
      }
    } catch (err) {
      throw new SegmentCorrupt(this.path, (err as Error).message);
    }
    return out;
  }

  /** The block whose first term is the last one ≤ key (-1: key sorts before every term). */
  private blockFor(key: Uint8Array): number {
    let lo = 0;
    let hi = this.firstTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareBytes(this.firstTerms.at(mid), key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  async lookup(key: Uint8Array): Promise<TermInfo | undefined> {
    const b = this.blockFor(key);
    if (b < 0) return undefined;
    return (await this.block(b)).find((t) => compareBytes(t.term, key) === 0);
  }

  /** The terms starting with `prefix`, in order, at most `limit` of them. */
  async withPrefix(prefix: Uint8Array, limit: number): Promise<TermInfo[]> {
    const out: TermInfo[] = [];
    for (let b = Math.max(0, this.blockFor(prefix)); b < this.firstTerms.length && out.length < limit; b++) {
      const first = this.firstTerms.at(b);
      if (compareBytes(first, prefix) > 0 && !startsWith(first, prefix)) break;
      for (const t of await this.block(b)) {
        if (out.length >= limit) break;
        if (startsWith(t.term, prefix)) out.push(t);
        else if (compareBytes(t.term, prefix) > 0) return out;
      }
    }
    return out;
  }

  async postings(t: TermInfo): Promise<Uint8Array> {
    return this.read(this.postingsStart + t.postingsOffset, t.postingsBytes);
  }

  /** Every term in order, read synchronously: a segment opened in memory (merges). */
  termCursor(): TermCursor {
    return new TermCursor(this, this.firstTerms.length);
  }

  /** Bytes of an in-memory segment, checked as `read` does. */
  bytesAt(offset: number, length: number): Uint8Array {
    if (!this.whole) throw new Error(`${this.path} is not open in memory`);
    if (offset + length > this.bytes) throw new SegmentCorrupt(this.path, 'a read runs past the end');
    return this.whole.subarray(offset, offset + length);
  }

  /** The bytes of the term blocks and of the postings. */
  get sectionBytes(): { blocks: number; postings: number } {
    return { blocks: this.postingsStart - this.blocksStart, postings: this.bytes - this.postingsStart };
  }

  /** Where block b is (for TermCursor). */
  blockAt(b: number): [offset: number, length: number] {
    return [this.blocksStart + this.blockOffsets[b]!, this.blockBytes[b]!];
  }

  /** The postings of the term a cursor is at (in-memory segment). */
  postingsAt(t: TermCursor): Uint8Array {
    return this.bytesAt(this.postingsStart + t.postingsOffset, t.postingsBytes);
  }
}

/** The terms of an in-memory segment one after another, no object per term (merges). */
export class TermCursor implements TermInfo {
  term: Uint8Array = EMPTY;
  df = 0;
  postingsOffset = 0;
  postingsBytes = 0;
  private b = -1;
  private c: Cursor | undefined;

  constructor(
    private readonly reader: SegmentReader,
    private readonly blocks: number,
  ) {}

  /** Moves to the next term; false at the end. */
  next(): boolean {
    for (;;) {
      const c = this.c;
      if (c && !c.done) {
        try {
          readTermEntry(c, this);
        } catch (err) {
          throw new SegmentCorrupt(this.reader.path, (err as Error).message);
        }
        return true;
      }
      if (++this.b >= this.blocks) return false;
      const [offset, length] = this.reader.blockAt(this.b);
      this.c = new Cursor(this.reader.bytesAt(offset, length), `block ${this.b} of ${this.reader.path}`);
    }
  }
}

/** A binary min-heap of input numbers, by their cursor's term and then by number. */
class CursorHeap {
  private readonly items: number[] = [];

  constructor(private readonly cursors: readonly TermCursor[]) {
    cursors.forEach((c, r) => {
      if (c.next()) this.push(r);
    });
  }

  get size(): number {
    return this.items.length;
  }

  get top(): number {
    return this.items[0]!;
  }

  private less(a: number, b: number): boolean {
    const c = compareBytes(this.cursors[a]!.term, this.cursors[b]!.term);
    return c < 0 || (c === 0 && a < b);
  }

  push(r: number): void {
    const items = this.items;
    let i = items.length;
    items.push(r);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(r, items[parent]!)) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = r;
  }

  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    const n = items.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && this.less(items[child + 1]!, items[child]!)) child++;
        if (!this.less(items[child]!, last)) break;
        items[i] = items[child]!;
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}

const POSTING_INDEX_LIMIT = 2 ** 21;

/**
 * The live postings of one term gathered from the segments holding it, as doc, mask, weight
 * triplets in one reused array (merges); `increasing` stays true while documents only grow.
 */
class TermPostings implements PostingSink {
  // Weights summed by earlier merges may pass 2^31: float64s hold every count exactly.
  items = new Float64Array(3 * 1024);
  n = 0;
  increasing = true;

  constructor(private readonly isLive: (doc: number) => boolean) {}

  reset(): void {
    this.n = 0;
    this.increasing = true;
  }

  posting(doc: number, mask: number, weight: number): void {
    if (!this.isLive(doc)) return;
    const n = this.n;
    if (n + 3 > this.items.length) {
      const grown = new Float64Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    const items = this.items;
    if (n > 0 && doc <= items[n - 3]!) this.increasing = false;
    items[n] = doc;
    items[n + 1] = mask;
    items[n + 2] = weight;
    this.n = n + 3;
  }
}

/** Document ids seen (a bitmap that grows), counted. */
class DocSet {
  private bits = new Uint8Array(1 << 12);
  size = 0;

  add(doc: number): void {
    const at = doc >> 3;
    if (at >= this.bits.length) {
      let n = this.bits.length * 2;
      while (n <= at) n *= 2;
      const bits = new Uint8Array(n);
      bits.set(this.bits);
      this.bits = bits;
    }
    const bit = 1 << (doc & 7);
    if ((this.bits[at]! & bit) === 0) {
      this.bits[at] = this.bits[at]! | bit;
      this.size++;
    }
  }
}

/**
 * Merges segments into one, keeping only live documents; a document present in several segments
 * (a session that grew) gets its counts summed and its field masks joined.
 */
export async function mergeSegments(inputs: Array<{ path: string; bytes: number }>, isLive: (doc: number) => boolean, outPath: string): Promise<SegmentInfo> {
  const readers = await Promise.all(inputs.map((s) => SegmentReader.open(s.path, s.bytes, true)));
  try {
    // Synchronous cursors over the files in memory, postings decoded into one reused array: the
    // async iteration, a Map and an object per posting made merging ≈ 5 MB of segments per CPU-second.
    const cursors = readers.map((r) => r.termCursor());
    // The cursors not at their end, as a heap by (term, input): the next term is the top's, found
    // in ≈ log2(inputs) comparisons per input holding it, instead of two scans of every input per
    // term (a fold worker merges 13–14 segments of ≈ 130 K terms each: most of its merge's time).
    const heap = new CursorHeap(cursors);
    // With every document live (a fold worker's merge) the output is about the inputs' sum (a
    // little less: merged postings have smaller gaps); a merge that drops documents reserves more
    // than it writes. Grown as before if that is not enough.
    const expect = { blocks: 1 << 16, postings: 1 << 16 };
    for (const r of readers) {
      expect.blocks += r.sectionBytes.blocks;
      expect.postings += r.sectionBytes.postings;
    }
    const writer = new SegmentWriter(expect);
    const docs = new DocSet();
    const buf = new ByteBuffer(1 << 12);
    const holders: number[] = [];
    const gathered = new TermPostings(isLive);
    let order = new Float64Array(1024);
    for (;;) {
      if (heap.size === 0) break;
      const min = cursors[heap.top]!.term;
      // Every input holding the term, in input order (popped so: equal terms by input).
      holders.length = 0;
      do holders.push(heap.pop());
      while (heap.size > 0 && compareBytes(cursors[heap.top]!.term, min) === 0);
      // The live postings of every segment holding the term.
      gathered.reset();
      for (const r of holders) decodePostingsInto(readers[r]!.postingsAt(cursors[r]!), gathered);
      const { items, n, increasing } = gathered;
      for (const r of holders) if (cursors[r]!.next()) heap.push(r);
      if (n === 0) continue;
      buf.length = 0;
      let last = -1;
      let df = 0;
      if (increasing) {
        for (let i = 0; i < n; i += 3) {
          buf.varint(items[i]! - last);
          buf.byte(items[i + 1]!);
          buf.varint(items[i + 2]!);
          last = items[i]!;
          docs.add(last);
        }
        df = n / 3;
      } else {
        // Several segments (or an odd one): by document, a document's postings joined. Sorted
        // natively as doc × 2^21 + index keys (exact below 2^53: ids < 2^31, < 2^21 postings).
        const count = n / 3;
        if (order.length < count) order = new Float64Array(Math.max(count, order.length * 2));
        const byDoc = order.subarray(0, count);
        if (count < POSTING_INDEX_LIMIT) {
          for (let k = 0; k < count; k++) byDoc[k] = items[3 * k]! * POSTING_INDEX_LIMIT + k;
          byDoc.sort();
          for (let k = 0; k < count; k++) byDoc[k] = byDoc[k]! % POSTING_INDEX_LIMIT;
        } else {
          for (let k = 0; k < count; k++) byDoc[k] = k;
          byDoc.sort((a, b) => items[3 * a]! - items[3 * b]!);
        }
        for (let k = 0; k < count; ) {
          const doc = items[3 * byDoc[k]!]!;
          let mask = 0;
          let weight = 0;
          for (; k < count && items[3 * byDoc[k]!] === doc; k++) {
            mask |= items[3 * byDoc[k]! + 1]!;
            weight += items[3 * byDoc[k]! + 2]!;
          }
          buf.varint(doc - last);
          buf.byte(mask);
          buf.varint(weight);
          last = doc;
          docs.add(doc);
          df++;
        }
      }
      writer.add(min, df, buf.view());
    }
    return await writer.write(outPath, docs.size);
  } finally {
    await Promise.all(readers.map((r) => r.close()));
  }
}
