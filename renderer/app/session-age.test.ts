import { describe, expect, it } from 'vitest';
import { sessionAge } from './session-age';

const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);
const ago = (ms: number) => sessionAge(NOW - ms, NOW);

describe('sessionAge', () => {
  it('says how long ago in the largest whole unit', () => {
    expect(ago(0)).toBe('just now');
    expect(ago(59_000)).toBe('just now');
    expect(ago(60_000)).toBe('1 min ago');
    expect(ago(59 * 60_000)).toBe('59 min ago');
    expect(ago(60 * 60_000)).toBe('1 h ago');
    expect(ago(23 * 3_600_000)).toBe('23 h ago');
    expect(ago(24 * 3_600_000)).toBe('yesterday');
    expect(ago(6 * 86_400_000)).toBe('6 days ago');
  });

  it('gives the date from a week on, and treats a clock that moved back as now', () => {
    expect(ago(7 * 86_400_000)).not.toMatch(/ago|yesterday/);
    expect(ago(7 * 86_400_000)).toMatch(/2026/);
    expect(sessionAge(NOW + 5_000, NOW)).toBe('just now');
  });
});
