/**
 * Appends records to a connection's trace file. `append` is synchronous and only buffers (the
 * record is serialized at once, so later mutation of the object cannot change what is written);
 * buffered lines reach the file at least every `flushIntervalMs` (100 ms) or every `FLUSH_AT_BYTES`, and at once after
 * `flushSoon()` — called by the core at a turn's end and on every permission request, and by the
 * writer itself when it sees such a record (see `isUrgent`). A crash
 * of the app or the agent therefore loses at most the last interval. Writes go through one
 * promise chain, so lines land in append order; each write is at most `maxWriteBytes`, so no
 * single file operation holds a thread-pool worker for long.
 *
 * Lines are encoded into 256 KiB blocks as they are appended (an agent's message bytes are copied
 * in, not kept as views that would pin its 64 KiB stdout chunks until the flush — and, once such a
 * view outlives a young-generation GC, until a full one), and blocks written out are reused: under
 * a flood the writer's memory stays a few blocks and the flush is a few plain writes. The spare
 * blocks are shared by all the writers of the process (`BlockPool`).
 */
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TraceHeader, TraceRecord } from '../../../common/trace/records';
import { BLOCK_BYTES, processBlockPool, type BlockPool } from './block-pool';
import { WireHeads } from './wire-head';

export interface TraceWriterOptions {
  flushIntervalMs?: number;
  maxWriteBytes?: number;
  /** Errors of background flushes (disk full...). Lines that failed stay queued for the next flush. */
  onError?: (error: Error) => void;
  /** A write went through after one or more had failed: everything queued meanwhile is in the file. */
  onRecovered?: () => void;
  /** Where blocks come from and go back to: the process's pool unless given one (tests). */
  blockPool?: BlockPool;
}

export const DEFAULT_FLUSH_INTERVAL_MS = 100;
export const DEFAULT_MAX_WRITE_BYTES = 1024 * 1024;
/**
 * Pending bytes that start a flush without waiting for the interval: under a flood the writer then
 * holds about one write's worth of blocks (reused) instead of the interval's worth of fresh ones
 * (≈ 3 MiB per 100 ms per agent at 30,000 updates/s), which kept the core's RSS up.
 */
export const FLUSH_AT_BYTES = 1024 * 1024;

/** Bytes waiting to be written; `block` is set when the buffer is a whole reusable block. */
interface Piece {
  bytes: Buffer;
  block?: Buffer;
}

export class TraceWriter {
  /** Filled blocks (and lines too long for one) waiting for the next flush, in order. */
  private pieces: Piece[] = [];
  /** The block being filled, and how much of it is. */
  private block: Buffer | undefined;
  private used = 0;
  private readonly pool: BlockPool;
  private allocatedBlocks = 0;
  /** Records appended since the last flush began. */
  private records = 0;
  /** The text before `msg` of a wire line, kept from the line before (wire-head.ts). */
  private readonly heads = new WireHeads();
  /** Bytes appended and not yet written (including a write under way). */
  private pending = 0;
  /** Bytes appended since the file was created, header included: where the next line starts. */
  private appended = 0;
  private readonly drainWaiters: Array<{ below: number; resolve: () => void }> = [];
  /** Bytes of a failed write not yet on disk; written before newer lines. */
  private unwritten: Piece[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private soon: ReturnType<typeof setImmediate> | undefined;
  private closing = false;
  private readonly flushIntervalMs: number;
  private readonly maxWriteBytes: number;
  private readonly onError: (error: Error) => void;
  private readonly onRecovered: () => void;
  /** The last write failed (and nothing has been written since). */
  private failing = false;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    options: TraceWriterOptions,
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.maxWriteBytes = Math.max(1, options.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES);
    this.onError = options.onError ?? (() => undefined);
    this.onRecovered = options.onRecovered ?? (() => undefined);
    this.pool = options.blockPool ?? processBlockPool;
    this.pool.attach();
  }

