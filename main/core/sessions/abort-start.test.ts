/**
 * A start the user stops (`sessions/abort-start`): an agent that never answers `initialize` need not
 * be waited out for the minute of the start-up timeout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessRunning } from '../acp/process-registry';
import { tempBase } from '../workspace/testing/git-repo';
import { SessionManager } from './session-manager';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An agent that starts and never says a word. */
const silent = { command: process.execPath, args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1e6)'] };

function manager(): { m: SessionManager; base: string } {
  const t = tempBase('acpwb-abort-');
  cleanups.push(t.cleanup);
  const m = new SessionManager({ paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') }, host: 'test', emit: () => undefined });
  cleanups.push(() => m.dispose());
  return { m, base: t.base };
}

describe('SessionManager.abortStart', () => {
  it('stops a start whose agent hangs in initialize: the agent is stopped, the start fails as cancelled, nothing stays listed', async () => {
    const { m, base } = manager();
    const pidFile = join(base, 'agent.pid');
    const writesPid = { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.stdin.resume(); setInterval(() => {}, 1e6)`] };
    const started = m.start({ agent: writesPid, cwd: process.cwd(), startId: 'w1-1' });
    const failed = started.then(
      () => null,
      (err: unknown) => err,
    );
    // Listed as starting while it waits for initialize.
    await expect.poll(() => m.list().length).toBe(1);
    await expect.poll(() => existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isProcessRunning(pid)).toBe(true);
    const t0 = Date.now();
    await m.abortStart('w1-1');
    const err = (await failed) as { code?: string; message?: string } | null;
    expect(err).toMatchObject({ code: 'cancelled' });
    expect(err?.message).toMatch(/stopped/);
    expect(Date.now() - t0).toBeLessThan(30_000); // not the 60 s start-up timeout
    expect(m.list()).toEqual([]);
    await expect.poll(() => isProcessRunning(pid)).toBe(false);
  });

  it('stops a start asked to stop before its agent was spawned', async () => {
    const { m } = manager();
    const started = m.start({ agent: silent, cwd: process.cwd(), startId: 'early' });
    await m.abortStart('early');
    await expect(started).rejects.toMatchObject({ code: 'cancelled' });
    expect(m.list()).toEqual([]);
  });

  it('leaves other starts and ended starts alone, and refuses two starts of one name', async () => {
    const { m } = manager();
    await m.abortStart('nobody'); // no such start: nothing happens
    const first = m.start({ agent: silent, cwd: process.cwd(), startId: 'same' });
    first.catch(() => undefined);
    await expect(m.start({ agent: silent, cwd: process.cwd(), startId: 'same' })).rejects.toMatchObject({ code: 'bad_params' });
    await m.abortStart('same');
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
  });
});
