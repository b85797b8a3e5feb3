/**
 * The reducer's index of tool calls (`ReducerState.toolCalls`) outside the JS heap: the agent's
 * tool call ids as UTF-8 bytes in one growing array, their packed values (tool-call-index.ts) in
 * another, and an open-addressing hash table of positions. It lives as long as the session and
 * gains a value per tool call; as a `Map` of strings it was what a long session's heap grew by
 * most once the entries themselves had gone to the spill file (issue #11: ≈ 80 bytes a tool call,
 * twice that at the collector's peak, and its hash table in V8's large-object space). Here a tool
 * call costs its id's bytes and ≈ 28 bytes of typed arrays.
 *
 * It reads like a `ReadonlyMap` and writes with `set`; nothing is ever deleted. A value that does
 * not pack (an agent's own status) is kept as the object in a small side map. `clone()` is what a
 * reducer step that does not own the state copies (step.ts).
 */
import type { StoredToolCallInfo, ToolCallInfo } from './tool-call-index';

import { utf8Decoder as decoder, utf8Encoder as encoder, withRoom } from './typed-arrays';

/** An id encoded for comparison, reused by every table (not a field: equal tables stay equal). */
let scratch = new Uint8Array(64);
const MAX_KEPT_SCRATCH = 64 * 1024;
/** `packed` marker: the value is an object, in `objects`. */
const OBJECT = -1;

