import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readStdout, type StdoutReader } from './stdout-reader';

const children: ChildProcessWithoutNullStreams[] = [];
const readers: StdoutReader[] = [];

afterEach(() => {
  for (const reader of readers.splice(0)) reader.destroy();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A child that writes `count` blocks of `size` bytes (block k filled with the letter k mod 26), then exits. */
function writer(count: number, size: number): ChildProcessWithoutNullStreams {
  const script = `
    let k = 0;
    const next = () => {
      if (k === ${count}) return process.exit(0);
      const block = Buffer.alloc(${size}, 97 + (k++ % 26));
      if (process.stdout.write(block)) setImmediate(next); else process.stdout.once('drain', next);
    };
    next();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

function expectedDigest(count: number, size: number): string {
  const hash = createHash('sha256');
  for (let k = 0; k < count; k++) hash.update(Buffer.alloc(size, 97 + (k % 26)));
  return hash.digest('hex');
}

/** Reads a child's stdout, hashing each chunk during the call; resolves at its end. */
function read(child: ChildProcessWithoutNullStreams, onChunk: (chunk: Buffer) => void = () => {}) {
  const hash = createHash('sha256');
  const memory = new Set<ArrayBufferLike>();
  let bytes = 0;
  let ends = 0;
  let resolveEnd!: () => void;
  const ended = new Promise<void>((resolve) => (resolveEnd = resolve));
  const reader = readStdout(child.stdout, {
    chunk: (chunk) => {
      hash.update(chunk);
      memory.add(chunk.buffer);
      bytes += chunk.length;
      onChunk(chunk);
    },
    end: () => {
      ends++;
      resolveEnd();
    },
  });
  readers.push(reader);
  return { reader, ended, digest: () => hash.digest('hex'), memory, bytes: () => bytes, ends: () => ends };
}

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('readStdout', () => {
  it('delivers every byte in order, all reads in one buffer, then ends once', async () => {
    const child = writer(40, 50_000);
    const out = read(child);
    expect(out.reader.reusesBuffer).toBe(true);
    await out.ended;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(out.bytes()).toBe(40 * 50_000);
    expect(out.digest()).toBe(expectedDigest(40, 50_000));
    expect(out.memory.size).toBe(1);
    expect(out.ends()).toBe(1);
  });

  it('reads nothing while paused, then the rest after resume', async () => {
    const child = writer(20, 64 * 1024);
    let paused = false;
    let pausedOnce = false;
    let whilePaused = 0;
    const out = read(child, () => {
      if (paused) whilePaused++;
      else if (!pausedOnce) {
        paused = pausedOnce = true;
        out.reader.pause();
      }
    });
    // The child's start takes its time on a loaded machine: wait for the first read, then give a
    // paused reader time to misbehave.
    await expect.poll(() => out.bytes(), { timeout: 20_000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(whilePaused).toBe(0);
    paused = false;
    out.reader.resume();
    await out.ended;
    expect(out.digest()).toBe(expectedDigest(20, 64 * 1024));
  });

  it('stays paused when the child exits with its output unread', async () => {
    const child = writer(1, 40_000); // fits in the pipe: the child exits with it unread
    const out = read(child);
    out.reader.pause();
    await exited(child);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(out.bytes()).toBe(0);
    out.reader.resume();
    await out.ended;
    expect(out.digest()).toBe(expectedDigest(1, 40_000));
  });

  it('stops reading for good on destroy', async () => {
    const child = writer(1000, 64 * 1024);
    let chunks = 0;
    const out = read(child, () => {
      if (++chunks === 2) out.reader.destroy();
    });
    await expect.poll(() => chunks, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(chunks).toBe(2);
  });

  it('falls back to data events for a stream that is not a pipe socket', async () => {
    const chunks: string[] = [];
    let ended = false;
    const reader = readStdout(Readable.from([Buffer.from('a'), Buffer.from('b')]), {
      chunk: (chunk) => chunks.push(chunk.toString()),
      end: () => (ended = true),
    });
    expect(reader.reusesBuffer).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(chunks).toEqual(['a', 'b']);
    expect(ended).toBe(true);
  });
});
