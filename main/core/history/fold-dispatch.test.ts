import { describe, expect, it } from 'vitest';
import { FoldDispatch } from './fold-dispatch';

describe('FoldDispatch', () => {
  it('hands each worker at most `depth` items, in queue order, the rest when a worker answers', () => {
    const sent: Array<[number, string]> = [];
    const d = new FoldDispatch<string>(2, 1, (w, item) => sent.push([w, item]));
    for (const x of ['a', 'b', 'c', 'd', 'e']) d.push(x);
    expect(sent).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
    expect(d.waiting).toBe(3);
    // Worker 1 is done first (worker 0 still busy with a long file): it takes the next two.
    d.done(1);
    expect(sent.at(-1)).toEqual([1, 'c']);
    d.done(1);
    expect(sent.at(-1)).toEqual([1, 'd']);
    d.done(0);
    expect(sent.at(-1)).toEqual([0, 'e']);
    expect(d.waiting).toBe(0);
    d.done(0);
    d.done(1);
    expect(sent.length).toBe(5);
  });

  it('with a deeper hand, fills the least loaded worker first', () => {
    const sent: number[] = [];
    const d = new FoldDispatch<number>(3, 2, (w) => sent.push(w));
    for (let i = 0; i < 7; i++) d.push(i);
    expect(sent).toEqual([0, 1, 2, 0, 1, 2]);
    d.done(2);
    expect(sent.at(-1)).toBe(2);
  });

  it('keeps order over a long queue (the consumed part is dropped now and then)', () => {
    const sent: number[] = [];
    const d = new FoldDispatch<number>(1, 1, (_w, i) => sent.push(i));
    for (let i = 0; i < 5000; i++) d.push(i);
    for (let i = 0; i < 5000; i++) d.done(0);
    expect(sent).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(d.waiting).toBe(0);
  });
});
