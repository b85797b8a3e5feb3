/**
 * Growable typed-array columns and a string table: how the inspector keeps one row per message in
 * a few dozen bytes (no per-row object, no message text), whatever the number of rows.
 */

type TypedArray = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;
type TypedArrayClass<A extends TypedArray> = { new (length: number): A };

const FIRST_CAPACITY = 1024;
/**
 * Rows per page once a column is past its first page. A column that doubled one array (as it did
 * before) copied every row at each doubling and left the old array behind until a full collection:
 * at 100,000 rows × 4 connections that was ≈ 26 MiB of columns plus up to half as much again
 * waiting to be freed — most of the array buffers the core held at its peak with QA attached
 * (docs/performance.md § 1). Pages are never copied or dropped; at most one page is unused.
 */
export const PAGE_ROWS = 8192;
const PAGE_SHIFT = 13;
const PAGE_MASK = PAGE_ROWS - 1;

/**
 * One number per row, in typed-array pages: the first page doubles from FIRST_CAPACITY up to
 * PAGE_ROWS rows (small connections stay small), then a new page of PAGE_ROWS rows is added each
 * time the last one is full.
 *
 * The type given is the narrowest the column starts with, not a limit: a value it cannot hold
 * exactly (too large, negative, fractional) widens every page of the column once — to
 * Uint32Array for a whole number below 2^32, else to Float64Array — so a column never changes a
 * value, and rows of the usual sizes cost 1, 2 or 4 bytes instead of 8.
 */
export class Column {
  private pages: TypedArray[];
  private Type: TypedArrayClass<TypedArray>;

  constructor(Type: TypedArrayClass<TypedArray>) {
    this.Type = Type;
    this.pages = [new Type(FIRST_CAPACITY)];
  }

  /** The value of a row (0 for a row never set). */
  get(index: number): number {
    const page = this.pages[index >>> PAGE_SHIFT];
    const at = index & PAGE_MASK;
    return page !== undefined && at < page.length ? page[at]! : 0;
  }

  set(index: number, value: number): void {
    const p = index >>> PAGE_SHIFT;
    const at = index & PAGE_MASK;
    let page = this.pages[p];
    if (page === undefined || at >= page.length) page = this.grow(p, at);
    page[at] = value;
    // Read back: a typed array stores what it can of a value (wrapped, truncated, rounded).
    if (page[at] !== value && this.Type !== Float64Array) {
      this.widen(value);
      this.pages[p]![at] = value;
    }
  }

  /** Bytes held (for the memory test). */
  get byteLength(): number {
    let bytes = 0;
    for (const page of this.pages) bytes += page.byteLength;
    return bytes;
  }

  /** The array type the column holds its rows in now (tests). */
  get arrayType(): string {
    return this.Type.name;
  }

  /** Makes row `at` of page `p` exist: the first page doubles, later pages come whole. */
  private grow(p: number, at: number): TypedArray {
    if (p === 0) {
      const first = this.pages[0]!;
      let capacity = first.length * 2;
      while (capacity <= at) capacity *= 2;
      const bigger = new this.Type(Math.min(PAGE_ROWS, capacity));
      bigger.set(first);
      this.pages[0] = bigger;
      return bigger;
    }
    // The first page at its full size, then every page up to p (rows are set in order, so
    // usually just one).
    if (this.pages[0]!.length < PAGE_ROWS) this.grow(0, PAGE_ROWS - 1);
    while (this.pages.length <= p) this.pages.push(new this.Type(PAGE_ROWS));
    return this.pages[p]!;
  }

  /** Copies every page into a type that holds `value` exactly (and everything the column held). */
  private widen(value: number): void {
    const wholeUint32 = Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff;
    const Type: TypedArrayClass<TypedArray> = wholeUint32 && this.Type !== Int32Array ? Uint32Array : Float64Array;
    this.Type = Type;
    this.pages = this.pages.map((page) => {
      const wider = new Type(page.length);
      wider.set(page);
      return wider;
    });
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
