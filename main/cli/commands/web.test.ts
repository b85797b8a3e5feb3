import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BUILT_CLI } from '../test-support/run-cli';

describe('acp-workbench web', () => {
  it('serves on 127.0.0.1, prints a tokenized URL, honours --data-dir and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-webcmd-'));
    const renderer = join(dir, 'ui');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<title>ok</title>');
    const child = spawn(process.execPath, [BUILT_CLI, 'web', '--json', '--data-dir', join(dir, 'data'), '--renderer', renderer], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const { url, port } = JSON.parse(line) as { url: string; port: number };
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[A-Za-z0-9_-]{43}$`));

    const unauth = await fetch(`http://127.0.0.1:${port}/`);
    expect(unauth.status).toBe(401);
    const page = await fetch(url);
    expect(page.status).toBe(200);

    const ws = await import('ws');
    const socket = new ws.WebSocket(`ws://127.0.0.1:${port}/api`, { headers: { Authorization: `Bearer ${url.split('token=')[1]}` } });
    const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.once('open', () => socket.send(JSON.stringify({ t: 'req', id: 1, name: 'app/info' })));
      socket.once('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>));
      socket.once('error', reject);
    });
    socket.close();
    expect(info).toMatchObject({ ok: true, result: { host: 'web', dataDir: join(dir, 'data') } });

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('says how to build the UI when it is missing', async () => {
    const { runBuiltCli } = await import('../test-support/run-cli');
    const r = await runBuiltCli(['web', '--renderer', '/nonexistent-ui']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('npm run build');
  });
});
