import { describe, expect, it } from 'vitest';
import { alignToTimeline, type Animated } from './in-phase';

function element(startTimes: number[], connected = true) {
  const animations = startTimes.map((startTime) => ({ startTime: startTime as number | null }));
  const el: Animated = { isConnected: connected, getAnimations: () => animations };
  return { el, animations };
}

describe('alignToTimeline', () => {
  it('sets every animation of the element to start at the timeline origin, in the task it is given', () => {
    const { el, animations } = element([1234.5, 987]);
    const tasks: Array<() => void> = [];
    alignToTimeline(el, (run) => tasks.push(run));
    // Nothing is read or written during the mount itself.
    expect(animations.map((a) => a.startTime)).toEqual([1234.5, 987]);
    expect(tasks).toHaveLength(1);
    tasks[0]!();
    expect(animations.map((a) => a.startTime)).toEqual([0, 0]);
  });

  it('leaves an element alone that was unmounted before its task ran', () => {
    const { el, animations } = element([500]);
    const tasks: Array<() => void> = [];
    alignToTimeline(el, (run) => tasks.push(run));
    el.isConnected = false;
    tasks[0]!();
    expect(animations[0]!.startTime).toBe(500);
  });

  it('does nothing for a ref being cleared or an engine without getAnimations', () => {
    const tasks: Array<() => void> = [];
    alignToTimeline(null, (run) => tasks.push(run));
    alignToTimeline({ isConnected: true }, (run) => tasks.push(run));
    expect(tasks).toHaveLength(0);
  });
});
