import { describe, expect, it } from 'vitest';
import { Column, PAGE_ROWS } from './columns';

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

  it('goes from a small type straight to Float64Array for a negative or fractional value', () => {
    const negative = new Column(Uint8Array);
    negative.set(0, 200);
    negative.set(1, -3);
    expect(negative.arrayType).toBe('Float64Array');
    expect([negative.get(0), negative.get(1)]).toEqual([200, -3]);
    const fraction = new Column(Uint32Array);
    fraction.set(PAGE_ROWS * 2, 0.5);
    expect(fraction.arrayType).toBe('Float64Array');
    expect(fraction.get(PAGE_ROWS * 2)).toBe(0.5);
    const signed = new Column(Int32Array);
    signed.set(0, -5);
    signed.set(1, 2 ** 31);
    expect(signed.arrayType).toBe('Float64Array');
    expect([signed.get(0), signed.get(1)]).toEqual([-5, 2 ** 31]);
  });
});
