/**
 * Runs queued work once per animation frame: patches that arrive in bursts are applied with one
 * store update per frame, whatever the message rate. Falls back to a timer where there is no
 * requestAnimationFrame (tests, background tabs keep working through the timer too).
 */
export function createFrameScheduler(run: () => void): { schedule(): void; flush(): void } {
  let scheduled = false;
  const tick = () => {
    if (!scheduled) return;
    scheduled = false;
    run();
  };
  return {
    schedule() {
      if (scheduled) return;
      scheduled = true;
      if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(tick);
      else setTimeout(tick, 16);
    },
    flush() {
      tick();
    },
  };
}
