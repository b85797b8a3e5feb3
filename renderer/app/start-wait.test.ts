import { describe, expect, it } from 'vitest';
import { StoppableStart } from './start-wait';

describe('a start the user may stop', () => {
  const make = () => {
    const aborted: string[] = [];
    let n = 0;
    return { start: new StoppableStart((id) => aborted.push(id), () => `s${++n}`), aborted };
  };

  it('shows the outcome of the start under way, once', () => {
    const { start, aborted } = make();
    const id = start.begin();
    expect(start.finish(id)).toBe(true);
    expect(start.finish(id)).toBe(false);
    expect(start.stop()).toBe(false); // nothing under way: nothing to stop
    expect(aborted).toEqual([]);
  });

  it('stops the start under way in the core, and its outcome no longer counts', () => {
    const { start, aborted } = make();
    const id = start.begin();
    expect(start.stop()).toBe(true);
    expect(aborted).toEqual([id]);
    expect(start.finish(id)).toBe(false); // its failure ("cancelled") is not shown
  });

  it('lets a newer start replace an older one', () => {
    const { start, aborted } = make();
    const first = start.begin();
    const second = start.begin();
    expect(start.finish(first)).toBe(false);
    expect(start.stop()).toBe(true);
    expect(aborted).toEqual([second]);
  });
});
