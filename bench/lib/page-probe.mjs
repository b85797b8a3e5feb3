// Injected into the benchmark pages (Playwright addInitScript) before any of their scripts run:
// - every WebSocket message is counted; chunk texts stamped by the flood agent (`@<epoch ms>;`)
//   give a latency "line → store commit": the workbench's store announces each commit with a
//   `performance.mark('acpwb:store-commit')` (renderer/state/frame-scheduler.ts), and a stamp's
//   latency is taken at the first commit mark after the message that carried it arrived (the
//   mark's own time, whenever the observer hears of it). Commits may be deferred under load, so
//   the frame after the message is not necessarily the commit. A page that never marks (the bare
//   relay) is measured as before, in the animation frame after the message. `frameLatencies`
//   keeps that figure for every page (stamp → the frame after the message).
// - long tasks (PerformanceObserver) and animation-frame intervals, for smoothness.
/** Most WebSocket messages received (`window.__bench.messages`, wall ms) in any whole second from `from` to `to`. */
export function peakMessagesPerSecond(times, from, to) {
  let peak = 0;
  for (let s = from; s + 1000 <= to; s += 250) peak = Math.max(peak, times.filter((t) => t >= s && t < s + 1000).length);
  return peak;
}

export function pageProbe() {
  const COMMIT_MARK = 'acpwb:store-commit';
  const B = (window.__bench = { latencies: [], frameLatencies: [], paintLatencies: [], arrivals: [], messages: [], names: {}, longTasks: [], frames: [], framing: false, commits: 0 });
  const wall = () => performance.timeOrigin + performance.now();
  // Stamps waiting for a commit mark, in arrival order, one entry per message and session:
  // { arrived (performance.now()), session, stamps, done, painted }.
  const pending = [];
  // A commit that applied some sessions only (panes taking turns) names them in its mark's
  // `detail.sessions`: only their stamps are taken; the others wait for a later commit.
  const onCommit = (at, sessions) => {
    B.commits++;
    for (const p of pending) {
      if (p.arrived > at) break;
      if (p.done || (sessions && !sessions.includes(p.session))) continue;
      p.done = true;
      for (const s of p.stamps) {
        B.latencies.push(performance.timeOrigin + at - s);
        B.timeline?.push([s, performance.timeOrigin + at - s, p.arrived + performance.timeOrigin - s]);
      }
    }
    while (pending.length && pending[0].done) pending.shift();
  };
  // Whether an animation frame callback is running (the store commits in one: frame-scheduler.ts).
  let inFrame = false;
  const nativeFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) =>
    nativeFrame((t) => {
      // One row per frame (its timestamp, when its first callback ran, how long its callbacks took).
      const start = performance.now();
      if (B.rafs && B.rafs[B.rafs.length - 1]?.[0] !== t) B.rafs.push([t, start, 0]);
      inFrame = true;
      try {
        cb(t);
      } finally {
        inFrame = false;
        const row = B.rafs?.[B.rafs.length - 1];
        if (row && row[0] === t) row[2] += performance.now() - start;
      }
    });
  /** A commit mark, as it is made: the stamps it applies are painted at the end of its frame. */
  const onCommitMarked = (at, sessions) => {
    const stamps = [];
    for (const p of pending) {
      if (p.arrived > at) break;
      if (p.painted || (sessions && !sessions.includes(p.session))) continue;
      p.painted = true;
      stamps.push(...p.stamps);
    }
    if (stamps.length === 0) return;
    const painted = () =>
      setTimeout(() => {
        const t = wall();
        for (const s of stamps) B.paintLatencies.push(t - s);
      }, 0);
    if (inFrame) painted();
    else nativeFrame(painted);
  };
  const nativeMark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    const entry = nativeMark(name, options);
    if (name === COMMIT_MARK) onCommitMarked(entry?.startTime ?? performance.now(), options?.detail?.sessions);
    return entry;
  };
  let commitObserver = null;
  try {
    commitObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === COMMIT_MARK) onCommit(e.startTime, e.detail?.sessions);
    });
    commitObserver.observe({ type: 'mark' });
  } catch {
    // No mark observer: every page is measured by the frame after the message.
  }
  /** Takes the commit marks the observer has not delivered yet (call before reading latencies). */
  B.drain = () => {
    for (const e of commitObserver?.takeRecords() ?? []) if (e.name === COMMIT_MARK) onCommit(e.startTime, e.detail?.sessions);
  };
  const marksCommits = () => commitObserver !== null && performance.getEntriesByName(COMMIT_MARK, 'mark').length > 0;
  const onMessage = (ev) => {
    B.messages.push(wall());
    const data = typeof ev.data === 'string' ? ev.data : '';
    const name = /"name":"([^"]+)"/.exec(data.slice(0, 200))?.[1] ?? 'response';
    B.names[name] = (B.names[name] ?? 0) + 1;
    if (data.indexOf('@') === -1) return;
    // Each stamp belongs to the session named last before it (a `session/patches` event's
    // `sessionId` precedes its patches).
    const bySession = new Map();
    const re = /@(\d{10,14}\.\d{3});|"sessionId":"([^"]*)"/g;
    let m;
    let session = '';
    while ((m = re.exec(data))) {
      if (m[2] !== undefined) session = m[2];
      else {
        let list = bySession.get(session);
        if (!list) bySession.set(session, (list = []));
        list.push(Number(m[1]));
      }
    }
    if (bySession.size === 0) return;
    const arrived = wall();
    const now = performance.now();
    const entries = [];
    for (const [session, stamps] of bySession) {
      for (const s of stamps) B.arrivals.push(arrived - s);
      const entry = { arrived: now, session, stamps, done: false, painted: false };
      pending.push(entry);
      entries.push(entry);
    }
    requestAnimationFrame(() => {
      const t = wall();
      for (const entry of entries) for (const s of entry.stamps) B.frameLatencies.push(t - s);
      if (marksCommits()) return; // the commit marks give their latency
      for (const entry of entries) {
        if (entry.done) continue;
        entry.done = true;
        for (const s of entry.stamps) B.latencies.push(t - s);
      }
    });
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // Before the page's own handler (set after construction): a commit the page makes at once,
      // in a microtask after its handler, must find the message already noted as arrived.
      this.addEventListener('message', onMessage);
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
    // Intervals between the animation frames' own timestamps. The first frame only starts the
    // clock: measured from performance.now() it could come out negative (a frame's timestamp is
    // when the frame began, which may be before the call) and count as one more fast frame.
    let last;
    const tick = (t) => {
      if (!B.framing) return;
      if (last !== undefined) B.frames.push(t - last);
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
