import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import WebSocket from 'ws';
import { createCore } from '../core/core';
import { EVENT_ACK_WINDOW } from '../core/api/event-coalescer';
import { startWebHost, type WebHost } from './web-host';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(port: number, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, id: number, name: string, params?: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (frame.t === 'res' && frame.id === id) {
        ws.off('message', onMessage);
        resolve(frame);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ t: 'req', id, name, params }));
  });
}

describe('web host', () => {
  let parent: string;
  let dir: string;
  let host: WebHost;
  const core = createCore({ host: 'test', paths: { dataDir: '/tmp/d', configDir: '/tmp/c' } });
  let cookie: string;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'acpwb-web-'));
    dir = join(parent, 'renderer');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>ui</title>');
    writeFileSync(join(dir, 'assets', 'editor.worker.js'), 'self.onmessage = () => {};');
    writeFileSync(join(dir, '..', 'secret-outside.txt'), 'do not serve');
    host = await startWebHost({ core, rendererDir: dir });
    cookie = `acp_workbench_${host.port}=${host.token}`;
  });
  afterAll(async () => {
    await host.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('prints a loopback URL carrying the token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(43);
  });

  it('answers 401 without token or cookie, for pages, assets and workers alike', async () => {
    for (const path of ['/', '/index.html', '/assets/editor.worker.js']) {
      const reply = await get(host.port, path);
      expect(reply.status, path).toBe(401);
      expect(reply.body).not.toContain('<title>ui</title>');
    }
  });

  it('answers 401 to a wrong token', async () => {
    expect((await get(host.port, '/?token=nope')).status).toBe(401);
    expect((await get(host.port, '/', { Cookie: `acp_workbench_${host.port}=nope` })).status).toBe(401);
  });

  it('answers 200 with the token and sets an HttpOnly, SameSite=Strict cookie', async () => {
    const reply = await get(host.port, `/?token=${host.token}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<title>ui</title>');
    const setCookie = String(reply.headers['set-cookie']);
    expect(setCookie).toContain(`acp_workbench_${host.port}=${host.token}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(String(reply.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('answers 200 with the cookie (assets and workers included) or a bearer token', async () => {
    expect((await get(host.port, '/', { Cookie: cookie })).status).toBe(200);
    const worker = await get(host.port, '/assets/editor.worker.js', { Cookie: `other=1; ${cookie}` });
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toContain('text/javascript');
    expect((await get(host.port, '/', { Authorization: `Bearer ${host.token}` })).status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding) even with the cookie', async () => {
    const reply = await get(host.port, '/', { Host: `evil.example:${host.port}`, Cookie: cookie });
    expect(reply.status).toBe(403);
  });

  it('refuses a foreign Origin even with the cookie', async () => {
    expect((await get(host.port, '/', { Origin: 'http://evil.example', Cookie: cookie })).status).toBe(403);
    expect((await get(host.port, '/', { Origin: `http://localhost:${host.port}`, Cookie: cookie })).status).toBe(200);
  });

  it('does not serve files outside the renderer folder', async () => {
    for (const path of ['/../secret-outside.txt', '/%2e%2e/secret-outside.txt', '/..%2fsecret-outside.txt']) {
      const reply = await get(host.port, path, { Cookie: cookie });
      expect(reply.body, path).not.toContain('do not serve');
    }
  });

  it('refuses a WebSocket without the cookie, and one from a foreign Origin', async () => {
    await expect(openSocket(host.port, {})).rejects.toThrow('HTTP 401');
    await expect(openSocket(host.port, { Cookie: cookie, Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
  });

  it('carries requests, errors and events over an authorized WebSocket', async () => {
    const ws = await openSocket(host.port, { Cookie: cookie, Origin: host.url.replace(/\/\?.*$/, '') });
    try {
      const ping = await call(ws, 1, 'app/ping', { nonce: 'abc' });
      expect(ping).toMatchObject({ ok: true, result: { nonce: 'abc' } });
      const unknown = await call(ws, 2, 'app/nothing');
      expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_request' } });
      const event = new Promise<Record<string, unknown>>((resolve) =>
        ws.once('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>)),
      );
      core.emit('app/notice', { severity: 'info', title: 'hello' });
      expect(await event).toEqual({ t: 'evts', n: 1, items: [['app/notice', { severity: 'info', title: 'hello' }]] });
    } finally {
      ws.close();
    }
  });

  it('coalesces a flood of events into few frames, in order, and sends events emitted before an answer ahead of it', async () => {
    const ws = await openSocket(host.port, { Cookie: cookie, Origin: host.url.replace(/\/\?.*$/, '') });
    try {
      const frames: Array<Record<string, unknown>> = [];
      ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as Record<string, unknown>));
      for (let i = 0; i < 300; i++) core.emit('app/notice', { severity: 'info', title: `n${i}` });
      const answered = call(ws, 3, 'app/ping', { nonce: 'after' });
      await answered;
      await new Promise((r) => setTimeout(r, 100));
      const answerAt = frames.findIndex((f) => f.t === 'res');
      const events = frames.filter((f) => f.t === 'evts');
      const titles = events.flatMap((f) => (f.items as Array<[string, { title: string }]>).map(([, p]) => p.title));
      expect(titles).toEqual(Array.from({ length: 300 }, (_, i) => `n${i}`));
      expect(events.length).toBeLessThanOrEqual(2); // 300 events emitted in one job: one frame (plus none after)
      expect(frames.slice(0, answerAt).filter((f) => f.t === 'evts').length).toBe(events.length); // all ahead of the answer
    } finally {
      ws.close();
    }
  });

  it("holds a socket's next event frame while the window has EVENT_ACK_WINDOW unacknowledged", async () => {
    const ws = await openSocket(host.port, { Cookie: cookie, Origin: host.url.replace(/\/\?.*$/, '') });
    try {
      const frames: Array<{ t: string; n: number; items: Array<[string, { title: string }]> }> = [];
      ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as (typeof frames)[number]));
      const settle = () => new Promise((r) => setTimeout(r, 60));
      const shown = () => frames.map((f) => [f.n, f.items.map(([, p]) => p.title)]);
      const unacknowledged = Array.from({ length: EVENT_ACK_WINDOW }, (_, i) => [i + 1, [`w${i}`]]);
      for (let i = 0; i < EVENT_ACK_WINDOW; i++) {
        core.emit('app/notice', { severity: 'info', title: `w${i}` });
        await settle();
      }
      core.emit('app/notice', { severity: 'info', title: 'b' });
      core.emit('app/notice', { severity: 'info', title: 'c' });
      await settle();
      expect(shown()).toEqual(unacknowledged);
      ws.send(JSON.stringify({ t: 'ack', n: 1 }));
      await settle();
      expect(shown()).toEqual([...unacknowledged, [EVENT_ACK_WINDOW + 1, ['b', 'c']]]);
    } finally {
      ws.close();
    }
  });

  it('binds 127.0.0.1 only', async () => {
    const other = await new Promise<boolean>((resolve) => {
      const req = request({ host: '::1', port: host.port, path: '/' }, () => resolve(true));
      req.on('error', () => resolve(false));
      req.end();
    });
    expect(other).toBe(false);
  });
});

describe('web host whose core is still loading', () => {
  let parent: string;
  let dir: string;
  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'acpwb-web-lazy-'));
    dir = join(parent, 'renderer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>ui</title>');
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));
  /** A core loader that counts its calls (a fresh core in its own folders, named by `tag`). */
  const countingCoreLoader = (tag: string) => {
    let calls = 0;
    const cores: Array<ReturnType<typeof createCore>> = [];
    const load = async () => {
      calls++;
      cores.push(createCore({ host: 'test', paths: { dataDir: join(parent, `d${tag}`), configDir: join(parent, `c${tag}`) } }));
      return cores[0]!;
    };
    return { load, loads: () => calls, cores };
  };

  it('serves the UI at once and answers API requests sent before the core was there', async () => {
    let ready!: (core: ReturnType<typeof createCore>) => void;
    const loading = new Promise<ReturnType<typeof createCore>>((r) => (ready = r));
    const host = await startWebHost({ core: loading, rendererDir: dir });
    const cookie = `acp_workbench_${host.port}=${host.token}`;
    try {
      const page = await get(host.port, `/?token=${host.token}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>ui</title>');
      let opened = false;
      const socket = openSocket(host.port, { Cookie: cookie, Origin: host.url.replace(/\/\?.*$/, '') }).then((ws) => {
        opened = true;
        return ws;
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(opened).toBe(false); // the upgrade waits for the core
      ready(createCore({ host: 'test', paths: { dataDir: join(parent, 'd'), configDir: join(parent, 'c') } }));
      const ws = await socket;
      try {
        const answer = await call(ws, 1, 'app/ping', { nonce: 'late' });
        expect(answer).toMatchObject({ t: 'res', id: 1, ok: true });
      } finally {
        ws.close();
      }
    } finally {
      await host.close();
      (await loading).dispose();
    }
  });

  it('loads a core given as a loader only once the first page and its assets were sent', async () => {
    const paged = join(parent, 'paged');
    mkdirSync(join(paged, 'assets'), { recursive: true });
    writeFileSync(join(paged, 'index.html'), '<!doctype html><script type="module" src="./assets/main.js"></script><link rel="stylesheet" href="./assets/main.css">');
    writeFileSync(join(paged, 'assets', 'main.js'), 'export {};');
    writeFileSync(join(paged, 'assets', 'main.css'), 'body {}');
    const { load, loads, cores } = countingCoreLoader('2');
    const host = await startWebHost({ core: load, rendererDir: paged, firstPageTiming: { idleMs: 60_000, capMs: 60_000 } });
    const cookie = `acp_workbench_${host.port}=${host.token}`;
    try {
      expect((await get(host.port, `/?token=${host.token}`)).status).toBe(200);
      expect((await get(host.port, '/assets/main.js', { Cookie: cookie })).status).toBe(200);
      expect(loads()).toBe(0); // the style sheet is still to come
      expect((await get(host.port, '/assets/main.css', { Cookie: cookie })).status).toBe(200);
      // The host counts a response as sent at its 'close', which may come a moment after the client
      // has read it; the idle and cap timers (60 s) cannot be what loads it here.
      await vi.waitFor(() => expect(loads()).toBe(1), { timeout: 10_000, interval: 5 });
      const ws = await openSocket(host.port, { Cookie: cookie, Origin: host.url.replace(/\/\?.*$/, '') });
      try {
        expect(await call(ws, 1, 'app/ping', { nonce: 'x' })).toMatchObject({ t: 'res', id: 1, ok: true });
      } finally {
        ws.close();
      }
      expect(loads()).toBe(1);
    } finally {
      await host.close();
      for (const core of cores) core.dispose();
    }
  });

  it('loads the core at once when an API socket comes before the page, and not at all when closed first', async () => {
    const { load, loads, cores } = countingCoreLoader('3');
    const host = await startWebHost({ core: load, rendererDir: dir, firstPageTiming: { idleMs: 60_000, capMs: 60_000 } });
    try {
      const ws = await openSocket(host.port, { Cookie: `acp_workbench_${host.port}=${host.token}`, Origin: host.url.replace(/\/\?.*$/, '') });
      ws.close();
      expect(loads()).toBe(1);
    } finally {
      await host.close();
      for (const core of cores) core.dispose();
    }
    const unused = await startWebHost({ core: load, rendererDir: dir, firstPageTiming: { idleMs: 50, capMs: 100 } });
    await unused.close();
    await new Promise((r) => setTimeout(r, 300)); // past the waits the closed host no longer has
    expect(loads()).toBe(1);
  });

  it('refuses API sockets with a 503 naming the reason when the core failed to start', async () => {
    const failed = Promise.reject(new Error('settings file is not JSON'));
    failed.catch(() => undefined);
    const host = await startWebHost({ core: failed, rendererDir: dir });
    try {
      const refused = await openSocket(host.port, { Cookie: `acp_workbench_${host.port}=${host.token}`, Origin: host.url.replace(/\/\?.*$/, '') }).then(
        () => 'opened',
        (err: Error) => err.message,
      );
      expect(refused).toBe('HTTP 503');
      expect((await get(host.port, `/?token=${host.token}`)).status).toBe(200);
    } finally {
      await host.close();
    }
  });
});
