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
 * The array types a column may hold its rows in, narrowest first, with the values each holds
 * exactly. A column widens to the first that holds both everything its current type could hold and
 * the new value: Uint8 → Uint16 → Uint32 for growing whole numbers, Int32 for a negative one after
 * Uint8/Uint16, Float64 for anything else.
 */
const WIDER: ReadonlyArray<{ Type: TypedArrayClass<TypedArray>; min: number; max: number; whole: boolean }> = [
  { Type: Uint16Array, min: 0, max: 0xffff, whole: true },
  { Type: Uint32Array, min: 0, max: 0xffff_ffff, whole: true },
  { Type: Int32Array, min: -0x8000_0000, max: 0x7fff_ffff, whole: true },
  { Type: Float64Array, min: -Infinity, max: Infinity, whole: false },
];
const RANGE = new Map<TypedArrayClass<TypedArray>, { min: number; max: number }>([
  [Uint8Array, { min: 0, max: 0xff }],
  [Uint16Array, { min: 0, max: 0xffff }],
  [Uint32Array, { min: 0, max: 0xffff_ffff }],
  [Int32Array, { min: -0x8000_0000, max: 0x7fff_ffff }],
  [Float64Array, { min: -Infinity, max: Infinity }],
]);

export interface ColumnOptions {
  /**
   * Each page holds its rows as the difference from a base of its own — the first value set in
   * it — so values that are large but close together (byte offsets, times, line numbers less the
   * row's index) take 1, 2 or 4 bytes a row instead of 4 or 8. Whole numbers only: the first value
   * that is not a safe integer turns the column into plain values (Float64Array), keeping every
   * row. A row never set reads as its page's base (0 on a page with no row set).
   */
  relative?: boolean;
}

/**
 * One number per row, in typed-array pages: the first page doubles from FIRST_CAPACITY up to
 * PAGE_ROWS rows (small connections stay small), then a new page of PAGE_ROWS rows is added each
 * time the last one is full.
 *
 * The type given is the narrowest the column starts with, not a limit: a value it cannot hold
 * exactly (too large, negative, fractional) widens every page of the column once — to the
 * narrowest type that holds it and every earlier row (WIDER) — so a column never changes a value,
 * and rows of the usual sizes cost 1, 2 or 4 bytes instead of 8.
 */
export class Column {
  private pages: TypedArray[];
  private Type: TypedArrayClass<TypedArray>;
  /** `relative` columns: each page's base (undefined until a row of the page is set). */
  private bases: Array<number | undefined> | undefined;

  constructor(Type: TypedArrayClass<TypedArray>, options: ColumnOptions = {}) {
    this.Type = Type;
    this.pages = [new Type(FIRST_CAPACITY)];
    if (options.relative) this.bases = [];
  }

  /** The value of a row (0 for a row never set; in a `relative` column, its page's base). */
  get(index: number): number {
    const p = index >>> PAGE_SHIFT;
    const page = this.pages[p];
    const at = index & PAGE_MASK;
    const stored = page !== undefined && at < page.length ? page[at]! : 0;
    return this.bases === undefined ? stored : (this.bases[p] ?? 0) + stored;
  }

  set(index: number, value: number): void {
    const p = index >>> PAGE_SHIFT;
    const at = index & PAGE_MASK;
    let page = this.pages[p];
    if (page === undefined || at >= page.length) page = this.grow(p, at);
    let stored = value;
    if (this.bases !== undefined) {
      const base = Number.isSafeInteger(value) ? (this.bases[p] ??= value) : 0;
      stored = value - base;
      if (!Number.isSafeInteger(stored)) {
        this.makeAbsolute();
        page = this.pages[p]!;
        stored = value;
      }
    }
    page[at] = stored;
    // Read back: a typed array stores what it can of a value (wrapped, truncated, rounded).
    if (page[at] !== stored && this.Type !== Float64Array) {
      this.widen(stored);
      this.pages[p]![at] = stored;
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

  /** Whether rows are held relative to their page's base (tests). */
  get isRelative(): boolean {
    return this.bases !== undefined;
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

  /** Copies every page into the narrowest type that holds `value` and everything the column held. */
  private widen(value: number): void {
    const held = RANGE.get(this.Type)!;
    const whole = Number.isInteger(value);
    const Type = WIDER.find((t) => (whole || !t.whole) && t.min <= Math.min(held.min, value) && Math.max(held.max, value) <= t.max)?.Type ?? Float64Array; // NaN: no range holds it
    this.Type = Type;
    this.pages = this.pages.map((page) => {
      const wider = new Type(page.length);
      wider.set(page);
      return wider;
    });
  }

  /** A `relative` column given a value that is not a safe integer: every row as its plain value. */
  private makeAbsolute(): void {
    const bases = this.bases!;
    this.bases = undefined;
    this.Type = Float64Array;
    this.pages = this.pages.map((page, p) => {
      const plain = new Float64Array(page.length);
      const base = bases[p] ?? 0;
      for (let k = 0; k < page.length; k++) plain[k] = base + page[k]!;
      return plain;
    });
  }
}

/**
 * Times in milliseconds rounded to the microsecond — what the trace clock gives (clock.ts) — kept as
 * whole microseconds in a relative column (4 bytes a row while a page of rows spans < 71 minutes,
 * instead of 8). The first time that is not exactly a whole number of microseconds over 1000 (or is
 * -0, NaN, ±∞) turns the column into plain doubles, keeping every row: a time reads back as
 * exactly the number set.
 */
export class TimeColumn {
  private micros: Column | undefined = new Column(Uint32Array, { relative: true });
  private plain: Column | undefined;
  /** One past the highest row set. */
  private rows = 0;

  get(index: number): number {
    return this.micros !== undefined ? this.micros.get(index) / 1000 : this.plain!.get(index);
  }

  set(index: number, t: number): void {
    if (index >= this.rows) this.rows = index + 1;
    if (this.micros !== undefined) {
      const us = Math.round(t * 1000) + 0; // + 0: -0 becomes 0, and so fails the check below
      if (Number.isSafeInteger(us) && Object.is(us / 1000, t)) {
        this.micros.set(index, us);
        return;
      }
      this.makePlain();
    }
    this.plain!.set(index, t);
  }

  get byteLength(): number {
    return (this.micros ?? this.plain)!.byteLength;
  }

  /** 'micros' or 'plain' (tests). */
  get form(): string {
    return this.micros !== undefined ? 'micros' : 'plain';
  }

  private makePlain(): void {
    const plain = new Column(Float64Array);
    for (let i = 0; i < this.rows; i++) plain.set(i, this.micros!.get(i) / 1000);
    this.micros = undefined;
    this.plain = plain;
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
