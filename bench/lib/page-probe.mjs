// Injected into the benchmark pages (Playwright addInitScript) before any of their scripts run:
// - every WebSocket message is counted; chunk texts stamped by the flood agent (`@<epoch ms>;`)
//   give a latency, taken in the animation frame after the message — the frame in which the
//   renderer's store commits it (its scheduler registered its frame callback while handling the
//   same message, before ours, so ours runs right after the commit);
// - long tasks (PerformanceObserver) and animation-frame intervals, for smoothness.
export function pageProbe() {
  const B = (window.__bench = { latencies: [], arrivals: [], messages: [], names: {}, longTasks: [], frames: [], framing: false });
  const wall = () => performance.timeOrigin + performance.now();
  const onMessage = (ev) => {
    B.messages.push(wall());
    const data = typeof ev.data === 'string' ? ev.data : '';
    const name = /"name":"([^"]+)"/.exec(data.slice(0, 200))?.[1] ?? 'response';
    B.names[name] = (B.names[name] ?? 0) + 1;
    if (data.indexOf('@') === -1) return;
    const stamps = [];
    const re = /@(\d{10,14}\.\d{3});/g;
    let m;
    while ((m = re.exec(data))) stamps.push(Number(m[1]));
    if (stamps.length === 0) return;
    const arrived = wall();
    for (const s of stamps) B.arrivals.push(arrived - s);
    requestAnimationFrame(() => {
      const t = wall();
      for (const s of stamps) B.latencies.push(t - s);
    });
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // After the page's own handler, which is set right after construction.
      queueMicrotask(() => this.addEventListener('message', onMessage));
    }
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) B.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser.
  }
  /** Records animation-frame intervals while `B.framing` is set. */
  B.startFrames = () => {
    B.frames = [];
    B.framing = true;
    let last = performance.now();
    const tick = (t) => {
      if (!B.framing) return;
      B.frames.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  B.stopFrames = () => {
    B.framing = false;
    return B.frames;
  };
}
