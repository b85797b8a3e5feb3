import { describe, expect, it } from 'vitest';
import { formatTokens } from './tokens';

describe('formatTokens', () => {
  it('writes counts short: one decimal below ten thousand (or ten million), none above', () => {
    expect([undefined, 950, 1200, 9_950, 48_000, 100_000, 1_500_000, 12_000_000].map(formatTokens)).toEqual(['?', '950', '1.2k', '9.9k', '48k', '100k', '1.5M', '12M']);
  });
});