  /**
   * Creates the file (never appends to an existing one: one file per connection) and writes the
   * header before resolving, so a trace on disk always starts with its header.
   */
  static async open(path: string, header: TraceHeader, options: TraceWriterOptions = {}): Promise<TraceWriter> {
    await mkdir(dirname(path), { recursive: true });
    const file = await open(path, 'ax');
    const writer = new TraceWriter(path, file, options);
    writer.put(`${JSON.stringify(header)}\n`);
    writer.records++;
    try {
      await writer.flush();
    } catch (err) {
      writer.pool.detach();
      await file.close().catch(() => undefined);
      throw err;
    }
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
   * Bytes appended since the file was created (header included): the file offset where the next
   * line will start. Read before and after `append` to know where a record's line lies.
   */
  get bytesAppended(): number {
    return this.appended;
  }

  /** Blocks this writer allocated since the file was created (figures, tests: reused blocks are not counted). */
  get blocksAllocated(): number {
    return this.allocatedBlocks;
  }

  /** Written blocks held for reuse by the writer's pool (shared with the other writers of the process). */
  get spareBlocks(): number {
    return this.pool.spareBlocks;
  }

  /** Bytes appended that are not in the file yet: what the writer holds in memory. */
  get pendingBytes(): number {
    return this.pending;
  }

  /**
   * Resolves once at most `below` bytes are pending (at once if that is already so), e.g. to stop
   * reading an agent while the disk is slower than it. A flush is started if none is due.
   */
  whenBelow(below: number): Promise<void> {
    if (this.pending <= below || this.closing) return Promise.resolve();
    this.flushSoon();
    return new Promise((resolve) => this.drainWaiters.push({ below, resolve }));
  }

  /**
   * `msgBytes`, for a wire record: the UTF-8 JSON text `record.msg` was parsed from (the agent's
   * line). It is written as is instead of serializing `msg` again — the same JSON value, the
   * agent's own bytes, and for a 16 KiB diff most of the cost of a record. The bytes are copied
   * into the pending block at once: they may be a view of the agent's reused read buffer.
   */
  append(record: TraceRecord, msgBytes?: Uint8Array): void {
    if (this.closing) throw new Error(`trace ${this.path} is closed; cannot append a ${record.kind} record`);
    if (msgBytes !== undefined && record.kind === 'wire' && !msgBytes.includes(CARRIAGE_RETURN)) {
      // `msg` last: the rest of the record, then the message's own bytes.
      this.put(this.heads.of(record));
      this.putBytes(msgBytes, true);
    } else {
      this.put(serialize(record));
    }
    this.records++;
    if (isUrgent(record) || this.pending >= FLUSH_AT_BYTES) {
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
    this.tellDrained();
    try {
      await this.flush();
      await this.file.datasync().catch(() => undefined);
    } finally {
      // The written blocks went back to the pool as they were written.
      this.pool.detach();
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

  /** Appends text to the pending bytes (UTF-8). */
  private put(text: string): void {
    // At most 3 bytes per UTF-16 unit: when that fits, no need to measure the text first.
    if (this.block && this.used + text.length * 3 <= this.block.length) {
      const written = this.block.write(text, this.used);
      this.used += written;
      this.pending += written;
      this.appended += written;
      return;
    }
    const length = Buffer.byteLength(text);
    this.pending += length;
    this.appended += length;
    if (length > BLOCK_BYTES) {
      this.seal();
      this.pieces.push({ bytes: Buffer.from(text, 'utf8') });
      return;
    }
    this.room(length);
    this.used += this.block!.write(text, this.used);
  }

  /**
   * Appends bytes to the pending bytes (copied: the caller's buffer may be a view of a larger one);
   * `closeLine`: then `}` and the newline, written as two bytes rather than as a string.
   */
  private putBytes(bytes: Uint8Array, closeLine = false): void {
    const length = bytes.length + (closeLine ? 2 : 0);
    this.pending += length;
    this.appended += length;
    if (length > BLOCK_BYTES) {
      this.seal();
      const piece = Buffer.allocUnsafe(length);
      piece.set(bytes);
      if (closeLine) piece.set(LINE_END, bytes.length);
      this.pieces.push({ bytes: piece });
      return;
    }
    this.room(length);
    const block = this.block!;
    block.set(bytes, this.used);
    this.used += bytes.length;
    if (closeLine) {
      block[this.used++] = CLOSE_BRACE;
      block[this.used++] = NEWLINE;
    }
  }

  private tellDrained(): void {
    for (let k = this.drainWaiters.length - 1; k >= 0; k--) {
      const waiter = this.drainWaiters[k]!;
      if (this.pending > waiter.below && !this.closing) continue;
      this.drainWaiters.splice(k, 1);
      waiter.resolve();
    }
  }

  /** Makes sure the current block has `length` bytes free. */
  private room(length: number): void {
    if (this.block && this.used + length <= this.block.length) return;
    this.seal();
    const allocated = this.pool.blocksAllocated;
    this.block = this.pool.take();
    if (this.pool.blocksAllocated !== allocated) this.allocatedBlocks++;
    this.used = 0;
  }

  /** Moves what the current block holds to the pieces to write. */
  private seal(): void {
    if (!this.block) return;
    if (this.used > 0) this.pieces.push({ bytes: this.block.subarray(0, this.used), block: this.block });
    else this.pool.give(this.block);
    this.block = undefined;
    this.used = 0;
  }

  private async writeOut(): Promise<void> {
    this.seal();
    const pieces = [...this.unwritten, ...this.pieces];
    this.unwritten = [];
    this.pieces = [];
    this.records = 0;
    // pieces[i] from `offset` on is the first byte not known to be written.
    let i = 0;
    let offset = 0;
    try {
      while (i < pieces.length) {
        // One write of up to maxWriteBytes: several whole pieces at once (writev), or a slice of one.
        let j = i;
        let size = pieces[i]!.bytes.length - offset;
        while (j + 1 < pieces.length && size + pieces[j + 1]!.bytes.length <= this.maxWriteBytes) size += pieces[++j]!.bytes.length;
        let written: number;
        if (j > i) written = (await this.file.writev(pieces.slice(i, j + 1).map((p, k) => (k === 0 ? p.bytes.subarray(offset) : p.bytes)))).bytesWritten;
        else written = (await this.file.write(pieces[i]!.bytes, offset, Math.min(this.maxWriteBytes, size))).bytesWritten;
        // Advance past what was written; whole blocks go back to the spares.
        offset += written;
        this.pending -= written;
        this.tellDrained();
        while (i < pieces.length && offset >= pieces[i]!.bytes.length) {
          offset -= pieces[i]!.bytes.length;
          const block = pieces[i]!.block;
          if (block) this.pool.give(block);
          i++;
        }
      }
      if (this.failing) {
        this.failing = false;
        this.onRecovered();
      }
    } catch (err) {
      this.failing = true;
      const rest = pieces.slice(i);
      rest[0] = { bytes: rest[0]!.bytes.subarray(offset), ...(rest[0]!.block ? { block: rest[0]!.block } : {}) };
      this.unwritten = rest;
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
const CLOSE_BRACE = 0x7d;
const NEWLINE = 0x0a;
const LINE_END = Uint8Array.of(CLOSE_BRACE, NEWLINE);

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
