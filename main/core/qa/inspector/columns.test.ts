import { describe, expect, it } from 'vitest';
import { createTraceClock } from '../../../../common/trace/clock';
import { seededRandom } from '../generated-traces';
import { Column, PAGE_ROWS, TimeColumn } from './columns';

describe('Column', () => {
  it('keeps every row set, in order, across its first page and later pages', () => {
    const col = new Column(Float64Array);
    const rows = 3 * PAGE_ROWS + 17;
    for (let i = 0; i < rows; i++) col.set(i, i * 1.5 + 0.25);
    for (let i = 0; i < rows; i++) expect(col.get(i)).toBe(i * 1.5 + 0.25);
    expect(col.get(rows)).toBe(0);
    expect(col.get(10 * PAGE_ROWS)).toBe(0);
  });

  it('reads 0 for rows never set, sets rows out of order and far ahead, and overwrites', () => {
    const col = new Column(Uint32Array);
    col.set(5, 7);
    col.set(PAGE_ROWS * 2 + 3, 9);
    col.set(PAGE_ROWS - 1, 11);
    col.set(5, 8);
    expect(col.get(5)).toBe(8);
    expect(col.get(4)).toBe(0);
    expect(col.get(PAGE_ROWS - 1)).toBe(11);
    expect(col.get(PAGE_ROWS * 2 + 3)).toBe(9);
    expect(col.get(PAGE_ROWS * 2 + 2)).toBe(0);
    expect(col.get(PAGE_ROWS + 1)).toBe(0);
  });

  it('stays small for a few rows and holds at most one unused page beyond what its rows need', () => {
    const small = new Column(Float64Array);
    for (let i = 0; i < 100; i++) small.set(i, i);
    expect(small.byteLength).toBe(1024 * 8);

    const big = new Column(Float64Array);
    const rows = 100_000;
    for (let i = 0; i < rows; i++) big.set(i, i);
    expect(big.byteLength).toBe(Math.ceil(rows / PAGE_ROWS) * PAGE_ROWS * 8);
    expect(big.byteLength - rows * 8).toBeLessThan(PAGE_ROWS * 8);
  });

  it('widens itself for a value its type cannot hold, keeping every earlier row', () => {
    const col = new Column(Uint16Array);
    for (let i = 0; i < PAGE_ROWS + 5; i++) col.set(i, i % 65_536);
    expect(col.arrayType).toBe('Uint16Array');
    col.set(PAGE_ROWS + 6, 70_000);
    expect(col.arrayType).toBe('Uint32Array');
    col.set(PAGE_ROWS + 7, 2 ** 33);
    expect(col.arrayType).toBe('Float64Array');
    col.set(3, -1.5);
    col.set(4, Number.NaN);
    for (let i = 5; i < PAGE_ROWS + 5; i++) expect(col.get(i)).toBe(i % 65_536);
    expect(col.get(PAGE_ROWS + 6)).toBe(70_000);
    expect(col.get(PAGE_ROWS + 7)).toBe(2 ** 33);
    expect(col.get(3)).toBe(-1.5);
    expect(col.get(4)).toBeNaN();
  });

  it('widens to the narrowest type that holds the value and every earlier row', () => {
    const col = new Column(Uint8Array);
    col.set(0, 200);
    col.set(1, 300);
    expect(col.arrayType).toBe('Uint16Array');
    const negative = new Column(Uint8Array);
    negative.set(0, 200);
    negative.set(1, -3);
    expect(negative.arrayType).toBe('Int32Array');
    expect([negative.get(0), negative.get(1)]).toEqual([200, -3]);
    // A Uint32 column may hold values past Int32's range: a negative one takes Float64.
    const unsigned = new Column(Uint32Array);
    unsigned.set(0, 2 ** 32 - 1);
    unsigned.set(1, -1);
    expect(unsigned.arrayType).toBe('Float64Array');
    expect([unsigned.get(0), unsigned.get(1)]).toEqual([2 ** 32 - 1, -1]);
    const fraction = new Column(Uint32Array);
    fraction.set(PAGE_ROWS * 2, 0.5);
    expect(fraction.arrayType).toBe('Float64Array');
    expect(fraction.get(PAGE_ROWS * 2)).toBe(0.5);
    const signed = new Column(Int32Array);
    signed.set(0, -5);
    signed.set(1, 2 ** 31);
    expect(signed.arrayType).toBe('Float64Array');
    expect([signed.get(0), signed.get(1)]).toEqual([-5, 2 ** 31]);
    const nan = new Column(Uint8Array);
    nan.set(0, 7);
    nan.set(1, Number.NaN);
    expect(nan.arrayType).toBe('Float64Array');
    expect(nan.get(0)).toBe(7);
    expect(nan.get(1)).toBeNaN();
  });

  it('relative: large values close together take a narrow type, each page from its own base', () => {
    const col = new Column(Uint8Array, { relative: true });
    const rows = 3 * PAGE_ROWS + 5;
    // Offsets past 4 GiB, 0–255 apart within a page.
    for (let i = 0; i < rows; i++) col.set(i, 2 ** 33 + (i >>> 13) * 1e9 + (i % 256));
    expect(col.arrayType).toBe('Uint8Array');
    for (let i = 0; i < rows; i++) expect(col.get(i)).toBe(2 ** 33 + (i >>> 13) * 1e9 + (i % 256));
    // Below the page's base: widens to a signed type.
    col.set(PAGE_ROWS + 3, 2 ** 33 + 1e9 - 7);
    expect(col.arrayType).toBe('Int32Array');
    expect(col.get(PAGE_ROWS + 3)).toBe(2 ** 33 + 1e9 - 7);
    expect(col.get(PAGE_ROWS + 4)).toBe(2 ** 33 + 1e9 + 4);
    expect(col.isRelative).toBe(true);
  });

  it('relative: a value that is not a safe integer turns the column into plain values, every row kept', () => {
    for (const odd of [0.5, 2 ** 53, -(2 ** 60), Number.NaN, Infinity]) {
      const col = new Column(Uint16Array, { relative: true });
      for (let i = 0; i < PAGE_ROWS + 10; i++) col.set(i, 1e12 + i * 3);
      col.set(PAGE_ROWS + 10, odd);
      col.set(PAGE_ROWS + 11, 1e12 + 1);
      expect(col.isRelative).toBe(false);
      expect(col.arrayType).toBe('Float64Array');
      for (let i = 0; i < PAGE_ROWS + 10; i++) expect(col.get(i)).toBe(1e12 + i * 3);
      expect(col.get(PAGE_ROWS + 10)).toBe(odd);
      expect(col.get(PAGE_ROWS + 11)).toBe(1e12 + 1);
    }
    // Two safe integers whose difference is not one.
    const far = new Column(Uint8Array, { relative: true });
    far.set(0, -(2 ** 53 - 1));
    far.set(1, 2 ** 53 - 2);
    expect([far.get(0), far.get(1)]).toEqual([-(2 ** 53 - 1), 2 ** 53 - 2]);
  });

  it('reads back every value set, whatever the start type, relative or not (generated)', () => {
    const r = seededRandom(7);
    const types = [Uint8Array, Uint16Array, Uint32Array, Int32Array, Float64Array] as const;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
    const values = [() => Math.floor(r() * 256), () => Math.floor(r() * 70_000), () => Math.floor(r() * 2 ** 32), () => -Math.floor(r() * 2 ** 31), () => 2 ** 40 + Math.floor(r() * 1000), () => r() * 1000, () => -(2 ** 45) * r()];
    for (let run = 0; run < 200; run++) {
      const col = new Column(pick(types), { relative: r() < 0.5 });
      const kinds = [pick(values), pick(values)];
      const rows = Math.floor(r() * 3 * PAGE_ROWS);
      const set: number[] = [];
      for (let i = 0; i < rows; i++) {
        const v = r() < 0.999 ? kinds[0]!() : kinds[1]!();
        set.push(v);
        col.set(i, v);
      }
      for (let i = 0; i < rows; i++) if (col.get(i) !== set[i]) expect([run, i, col.get(i)]).toEqual([run, i, set[i]]);
    }
  });
});

