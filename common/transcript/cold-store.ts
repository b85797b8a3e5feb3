/**
 * Where a live transcript keeps the entries it does not need in memory (cold entries): `put` takes
 * an entry away and says where it is, `get` reads it back as a fresh object. The core backs it
 * with an append-only spill file (main/core/sessions/spill-file.ts); `MemoryColdStore` keeps the
 * entries as JSON text, for tests and for callers without a file system. A ref stays readable
 * until `close()`: a spilled range is never overwritten (an entry spilled again gets a new one).
 */
import type { Entry } from './model';

export interface ColdRef {
  /** Byte (or slot) offset in the store. */
  readonly at: number;
  readonly length: number;
}

export interface ColdStore {
  put(entry: Entry): ColdRef;
  get(ref: ColdRef): Entry;
  /** Reads several entries; refs in store order are read in one pass where the store can. */
  getMany?(refs: readonly ColdRef[]): Entry[];
  /** Frees the store; refs are unreadable afterwards. */
  close(): void;
}

/** A cold store holding JSON text in memory: same round trip as a file, no file. */
export class MemoryColdStore implements ColdStore {
  private texts: string[] = [];
  private closed = false;

  put(entry: Entry): ColdRef {
    const text = JSON.stringify(entry);
    this.texts.push(text);
    return { at: this.texts.length - 1, length: text.length };
  }

  get(ref: ColdRef): Entry {
    if (this.closed) throw new Error('The transcript store was closed; its entries are only in the trace now.');
    return JSON.parse(this.texts[ref.at]!) as Entry;
  }

  /** How many entries were spilled (tests). */
  get size(): number {
    return this.texts.length;
  }

  close(): void {
    this.closed = true;
    this.texts = [];
  }
}
