/**
 * Appends records to a connection's trace file. `append` is synchronous and only buffers (the
 * record is serialized at once, so later mutation of the object cannot change what is written);
 * buffered lines reach the file at least every `flushIntervalMs` (100 ms), and at once after
 * `flushSoon()` — called by the core at a turn's end and on every permission request, and by the
 * writer itself when it sees such a record (see `isUrgent`). A crash
 * of the app or the agent therefore loses at most the last interval. Writes go through one
 * promise chain, so lines land in append order; each write is at most `maxWriteBytes`, so no
 * single file operation holds a thread-pool worker for long.
 */
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TraceHeader, TraceRecord } from '../../../common/trace/records';

export interface TraceWriterOptions {
  flushIntervalMs?: number;
  maxWriteBytes?: number;
  /** Errors of background flushes (disk full...). Lines that failed stay queued for the next flush. */
  onError?: (error: Error) => void;
}

export const DEFAULT_FLUSH_INTERVAL_MS = 100;
export const DEFAULT_MAX_WRITE_BYTES = 1024 * 1024;

export class TraceWriter {
  /** Serialized records waiting for the next flush: text, and agents' own message bytes (see append). */
  private parts: Array<string | Uint8Array> = [];
  private records = 0;
  /** Bytes of a failed write not yet on disk; written before newer lines. */
  private unwritten: Buffer | undefined;
  private chain: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private soon: ReturnType<typeof setImmediate> | undefined;
  private closing = false;
  private readonly flushIntervalMs: number;
  private readonly maxWriteBytes: number;
  private readonly onError: (error: Error) => void;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    options: TraceWriterOptions,
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.maxWriteBytes = Math.max(1, options.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES);
    this.onError = options.onError ?? (() => undefined);
  }

  /**
   * Creates the file (never appends to an existing one: one file per connection) and writes the
   * header before resolving, so a trace on disk always starts with its header.
   */
  static async open(path: string, header: TraceHeader, options: TraceWriterOptions = {}): Promise<TraceWriter> {
    await mkdir(dirname(path), { recursive: true });
    const file = await open(path, 'ax');
    const writer = new TraceWriter(path, file, options);
    writer.parts.push(`${JSON.stringify(header)}\n`);
    writer.records++;
    await writer.flush();
    return writer;
  }

  get closed(): boolean {
    return this.closing;
  }

  /** Lines waiting for the next flush. */
  get pendingLines(): number {
    return this.records;
  }

  /**
   * `msgBytes`, for a wire record: the UTF-8 JSON text `record.msg` was parsed from (the agent's
   * line). It is written as is instead of serializing `msg` again — the same JSON value, the
   * agent's own bytes, and for a 16 KiB diff most of the cost of a record. The bytes are kept
   * until the next flush (at most `flushIntervalMs`), not copied.
   */
  append(record: TraceRecord, msgBytes?: Uint8Array): void {
    if (this.closing) throw new Error(`trace ${this.path} is closed; cannot append a ${record.kind} record`);
    if (msgBytes !== undefined && record.kind === 'wire' && !msgBytes.includes(CARRIAGE_RETURN)) {
      // `msg` last: the rest of the record, then the message's own bytes.
      const head = JSON.stringify(record, function (this: unknown, key, value: unknown) {
        return key === 'msg' && this === record ? undefined : value;
      });
      this.parts.push(`${head.slice(0, -1)},"msg":`, msgBytes, '}\n');
    } else {
      this.parts.push(serialize(record));
    }
    this.records++;
    if (isUrgent(record)) {
      this.flushSoon();
      return;
    }
    if (this.timer === undefined && this.soon === undefined) {
      this.timer = setTimeout(() => this.background(), this.flushIntervalMs);
      // A pending trace flush must not keep a finished CLI process alive; close() flushes.
      this.timer.unref?.();
    }
  }

  /** Flush on the next turn of the event loop (turn end, permission request). */
  flushSoon(): void {
    if (this.soon !== undefined || this.closing) return;
    this.soon = setImmediate(() => this.background());
  }

  /** Resolves when everything appended before the call is in the file. */
  flush(): Promise<void> {
    this.cancelTimers();
    const done = this.chain.then(() => this.writeOut());
    // The chain must survive a failed write so that later flushes still run, in order.
    this.chain = done.catch(() => undefined);
    return done;
  }

  /** Flushes, syncs to disk and closes. Appending afterwards throws. */
  async close(): Promise<void> {
    if (this.closing) return this.chain;
    this.closing = true;
    try {
      await this.flush();
      await this.file.datasync().catch(() => undefined);
    } finally {
      await this.file.close();
    }
  }

  private background(): void {
    this.flush().catch((err: unknown) => this.onError(err instanceof Error ? err : new Error(String(err))));
  }

  private cancelTimers(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.soon !== undefined) clearImmediate(this.soon);
    this.timer = this.soon = undefined;
  }

  private async writeOut(): Promise<void> {
    const parts = this.parts;
    this.parts = [];
    this.records = 0;
    const fresh = joinParts(parts);
    const data = this.unwritten ? Buffer.concat([this.unwritten, fresh]) : fresh;
    this.unwritten = undefined;
    let offset = 0;
    try {
      while (offset < data.length) {
        const length = Math.min(this.maxWriteBytes, data.length - offset);
        const { bytesWritten } = await this.file.write(data, offset, length);
        offset += bytesWritten;
      }
    } catch (err) {
      this.unwritten = data.subarray(offset);
      if (!this.closing && this.timer === undefined) {
        this.timer = setTimeout(() => this.background(), this.flushIntervalMs);
        this.timer.unref?.();
      }
      throw err;
    }
  }
}

/**
 * Records after which the user is waiting on something (a permission to answer, a finished turn)
 * or the process is gone: written at once, whether or not the caller remembered `flushSoon()`.
 */
function isUrgent(record: TraceRecord): boolean {
  switch (record.kind) {
    case 'wire': {
      if (record.dir !== 'in') return false;
      const { method, result } = record.msg;
      if (method === 'session/request_permission') return true;
      return typeof result === 'object' && result !== null && !Array.isArray(result) && 'stopReason' in result;
    }
    case 'permission-asked':
    case 'exit':
      return true;
    case 'spawn':
      return record.error !== undefined;
    default:
      return false;
  }
}

/** A carriage return is JSON whitespace but a line break to some readers: such lines are re-serialized. */
const CARRIAGE_RETURN = 0x0d;

/** The pending parts as one buffer: text encoded once, agents' bytes copied as they are. */
function joinParts(parts: ReadonlyArray<string | Uint8Array>): Buffer {
  let size = 0;
  for (const p of parts) size += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const p of parts) {
    if (typeof p === 'string') offset += out.write(p, offset);
    else {
      out.set(p, offset);
      offset += p.length;
    }
  }
  return out;
}

/** One JSONL line. A record that cannot be serialized is replaced by a notice saying so, never lost silently. */
function serialize(record: TraceRecord): string {
  try {
    return `${JSON.stringify(record)}\n`;
  } catch (err) {
    const notice: TraceRecord = {
      kind: 'notice',
      t: record.t,
      severity: 'error',
      message: `a ${record.kind} record could not be written: ${(err as Error).message}`,
      ...(record.sessionId !== undefined ? { sessionId: record.sessionId } : {}),
    };
    return `${JSON.stringify(notice)}\n`;
  }
}