describe('TimeColumn', () => {
  it('keeps the trace clock\'s times (whole microseconds) as 4-byte rows, read back exactly', () => {
    const col = new TimeColumn();
    const clock = createTraceClock(seqClock([0, 0.0004, 0.0006, 1.2345678, 59_999.9999, 3_600_000.0015]));
    const times: number[] = [];
    for (let i = 0; i < 6; i++) times.push(clock.now());
    const r = seededRandom(3);
    let t = times[times.length - 1]!;
    for (let i = 6; i < 2 * PAGE_ROWS + 100; i++) times.push((t = Math.round((t + r() * 50) * 1000) / 1000));
    times.forEach((x, i) => col.set(i, x));
    expect(col.form).toBe('micros');
    expect(col.byteLength).toBe(3 * PAGE_ROWS * 4);
    times.forEach((x, i) => expect(Object.is(col.get(i), x)).toBe(true));
  });

  it('turns into plain doubles for a time that is not whole microseconds, keeping every row', () => {
    for (const odd of [0.0005 + 1e-12, 1 / 3, -0, Number.NaN, Infinity, 2 ** 60]) {
      const col = new TimeColumn();
      for (let i = 0; i < PAGE_ROWS + 3; i++) col.set(i, i * 1.5 + 0.001);
      col.set(PAGE_ROWS + 3, odd);
      col.set(PAGE_ROWS + 4, 12.345);
      expect(col.form).toBe('plain');
      for (let i = 0; i < PAGE_ROWS + 3; i++) expect(col.get(i)).toBe(i * 1.5 + 0.001);
      expect(Object.is(col.get(PAGE_ROWS + 3), odd)).toBe(true);
      expect(col.get(PAGE_ROWS + 4)).toBe(12.345);
    }
  });
});

/** A monotonic source that returns the given readings in turn (the clock reads it once at start). */
function seqClock(readings: number[]): () => number {
  const all = [0, ...readings];
  let k = 0;
  return () => all[Math.min(k++, all.length - 1)]!;
}
