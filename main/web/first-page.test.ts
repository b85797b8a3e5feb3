import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FirstPageWatch, firstPageAssets } from './first-page';

const INDEX = `<!doctype html>
<html><head>
  <link rel="icon" href="data:," />
  <script type="module" crossorigin src="./assets/index-A.js"></script>
  <link rel="modulepreload" crossorigin href="./assets/react-B.js">
  <link rel='stylesheet' href=assets/index-C.css>
  <link rel="preconnect" href="./assets/not-loaded.js">
  <script src="https://example.com/x.js"></script>
</head><body><div id="root"></div></body></html>`;

describe('firstPageAssets', () => {
  it('lists the HTML and the scripts, module preloads and style sheets it loads at once, as URL paths', () => {
    expect(firstPageAssets(INDEX)).toEqual(['/index.html', '/assets/index-A.js', '/assets/react-B.js', '/assets/index-C.css']);
  });

  it('is just the HTML for a page that loads nothing', () => {
    expect(firstPageAssets('<html><body>hi</body></html>')).toEqual(['/index.html']);
  });
});

describe('FirstPageWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const settled = async (watch: FirstPageWatch) => {
    let done = false;
    void watch.served.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  };

  it('is served once the HTML and every asset it names were sent, not before', async () => {
    const watch = new FirstPageWatch(['/index.html', '/assets/a.js', '/assets/b.css'], { idleMs: 200, capMs: 2000 });
    watch.started();
    watch.ended('/'); // the page is asked for as / (with its token)
    watch.started();
    watch.started();
    watch.ended('/assets/a.js');
    expect(await settled(watch)).toBe(false);
    watch.ended('/assets/b.css');
    expect(await settled(watch)).toBe(true);
  });

  it('gives up waiting when nothing happens for idleMs: nobody came, or the browser had the assets', async () => {
    const watch = new FirstPageWatch(['/index.html', '/assets/a.js'], { idleMs: 200, capMs: 2000 });
    await vi.advanceTimersByTimeAsync(150);
    watch.started(); // activity restarts the wait
    await vi.advanceTimersByTimeAsync(150);
    watch.ended('/');
    await vi.advanceTimersByTimeAsync(199);
    expect(await settled(watch)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(watch)).toBe(true);
  });

  it('ends at capMs under steady traffic, and at once when something wants it', async () => {
    const busy = new FirstPageWatch(['/index.html', '/never.js'], { idleMs: 200, capMs: 1000 });
    for (let t = 0; t < 900; t += 100) {
      busy.started();
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(await settled(busy)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(await settled(busy)).toBe(true);

    const wanted = new FirstPageWatch(['/index.html'], { idleMs: 200, capMs: 1000 });
    wanted.wanted();
    expect(await settled(wanted)).toBe(true);
    expect(vi.getTimerCount()).toBe(0); // its timers are gone
  });

  it('never resolves once stopped (the host closed first)', async () => {
    const watch = new FirstPageWatch(['/index.html'], { idleMs: 200, capMs: 1000 });
    watch.stop();
    expect(vi.getTimerCount()).toBe(0);
    watch.ended('/index.html');
    watch.wanted();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await settled(watch)).toBe(false);
  });
});
