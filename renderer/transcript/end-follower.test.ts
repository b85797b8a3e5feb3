import { describe, expect, it } from 'vitest';
import { EndFollower, type ScrollBox } from './end-follower';

/** A scroll container as the browser keeps it: the offset is clamped to [0, scrollHeight - clientHeight]. */
class FakeBox implements ScrollBox {
  private top = 0;
  private listener: (() => void) | null = null;
  captured = false;
  constructor(
    public scrollHeight: number,
    public readonly clientHeight: number,
  ) {}
  get scrollTop() {
    return this.top;
  }
  set scrollTop(value: number) {
    this.top = Math.max(0, Math.min(value, this.scrollHeight - this.clientHeight));
  }
  addEventListener(_type: 'scroll', listener: () => void, options?: AddEventListenerOptions) {
    this.listener = listener;
    this.captured = options?.capture === true;
  }
  removeEventListener() {
    this.listener = null;
  }
  get listening() {
    return this.listener !== null;
  }
  /** The browser's scroll event (after the offset changed). */
  scroll() {
    this.listener?.();
  }
  /** The reader scrolls to `top`. */
  scrollTo(top: number) {
    this.scrollTop = top;
    this.scroll();
  }
}

function setup(height = 1000, viewport = 400) {
  const changes: boolean[] = [];
  const follower = new EndFollower(32, (f) => changes.push(f));
  const box = new FakeBox(height, viewport);
  const detach = follower.attach(box);
  return { follower, box, changes, detach };
}

describe('EndFollower', () => {
  it('follows from the start and pins the container to its end as it grows', () => {
    const { follower, box, changes } = setup();
    expect(follower.isFollowing).toBe(true);
    follower.pin();
    expect(box.scrollTop).toBe(600);
    box.scrollHeight = 1500;
    follower.pin();
    expect(box.scrollTop).toBe(1100);
    box.scroll();
    expect(follower.isFollowing).toBe(true);
    expect(changes).toEqual([]);
  });

  it('listens in the capture phase, before the virtualizer’s listener', () => {
    expect(setup().box.captured).toBe(true);
  });

  it('stops following when the reader scrolls up past the threshold, and stops pinning', () => {
    const { follower, box, changes } = setup();
    follower.pin();
    box.scrollTo(500);
    expect(follower.isFollowing).toBe(false);
    expect(changes).toEqual([false]);
    box.scrollHeight = 2000;
    follower.pin();
    expect(box.scrollTop).toBe(500);
  });

  it('keeps following after a small scroll up within the threshold', () => {
    const { follower, box, changes } = setup();
    follower.pin();
    box.scrollTo(580);
    expect(follower.isFollowing).toBe(true);
    expect(changes).toEqual([]);
  });

  it('keeps following when rows grew after the last pin (the container did not move up)', () => {
    const { follower, box } = setup();
    follower.pin();
    box.scroll();
    box.scrollHeight = 1400;
    box.scroll();
    expect(follower.isFollowing).toBe(true);
    follower.pin();
    expect(box.scrollTop).toBe(1000);
  });

  it('stops following when the reader scrolled up in the frame of a pin (one scroll event for both)', () => {
    const { follower, box } = setup();
    follower.pin();
    box.scroll();
    box.scrollHeight = 1200;
    follower.pin(); // to 800
    box.scrollTo(700); // the reader's scroll lands before the pin's event
    expect(follower.isFollowing).toBe(false);
  });

  it('follows again when the reader scrolls back to the end', () => {
    const { follower, box, changes } = setup();
    follower.pin();
    box.scrollTo(100);
    box.scrollTo(590);
    expect(follower.isFollowing).toBe(true);
    expect(changes).toEqual([false, true]);
  });

  it('follow() (Jump to latest) resumes following and scrolls to the end', () => {
    const { follower, box, changes } = setup();
    box.scrollTo(600);
    box.scrollTo(0);
    expect(follower.isFollowing).toBe(false);
    box.scrollHeight = 3000;
    follower.follow();
    expect(follower.isFollowing).toBe(true);
    expect(box.scrollTop).toBe(2600);
    expect(changes).toEqual([false, true]);
  });

  it('keeps following when the content shrinks and the browser clamps the offset', () => {
    const { follower, box } = setup(3000);
    follower.pin();
    box.scrollHeight = 1000;
    box.scrollTo(box.scrollTop); // clamped to 600
    expect(box.scrollTop).toBe(600);
    expect(follower.isFollowing).toBe(true);
  });

  it('stops listening when detached', () => {
    const { box, detach } = setup();
    expect(box.listening).toBe(true);
    detach();
    expect(box.listening).toBe(false);
  });
});
