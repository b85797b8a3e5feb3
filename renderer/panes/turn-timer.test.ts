import { describe, expect, it } from 'vitest';
import { turnTime } from './TurnTimer';

describe('turnTime', () => {
  it('reads seconds, then minutes and two-digit seconds', () => {
    expect(turnTime(4)).toBe('4 s');
    expect(turnTime(59)).toBe('59 s');
    expect(turnTime(60)).toBe('1 min 00 s');
    expect(turnTime(185)).toBe('3 min 05 s');
  });
});
