import { describe, expect, it } from 'vitest';
import { createElementCache } from './element-cache';

describe('createElementCache', () => {
  it('hands back the element made last render while its inputs are the same', () => {
    const cache = createElementCache<{ at: number }>();
    const first = cache.get('a', [1, 'x'], () => ({ at: 1 }));
    cache.endRender();
    let made = 0;
    const again = cache.get('a', [1, 'x'], () => ({ at: made++ }));
    expect(again).toBe(first);
    expect(made).toBe(0);
  });

  it('makes a new element when any input changed (compared by identity)', () => {
    const cache = createElementCache<{ at: number }>();
    const entry = { text: 'hello' };
    const first = cache.get('a', [1, entry], () => ({ at: 1 }));
    cache.endRender();
    const moved = cache.get('a', [2, entry], () => ({ at: 2 }));
    expect(moved).not.toBe(first);
    expect(moved.at).toBe(2);
    cache.endRender();
    const replaced = cache.get('a', [2, { text: 'hello' }], () => ({ at: 3 }));
    expect(replaced.at).toBe(3);
    cache.endRender();
    expect(cache.get('a', [2], () => ({ at: 4 })).at).toBe(4); // fewer inputs is a change too
  });

  it('keeps elements only from the render before: a row that left and comes back is made again', () => {
    const cache = createElementCache<{ at: number }>();
    const a = cache.get('a', [1], () => ({ at: 1 }));
    cache.get('b', [1], () => ({ at: 1 }));
    cache.endRender();
    cache.get('b', [1], () => ({ at: 2 })); // 'a' left the view
    cache.endRender();
    const back = cache.get('a', [1], () => ({ at: 3 }));
    expect(back).not.toBe(a);
    expect(back.at).toBe(3);
  });

  it('answers the same key twice in one render with one element', () => {
    const cache = createElementCache<{ at: number }>();
    const one = cache.get(7, [0], () => ({ at: 1 }));
    expect(cache.get(7, [0], () => ({ at: 2 }))).toBe(one);
  });
});
