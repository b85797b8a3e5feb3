import { describe, expect, it } from 'vitest';
import { counted } from './counted';

describe('counted', () => {
  it('uses the singular for exactly one, the plural otherwise', () => {
    expect(counted(1, 'turn')).toBe('1 turn');
    expect(counted(0, 'turn')).toBe('0 turns');
    expect(counted(2, 'file')).toBe('2 files');
  });
});
