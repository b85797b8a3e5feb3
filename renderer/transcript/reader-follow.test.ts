import { describe, expect, it } from 'vitest';
import { createReaderFollow } from './reader-follow';

describe('a pane follows until the reader scrolls it away', () => {
  it('keeps following while the layout alone moves it from its end', () => {
    const f = createReaderFollow();
    expect(f.follows(false)).toBe(true);
    f.scrolled(); // a scroll event the layout caused (a clamp, an anchored correction)
    f.settle(false);
    expect(f.follows(false)).toBe(true);
  });

  it('stops following once the reader has scrolled away, and follows again back at the end', () => {
    const f = createReaderFollow();
    f.intent();
    expect(f.follows(true)).toBe(true);
    expect(f.follows(false)).toBe(false);
    f.scrolled();
    f.settle(false);
    expect(f.follows(false)).toBe(false);
    f.intent(); // more wheel turns
    f.scrolled();
    expect(f.state).toBe('moved');
    f.settle(true);
    expect(f.state).toBe('following');
    expect(f.follows(false)).toBe(true);
  });

  it('does not count the end a commit saw before the reader’s scroll arrived', () => {
    const f = createReaderFollow();
    f.intent();
    f.settle(true); // a streamed commit between the wheel and its scroll event
    f.scrolled();
    expect(f.follows(false)).toBe(false);
  });

  it('follows again when no scroll came of the reader’s action', () => {
    const f = createReaderFollow();
    f.intent();
    f.expire();
    expect(f.follows(false)).toBe(true);
    f.intent();
    f.scrolled();
    f.expire(); // too late: the reader did scroll
    expect(f.follows(false)).toBe(false);
  });

  it('holds still when the reader opens something, until they scroll', () => {
    const f = createReaderFollow();
    f.intent(); // the press on "Show all"
    f.hold();
    f.settle(true); // the commit that opens it, before it is measured taller: still at the end
    f.expire();
    expect(f.state).toBe('held');
    expect(f.follows(false)).toBe(false);
    f.scrolled(); // the reader scrolls on: following again once back at the end
    f.settle(true);
    expect(f.state).toBe('following');
  });
});
