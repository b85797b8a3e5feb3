import { describe, expect, it } from 'vitest';
import { FAST_ROWS, PAUSE_MS, WINDOW_MS, createStreamPace, type PaceClock } from './stream-pace';

/** A clock whose time and timers the test moves. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: PaceClock & { advance(ms: number): void } = {
    now: () => now,
    setTimeout(run, ms) {
      const id = next++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
  };
  return clock;
}

describe('stream pace of a pane', () => {
  it('is not fast while rows come slower than FAST_ROWS a second', () => {
    const clock = fakeClock();
    const pace = createStreamPace(clock);
    for (let i = 0; i < 20; i++) {
      pace.note(1, true);
      expect(pace.fast()).toBe(false);
      clock.advance(WINDOW_MS / (FAST_ROWS - 1) + 1);
    }
  });

  it('gets fast when FAST_ROWS rows come within a second to a following pane, and settles after a pause', () => {
    const clock = fakeClock();
    const pace = createStreamPace(clock);
    let settled = 0;
    for (let i = 0; i < FAST_ROWS - 1; i++) {
      pace.note(1, true);
      clock.advance(50);
    }
    expect(pace.fast()).toBe(false);
    pace.note(1, true);
    expect(pace.fast()).toBe(true);
    pace.onSettled(() => settled++);
    // Rows keep coming: still fast, well past one pause.
    for (let i = 0; i < 20; i++) {
      clock.advance(PAUSE_MS / 2);
      pace.note(1, true);
    }
    expect(pace.fast()).toBe(true);
    expect(settled).toBe(0);
    clock.advance(PAUSE_MS - 1);
    expect(settled).toBe(0);
    clock.advance(1);
    expect(pace.fast()).toBe(false);
    expect(settled).toBe(1);
    // Once: a later settle does not call it again.
    pace.note(FAST_ROWS, true);
    clock.advance(PAUSE_MS);
    expect(settled).toBe(1);
  });

  it('settles at once when the reader leaves the end', () => {
    const clock = fakeClock();
    const pace = createStreamPace(clock);
    pace.note(FAST_ROWS, true);
    expect(pace.fast()).toBe(true);
    let settled = false;
    pace.onSettled(() => (settled = true));
    pace.note(1, false);
    expect(pace.fast()).toBe(false);
    expect(settled).toBe(true);
  });

  it('does not count rows appended to a pane away from the end', () => {
    const pace = createStreamPace(fakeClock());
    pace.note(FAST_ROWS * 3, false);
    expect(pace.fast()).toBe(false);
  });

  it('calls a listener of a settled pane at once, and not one that unsubscribed', () => {
    const clock = fakeClock();
    const pace = createStreamPace(clock);
    let calls = 0;
    pace.onSettled(() => calls++);
    expect(calls).toBe(1);
    pace.note(FAST_ROWS, true);
    const off = pace.onSettled(() => calls++);
    off();
    clock.advance(PAUSE_MS);
    expect(calls).toBe(1);
  });

  it('forgets rows older than the window', () => {
    const clock = fakeClock();
    const pace = createStreamPace(clock);
    pace.note(FAST_ROWS - 1, true);
    clock.advance(WINDOW_MS + 1);
    pace.note(1, true);
    expect(pace.fast()).toBe(false);
  });
});
