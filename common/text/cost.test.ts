import { describe, expect, it } from 'vitest';
import { formatCost } from './cost';

describe('formatCost', () => {
  it('keeps two decimals, up to four under 1, with grouping and the currency', () => {
    expect(formatCost(0, 'USD')).toBe('0.00 USD');
    expect(formatCost(0.05, 'USD')).toBe('0.05 USD');
    expect(formatCost(0.042, 'USD')).toBe('0.042 USD');
    expect(formatCost(0.00421, 'USD')).toBe('0.0042 USD');
    expect(formatCost(1234.5, 'EUR')).toBe('1,234.50 EUR');
    expect(formatCost(2.349)).toBe('2.35');
  });
});
