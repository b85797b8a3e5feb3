import { describe, expect, it } from 'vitest';
import { startWithinBytes } from './window';

describe('windows bounded by bytes, keeping their end', () => {
  const sizes = [10, 10, 10, 50, 10, 10];
  const sizeAt = (i: number) => sizes[i]!;

  it('keeps the whole window when it fits', () => {
    expect(startWithinBytes(0, 6, 100, sizeAt)).toBe(0);
    expect(startWithinBytes(2, 5, 70, sizeAt)).toBe(2);
  });

  it('starts later when the window is over the bound: the items nearest its end stay', () => {
    expect(startWithinBytes(0, 6, 80, sizeAt)).toBe(2); // 10 + 10 + 50 + 10 = 80: within
    expect(startWithinBytes(0, 6, 79, sizeAt)).toBe(3);
    expect(startWithinBytes(0, 6, 69, sizeAt)).toBe(4);
    expect(startWithinBytes(0, 3, 25, sizeAt)).toBe(1);
  });

  it('keeps at least one item, however large', () => {
    expect(startWithinBytes(0, 4, 5, sizeAt)).toBe(3);
    expect(startWithinBytes(3, 4, 1, sizeAt)).toBe(3);
  });

  it('an empty window stays empty where asked', () => {
    expect(startWithinBytes(4, 4, 100, sizeAt)).toBe(4);
    expect(startWithinBytes(5, 3, 100, sizeAt)).toBe(5);
  });
});
