import { describe, expect, it } from 'vitest';
import { frameIntervals, summarize } from './slow-frames.mjs';

// A synthetic trace: the page's renderer main thread (pid 1) and another renderer's, less busy (pid 2).
const thread = (pid: number) => ({ ph: 'M', name: 'thread_name', pid, tid: pid, args: { name: 'CrRendererMain' } });
const span = (name: string, ts: number, dur: number, tdur = dur, pid = 1) => ({ ph: 'X', name, pid, tid: pid, ts, dur, tdur });

/** A frame task at `t` (µs) of `dur` wall and `tdur` CPU: an animation frame, layout and paint. */
function frame(t: number, dur: number, tdur: number) {
  return [
    span('RunTask', t, dur, tdur),
    span('FireAnimationFrame', t + 10, dur / 2, tdur / 2),
    span('FunctionCall', t + 20, dur / 2 - 20, tdur / 2 - 20),
    span('Layout', t + dur / 2 + 20, dur / 4, tdur / 4),
    span('Paint', t + (3 * dur) / 4 + 30, dur / 4 - 40, tdur / 4 - 40),
  ];
}

describe('slow frames of a trace', () => {
  const events = [
    thread(2),
    ...Array.from({ length: 5 }, (_, i) => span('RunTask', i * 100, 50, 50, 2)),
    thread(1),
    ...frame(0, 10_000, 9_000), // 16 ms to the next frame
    span('RunTask', 11_000, 2_000, 2_000), // a task of its own between two frames (a message)
    ...frame(16_000, 30_000, 12_000), // a frame that waited for a core: 30 ms wall, 12 of CPU
    ...frame(50_000, 12_000, 12_000),
    ...frame(66_000, 8_000, 8_000),
  ];

  it('takes the intervals between the main thread’s frame tasks, with each frame task’s wall and CPU time', () => {
    const intervals = frameIntervals(events);
    expect(intervals.map((f) => f.ms)).toEqual([16, 34, 16]);
    expect(intervals.map((f) => f.frameTaskMs)).toEqual([10, 30, 12]);
    expect(intervals.map((f) => f.frameTaskCpuMs)).toEqual([9, 12, 12]);
    // The task between the first two frames counts in the first interval's busy time.
    expect(intervals[0]!.tasks).toBe(2);
    expect(intervals[0]!.busyMs).toBe(12);
    // Self time: a span less the spans inside it.
    expect(intervals[1]!.self.FunctionCall).toBe(30_000 / 2 - 20);
    expect(intervals[1]!.self.FireAnimationFrame).toBe(20);
  });

  it('sums the slow frames apart from the others', () => {
    const { slow, fast } = summarize(frameIntervals(events), 20);
    expect(slow.frames).toBe(1);
    expect(slow.frameTaskMs).toBe(30);
    expect(slow.frameTaskCpuMs).toBe(12);
    expect(fast.frames).toBe(2);
    expect(fast.meanMs).toBe(16);
  });
});
