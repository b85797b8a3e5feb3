import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMIT_MARK, createFrameScheduler } from './frame-scheduler';

/**
 * A page with animation frames under our control: `frame(ms)` lets `ms` of work pass on the
 * clock (fake timers) and then runs the frame callbacks requested so far, as the browser does
 * when the main thread gets to the next frame.
 */
function fakeFrames() {
  let callbacks: Array<(t: number) => void> = [];
  vi.stubGlobal('document', { visibilityState: 'visible' });
  vi.stubGlobal('requestAnimationFrame', (cb: (t: number) => void) => {
    callbacks.push(cb);
    return callbacks.length;
  });
  return {
    /** Advances the clock by `ms` (timers fire), then runs the pending frame callbacks. */
    frame(ms = 16) {
      vi.advanceTimersByTime(ms);
      const now = callbacks;
      callbacks = [];
      for (const cb of now) cb(performance.now());
    },
    get requested() {
      return callbacks.length;
    },
  };
}

/** A queue of patches applied by the scheduler's run, as the sessions store does. */
function queueOf(scheduler: { schedule(): void }) {
  const queued: number[] = [];
  let next = 0;
  return {
    queued,
    push(n = 1) {
      for (let i = 0; i < n; i++) queued.push(next++);
      scheduler.schedule();
    },
  };
}

/** A scheduler whose run commits the queued patches, with fake frames; `commits` lists each commit's patches. */
function recordingScheduler() {
  const frames = fakeFrames();
  const commits: number[][] = [];
  let q: ReturnType<typeof queueOf> | undefined;
  const scheduler = createFrameScheduler(() => {
    commits.push(q!.queued.splice(0));
  });
  q = queueOf(scheduler);
  return { frames, commits, q, scheduler };
}

describe('frame scheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    performance.clearMarks(COMMIT_MARK);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('commits once per frame, every frame, while frames are light', () => {
    const { frames, commits, q, scheduler } = recordingScheduler();
    for (let f = 0; f < 10; f++) {
      q.push(3);
      frames.frame(16);
    }
    expect(commits).toHaveLength(10);
    expect(commits.flat()).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(commits.every((c) => c.length === 3)).toBe(true);
  });

  it('commits every frame however long frames take, and flush() applies everything queued at once', () => {
    const { frames, commits, q, scheduler } = recordingScheduler();
    q.push();
    frames.frame(16);
    q.push();
    frames.frame(200); // an expensive frame does not delay the next commit
    q.push();
    frames.frame(16);
    expect(commits).toEqual([[0], [1], [2]]);
    q.push(2);
    scheduler.flush();
    expect(commits).toEqual([[0], [1], [2], [3, 4]]);
    scheduler.flush(); // nothing queued: no run
    frames.frame(16); // the frame requested before the flush finds nothing to do
    expect(commits).toHaveLength(4);
    q.push();
    frames.frame(16);
    expect(commits.flat()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('announces each commit with a performance mark, not a run that changed nothing', () => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the real performance timeline
    const frames = fakeFrames();
    let changes = true;
    const scheduler = createFrameScheduler(() => changes);
    scheduler.schedule();
    frames.frame(16);
    const first = performance.getEntriesByName(COMMIT_MARK, 'mark');
    expect(first).toHaveLength(1); // the previous mark is cleared: they do not pile up
    changes = false;
    scheduler.schedule();
    frames.frame(16);
    const second = performance.getEntriesByName(COMMIT_MARK, 'mark');
    expect(second).toHaveLength(1);
    expect(second[0]!.startTime).toBe(first[0]!.startTime);
    changes = true;
    const later = performance.now() + 1;
    while (performance.now() < later); // the real clock moves on
    scheduler.schedule();
    frames.frame(16);
    expect(performance.getEntriesByName(COMMIT_MARK, 'mark')[0]!.startTime).toBeGreaterThan(first[0]!.startTime);
  });

  it('works through timers where there are no animation frames', () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    let commits = 0;
    const scheduler = createFrameScheduler(() => void commits++);
    scheduler.schedule();
    scheduler.schedule();
    vi.advanceTimersByTime(16);
    expect(commits).toBe(1);
  });
});
