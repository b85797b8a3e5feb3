import { describe, expect, it } from 'vitest';
import { createRenderCache } from './render-cache';

describe('markdown render cache', () => {
  it('renders a text once and gives the same rendering on later mounts', () => {
    const cache = createRenderCache<{ html: string }>(10, 1000);
    let renders = 0;
    const render = (t: string) => ({ html: `<p>${t}</p>`, n: ++renders });
    const first = cache.get('hello', render);
    expect(cache.get('hello', render)).toBe(first);
    expect(renders).toBe(1);
  });

  it('renders a new version of a text anew', () => {
    const cache = createRenderCache<string>(10, 1000);
    const render = (t: string) => t.toUpperCase();
    expect(cache.get('draft', render)).toBe('DRAFT');
    expect(cache.get('draft, longer', render)).toBe('DRAFT, LONGER');
    expect(cache.size).toBe(2);
  });

  it('drops the least recently used rendering beyond its entry bound', () => {
    const cache = createRenderCache<string>(2, 1000);
    const renders: string[] = [];
    const render = (t: string) => (renders.push(t), t);
    cache.get('a', render);
    cache.get('b', render);
    cache.get('a', render); // a is now the most recent
    cache.get('c', render); // b goes
    expect(cache.size).toBe(2);
    cache.get('a', render);
    cache.get('b', render);
    expect(renders).toEqual(['a', 'b', 'c', 'b']);
  });

  it('stays within its character bound and does not keep a text larger than it', () => {
    const cache = createRenderCache<string>(100, 10);
    const render = (t: string) => t;
    cache.get('12345', render);
    cache.get('67890', render);
    expect(cache.chars).toBe(10);
    cache.get('abc', render);
    expect(cache.chars).toBe(8);
    expect(cache.size).toBe(2);
    let again = 0;
    const big = 'x'.repeat(11);
    cache.get(big, () => (again++, big));
    cache.get(big, () => (again++, big));
    expect(again).toBe(2);
    expect(cache.chars).toBeLessThanOrEqual(10);
  });
});
