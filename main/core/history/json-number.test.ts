import { describe, expect, it } from 'vitest';
import { jsonNumber } from './json-number';

describe('jsonNumber', () => {
  it('writes what JSON.stringify writes for microsecond-rounded timestamps', () => {
    let t = 0;
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 200_000; i++) {
      t += random() * (i % 1000 === 0 ? 1e6 : 40);
      const value = Math.round(t * 1000) / 1000;
      expect(jsonNumber(value)).toBe(JSON.stringify(value));
    }
  });

  it('writes what JSON.stringify writes for any other number', () => {
    const values = [0, -0, 1, 0.5, 0.001, 0.0005, 1e-7, 123.456, 123.4567, 1 / 3, 2 / 3, 0.1 + 0.2, 999.9995, 999999999999.999, 1e12, 1e12 + 0.5, 1e15, 1e21, 1.5e300, -1, -0.001, -123.456, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, Number.EPSILON, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (let k = 0; k < 5000; k++) values.push(k / 1000, k / 7, k * 1.1, (k * 1.1) / 1000);
    for (const value of values) expect(jsonNumber(value)).toBe(JSON.stringify(value));
  });
});
