/**
 * `run`'s stdout, batched, with its backpressure. Text and bytes are gathered into one buffer of
 * `batchBytes` and written when it is full, on the next turn of the event loop (setImmediate: all
 * the events of one chunk of agent output go out together) or on `flush()` — one write per batch
 * instead of one per event, which is most of the cost of writing 100,000 events to a file.
 *
 * Backpressure: when a write says the stream is full (`stdout` returned false), `full` is a promise
 * that resolves on 'drain' — run-agent.ts stops reading the agents until then, so at most one
 * batch waits here. Callers must `flush()` before they write anything else that a reader sees in
 * order with this output (stderr), and when they are done.
 */
import type { CliIo } from '../command';

export const DEFAULT_BATCH_BYTES = 64 * 1024;

export class OutputFlow {
  private waiting: Promise<void> | undefined;
  private batch: Buffer;
  private used = 0;
  private scheduled = false;

  constructor(
    private readonly io: Pick<CliIo, 'stdout' | 'stdoutBytes' | 'drained'>,
    private readonly batchBytes = DEFAULT_BATCH_BYTES,
  ) {
    this.batch = Buffer.allocUnsafe(batchBytes);
  }

  /** Appends text (written as UTF-8). */
  text(text: string): void {
    // At most 3 bytes per UTF-16 unit: room is checked without measuring the text.
    if (text.length * 3 > this.batchBytes - this.used) {
      this.flush();
      if (text.length * 3 > this.batchBytes) {
        this.send(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.batch.write(text, this.used, 'utf8');
    this.schedule();
  }

  /** Appends bytes (copied: the caller may reuse them). */
  bytes(bytes: Uint8Array): void {
    if (bytes.length > this.batchBytes - this.used) {
      this.flush();
      if (bytes.length > this.batchBytes) {
        this.send(Buffer.from(bytes));
        return;
      }
    }
    this.batch.set(bytes, this.used);
    this.used += bytes.length;
    this.schedule();
  }

  /** Writes what is gathered now. */
  flush(): void {
    if (this.used === 0) return;
    const chunk = this.batch.subarray(0, this.used);
    // A new buffer: a stream that could not write at once still holds the old one.
    this.batch = Buffer.allocUnsafe(this.batchBytes);
    this.used = 0;
    this.send(chunk);
  }

  /** Undefined while the output takes more; else resolves when it drained. */
  get full(): Promise<void> | undefined {
    return this.waiting;
  }

  private send(chunk: Buffer): void {
    const ok = (this.io.stdoutBytes ? this.io.stdoutBytes(chunk) : this.io.stdout(chunk.toString('utf8'))) !== false;
    if (!ok && !this.waiting && this.io.drained) {
      this.waiting = this.io.drained().then(() => {
        this.waiting = undefined;
      });
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }
}
