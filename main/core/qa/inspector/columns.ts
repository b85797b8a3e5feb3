/**
 * Growable typed-array columns and a string table: how the inspector keeps one row per message in
 * a few dozen bytes (no per-row object, no message text), whatever the number of rows.
 */

type TypedArray = Float64Array | Int32Array | Uint32Array | Uint8Array;
type TypedArrayClass<A extends TypedArray> = { new (length: number): A };

const FIRST_CAPACITY = 1024;

/** One number per row, in a typed array that doubles when full. */
export class Column<A extends TypedArray> {
  private data: A;

  constructor(private readonly Type: TypedArrayClass<A>) {
    this.data = new Type(FIRST_CAPACITY);
  }

  /** The value of a row (0 for a row never set). */
  get(index: number): number {
    return index < this.data.length ? this.data[index]! : 0;
  }

  set(index: number, value: number): void {
    if (index >= this.data.length) this.grow(index + 1);
    this.data[index] = value;
  }

  /** Bytes held (for the memory test). */
  get byteLength(): number {
    return this.data.byteLength;
  }

  private grow(min: number): void {
    let capacity = this.data.length * 2;
    while (capacity < min) capacity *= 2;
    const bigger = new this.Type(capacity);
    bigger.set(this.data);
    this.data = bigger;
  }
}

/** An append-only list of row indexes (a filter's matches), 4 bytes each. */
export class IndexList {
  private data = new Int32Array(64);
  private count = 0;

  get length(): number {
    return this.count;
  }

  get byteLength(): number {
    return this.data.byteLength;
  }

  at(k: number): number {
    return this.data[k]!;
  }

  push(value: number): void {
    if (this.count === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.count++] = value;
  }

  /** Insert values (sorted ascending) keeping the whole list sorted. */
  merge(values: readonly number[]): void {
    if (values.length === 0) return;
    const all = [...this.data.subarray(0, this.count), ...values].sort((a, b) => a - b);
    this.data = new Int32Array(Math.max(64, all.length * 2));
    this.data.set(all);
    this.count = all.length;
  }

  slice(from: number, to: number): number[] {
    return Array.from(this.data.subarray(Math.max(0, from), Math.min(this.count, to)));
  }

  /** Position of `value`, or -1. */
  indexOf(value: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.data[mid]!;
      if (v === value) return mid;
      if (v < value) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/** Strings seen many times (methods, update kinds, session ids) stored once; 0 means none. */
export class StringTable {
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [''];

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  /** The id of a known string, without adding it (undefined: never seen). */
  known(value: string): number | undefined {
    return this.ids.get(value);
  }

  value(id: number): string | undefined {
    return id === 0 ? undefined : this.values[id];
  }
}
