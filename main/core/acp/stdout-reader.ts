/**
 * Stdout reader: a child's stdout read into one reused buffer instead of a fresh Buffer per read.
 *
 * Why it exists: a `data` event is a newly allocated Buffer of up to 64 KiB, and V8 gives its memory
 * back only once a scavenge finds the Buffer's object dead. Under a flood (≈ 1 GB/s across four
 * agents) that is tens of MiB of read chunks waiting for a collection at any moment — a large part
 * of the core's peak RSS (docs/performance.md § 1). Node's `net.Socket` can read into a buffer of
 * the caller's (`onread: { buffer, callback }`, libuv's user buffer): every read lands in the same
 * bytes and the callback sees them at once.
 *
 * How: `child_process` wraps the stdout pipe in its own `net.Socket`, already reading. The pipe
 * handle is taken over by a second socket created with `onread` (the handle then calls it, not the
 * first one), and the first socket is detached from the handle and destroyed, so nothing of Node's
 * — e.g. the child's exit resuming its stdio — can restart or close the pipe behind our back. If the
 * stream has no such handle (another platform, a future Node), it is read with `data` events as before.
 *
 * The contract this changes: a chunk handed to `onChunk` is valid only during the call. Whoever
 * keeps bytes past it must copy them (the line tap copies the pieces of unfinished lines; the trace
 * writer copies each line into its blocks; `run`'s output copies what it batches).
 */
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/** The size of one read: what a pipe read with Node's default allocation returns at most. */
export const STDOUT_READ_BYTES = 64 * 1024;

export interface StdoutHandlers {
  /** The bytes read; a view of the reused buffer, valid only during the call. */
  chunk(bytes: Buffer): void;
  /** End of stream or a read error (after which no chunk comes). */
  end(): void;
}

export interface StdoutReader {
  /** Stops reading (the agent's output waits in the pipe) until `resume()`. */
  pause(): void;
  resume(): void;
  /** Stops reading for good and closes our end of the pipe. */
  destroy(): void;
  /** Whether reads go into one reused buffer (false: the `data` event fallback). */
  readonly reusesBuffer: boolean;
}

/** A libuv stream handle that can read into a buffer of ours (Node's `Pipe`, `TCP`). */
interface UserBufferHandle {
  useUserBuffer(buffer: Uint8Array): void;
  readStart(): number;
  readStop(): number;
}

export function readStdout(stream: Readable, handlers: StdoutHandlers, bufferBytes = STDOUT_READ_BYTES): StdoutReader {
  const handle = userBufferHandle(stream);
  if (!handle) return readWithDataEvents(stream, handlers);
  const buffer = Buffer.allocUnsafeSlow(bufferBytes);
  const original = stream as Socket & { _handle: unknown };
  const socket = new Socket({
    handle: handle as never,
    readable: true,
    onread: {
      buffer,
      callback: (nread: number, bytes: Uint8Array) => {
        handlers.chunk((bytes as Buffer).subarray(0, nread));
      },
    },
  } as ConstructorParameters<typeof Socket>[0]);
  // The first socket no longer owns the pipe: without a handle its reads wait for a `connect` that
  // never comes, and destroying it closes nothing (it still emits `close`, which the child counts).
  original._handle = null;
  original.destroy();
  socket.on('end', handlers.end);
  socket.on('error', handlers.end);
  return {
    pause: () => void socket.pause(),
    resume: () => void socket.resume(),
    destroy: () => void socket.destroy(),
    reusesBuffer: true,
  };
}

function readWithDataEvents(stream: Readable, handlers: StdoutHandlers): StdoutReader {
  stream.on('data', handlers.chunk);
  stream.on('end', handlers.end);
  stream.on('error', handlers.end);
  return {
    pause: () => void stream.pause(),
    resume: () => void stream.resume(),
    destroy: () => void stream.destroy(),
    reusesBuffer: false,
  };
}

function userBufferHandle(stream: Readable): UserBufferHandle | undefined {
  if (!(stream instanceof Socket)) return undefined;
  const handle = (stream as Socket & { _handle?: Partial<UserBufferHandle> | null })._handle;
  if (!handle || typeof handle.useUserBuffer !== 'function' || typeof handle.readStart !== 'function' || typeof handle.readStop !== 'function') return undefined;
  return handle as UserBufferHandle;
}