/** FNV-1a over the UTF-16 code units, as an unsigned 32-bit number. */
export function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class ToolCallTable implements ReadonlyMap<string, StoredToolCallInfo> {
  private bytes: Uint8Array;
  private used = 0;
  /** Per tool call, in the order first set: where its id's bytes are, how many, its value. */
  private idAt: Uint32Array;
  private idLength: Uint32Array;
  private packed: Int32Array;
  private count = 0;
  /** Open addressing: tool call number + 1 (0: empty slot), and that id's hash. Half full at most. */
  private slots: Int32Array;
  private slotHash: Uint32Array;
  private objects: Map<number, ToolCallInfo>;

  constructor(from?: Iterable<readonly [string, StoredToolCallInfo]>) {
    this.bytes = new Uint8Array(1024);
    this.idAt = new Uint32Array(64);
    this.idLength = new Uint32Array(64);
    this.packed = new Int32Array(64);
    this.slots = new Int32Array(128);
    this.slotHash = new Uint32Array(128);
    this.objects = new Map();
    if (from) for (const [id, value] of from) this.set(id, value);
  }

  get size(): number {
    return this.count;
  }

  get(id: string): StoredToolCallInfo | undefined {
    const n = this.find(id, hashOf(id));
    return n < 0 ? undefined : this.valueOf(n);
  }

  has(id: string): boolean {
    return this.find(id, hashOf(id)) >= 0;
  }

  set(id: string, value: StoredToolCallInfo): this {
    const hash = hashOf(id);
    let n = this.find(id, hash);
    if (n < 0) n = this.add(id, hash);
    if (typeof value === 'number' && value >= 0 && value <= 0x7fffffff && Number.isInteger(value)) {
      this.packed[n] = value;
      this.objects.delete(n);
    } else {
      this.packed[n] = OBJECT;
      this.objects.set(n, value as ToolCallInfo);
    }
    return this;
  }

  /** A copy that later writes to either do not change the other. */
  clone(): ToolCallTable {
    const copy = Object.create(ToolCallTable.prototype) as ToolCallTable;
    copy.bytes = this.bytes.slice();
    copy.used = this.used;
    copy.idAt = this.idAt.slice();
    copy.idLength = this.idLength.slice();
    copy.packed = this.packed.slice();
    copy.count = this.count;
    copy.slots = this.slots.slice();
    copy.slotHash = this.slotHash.slice();
    copy.objects = new Map(this.objects);
    return copy;
  }

  /** As JSON, the entries (as a Map's would be listed). */
  toJSON(): Array<[string, StoredToolCallInfo]> {
    return [...this.entries()];
  }

  *entries(): MapIterator<[string, StoredToolCallInfo]> {
    for (let n = 0; n < this.count; n++) yield [this.idOf(n), this.valueOf(n)];
  }

  *keys(): MapIterator<string> {
    for (let n = 0; n < this.count; n++) yield this.idOf(n);
  }

  *values(): MapIterator<StoredToolCallInfo> {
    for (let n = 0; n < this.count; n++) yield this.valueOf(n);
  }

  /** The entries whose value passes `test`, decoding only their ids. Values may be set meanwhile. */
  *entriesWhere(test: (value: StoredToolCallInfo) => boolean): Generator<[string, StoredToolCallInfo]> {
    for (let n = 0; n < this.count; n++) {
      const value = this.valueOf(n);
      if (test(value)) yield [this.idOf(n), value];
    }
  }

  [Symbol.iterator](): MapIterator<[string, StoredToolCallInfo]> {
    return this.entries();
  }

  forEach(callback: (value: StoredToolCallInfo, key: string, map: ReadonlyMap<string, StoredToolCallInfo>) => void, thisArg?: unknown): void {
    for (let n = 0; n < this.count; n++) callback.call(thisArg, this.valueOf(n), this.idOf(n), this);
  }

  private valueOf(n: number): StoredToolCallInfo {
    const v = this.packed[n]!;
    return v === OBJECT ? this.objects.get(n)! : v;
  }

  private idOf(n: number): string {
    const at = this.idAt[n]!;
    return decoder.decode(this.bytes.subarray(at, at + this.idLength[n]!));
  }

  /** The tool call number of `id`, or -1. */
  private find(id: string, hash: number): number {
    const mask = this.slots.length - 1;
    let encoded = -1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i]!;
      if (slot === 0) return this.done(encoded, -1);
      if (this.slotHash[i] !== hash) continue;
      const n = slot - 1;
      if (encoded < 0) encoded = this.encode(id);
      if (encoded === this.idLength[n] && this.sameBytes(this.idAt[n]!, encoded)) return this.done(encoded, n);
    }
  }

  /** Lets go of a scratch buffer grown for a huge id (a hostile agent's), then returns `result`. */
  private done(encoded: number, result: number): number {
    if (encoded > MAX_KEPT_SCRATCH) scratch = new Uint8Array(64);
    return result;
  }

  /** `id` as UTF-8 in `scratch`; returns its length. */
  private encode(id: string): number {
    if (scratch.length < id.length * 3) scratch = new Uint8Array(id.length * 3);
    return encoder.encodeInto(id, scratch).written;
  }

  private sameBytes(at: number, length: number): boolean {
    const bytes = this.bytes;
    for (let k = 0; k < length; k++) if (bytes[at + k] !== scratch[k]) return false;
    return true;
  }

  private add(id: string, hash: number): number {
    const n = this.count++;
    this.idAt = withRoom(this.idAt, n + 1);
    this.idLength = withRoom(this.idLength, n + 1);
    this.packed = withRoom(this.packed, n + 1);
    this.bytes = withRoom(this.bytes, this.used + id.length * 3, this.used);
    const { written } = encoder.encodeInto(id, this.bytes.subarray(this.used));
    this.idAt[n] = this.used;
    this.idLength[n] = written;
    this.used += written;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    this.place(n, hash);
    return n;
  }

  private place(n: number, hash: number): void {
    const mask = this.slots.length - 1;
    let i = hash & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = n + 1;
    this.slotHash[i] = hash;
  }

  /** A table of `capacity` slots with every tool call placed so far (the one being added is placed after). */
  private rehash(capacity: number): void {
    const slots = this.slots;
    const hashes = this.slotHash;
    this.slots = new Int32Array(capacity);
    this.slotHash = new Uint32Array(capacity);
    for (let i = 0; i < slots.length; i++) if (slots[i] !== 0) this.place(slots[i]! - 1, hashes[i]!);
  }
}
