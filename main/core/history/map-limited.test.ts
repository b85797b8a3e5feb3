import { describe, expect, it } from 'vitest';
import { mapLimited } from './map-limited';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapLimited', () => {
  it('gives the results in the items’ order, with at most `limit` calls running at once', async () => {
    let running = 0;
    let most = 0;
    const items = [5, 1, 4, 2, 3, 0, 2, 1];
    const out = await mapLimited(items, 3, async (ms, i) => {
      running++;
      most = Math.max(most, running);
      await tick(ms);
      running--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(items.map((ms, i) => `${i}:${ms}`));
    expect(most).toBe(3);
  });

  it('handles no items, a limit above the count, and passes a rejection on', async () => {
    expect(await mapLimited([], 4, async () => 1)).toEqual([]);
    expect(await mapLimited([1, 2], 10, async (x) => x * 2)).toEqual([2, 4]);
    await expect(mapLimited([1, 2, 3], 2, async (x) => { if (x === 2) throw new Error('two'); return x; })).rejects.toThrow('two');
  });
});
