/**
 * An inter-process lock on the history index: the app, a web host and CLI commands may all catch
 * the index up at once, and only one of them may write it at a time. The lock is a file created
 * with O_EXCL holding the owner's pid, host and a random token. Its holder touches it every few
 * seconds; a lock whose owner is dead (same host) or that has not been touched for a long while
 * (a frozen or remote owner) is broken. Before writing, the holder checks that the file still
 * carries its token, so a holder whose lock was broken never overwrites the winner's work.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, readFile, rename, unlink, utimes, stat } from 'node:fs/promises';
import { isProcessRunning } from '../acp/process-registry';

export interface LockOptions {
  /** Give up waiting after this long (default 60 s). */
  waitMs?: number;
  /** A lock not touched for this long is taken over (default 2 min). */
  staleMs?: number;
  /** How often the holder touches the lock (default 5 s). */
  heartbeatMs?: number;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  at: string;
}

export class LockTimeout extends Error {
  constructor(path: string, holder: string) {
    super(`the history index is locked by ${holder} (${path}); gave up waiting`);
    this.name = 'LockTimeout';
  }
}

export class HeldLock {
  private timer: ReturnType<typeof setInterval> | undefined;
  private released = false;

  constructor(
    readonly path: string,
    private readonly token: string,
    heartbeatMs: number,
  ) {
    this.timer = setInterval(() => {
      const now = new Date();
      void utimes(path, now, now).catch(() => undefined);
    }, heartbeatMs);
    this.timer.unref?.();
  }

  /** True while the lock file is still ours (nobody broke it). */
  async stillHeld(): Promise<boolean> {
    return !this.released && (await this.isOurs());
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    if (await this.isOurs()) await unlink(this.path).catch(() => undefined);
  }

  private async isOurs(): Promise<boolean> {
    try {
      return (JSON.parse(await readFile(this.path, 'utf8')) as LockContent).token === this.token;
    } catch {
      return false;
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readHolder(path: string): Promise<{ content?: LockContent; mtimeMs?: number }> {
  try {
    const [text, st] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    let content: LockContent | undefined;
    try {
      content = JSON.parse(text) as LockContent;
    } catch {
      // Half-written by its creator, or garbage: judged by age alone.
    }
    return { ...(content ? { content } : {}), mtimeMs: st.mtimeMs };
  } catch {
    return {};
  }
}

function isStale(holder: { content?: LockContent; mtimeMs?: number }, staleMs: number): boolean {
  if (holder.mtimeMs === undefined) return false;
  const age = Date.now() - holder.mtimeMs;
  if (age > staleMs) return true;
  const c = holder.content;
  // A just-created lock may not have its content yet: give it a moment before judging.
  if (!c) return age > 5_000;
  return c.host === hostname() && c.pid !== process.pid && !isProcessRunning(c.pid);
}

export async function acquireLock(path: string, options: LockOptions = {}): Promise<HeldLock> {
  const waitMs = options.waitMs ?? 60_000;
  const staleMs = options.staleMs ?? 120_000;
  const token = randomBytes(12).toString('hex');
  const content: LockContent = { pid: process.pid, host: hostname(), token, at: new Date().toISOString() };
  const deadline = Date.now() + waitMs;
  let pause = 5;
  for (;;) {
    try {
      const file = await open(path, 'wx');
      try {
        await file.writeFile(JSON.stringify(content));
      } finally {
        await file.close();
      }
      return new HeldLock(path, token, options.heartbeatMs ?? 5_000);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await readHolder(path);
    if (isStale(holder, staleMs)) {
      // Renamed away first: of two processes breaking the same stale lock, one rename fails.
      const aside = `${path}.broken-${process.pid}-${randomBytes(4).toString('hex')}`;
      if (await rename(path, aside).then(() => true, () => false)) await unlink(aside).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) {
      const c = holder.content;
      throw new LockTimeout(path, c ? `process ${c.pid} on ${c.host}` : 'another process');
    }
    await sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 200);
  }
}
