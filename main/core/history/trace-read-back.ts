/**
 * Reads byte ranges of a trace the connection is still writing, synchronously: what is in the
 * file from a read-only descriptor of its own, what the writer still holds from the writer
 * (`TraceWriter.copyPending`). The live transcript's spill file uses it to read a spilled tool
 * call's diff texts from the line of the update that carried them instead of keeping a second copy
 * (main/core/sessions/spill-file.ts).
 *
 * The descriptor is opened at once, so the file stays readable when it is renamed or moved later
 * (POSIX); once the writer is closed everything is in the file.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** What the reader needs of a TraceWriter. */
export interface PendingTrace {
  readonly path: string;
  readonly bytesAppended: number;
  readonly pendingBytes: number;
  copyPending(at: number, length: number, target: Uint8Array, targetStart?: number): void;
}

export class TraceReadBack {
  private fd: number | null;

  /** Throws when the trace file cannot be opened for reading. */
  constructor(private readonly trace: PendingTrace) {
    this.fd = openSync(trace.path, 'r');
  }

  get path(): string {
    return this.trace.path;
  }

  /** The bytes `[at, at + length)` of the trace. */
  read(at: number, length: number): Buffer {
    if (this.fd === null) throw new Error(`The trace ${this.trace.path} is no longer open for reading.`);
    if (at + length > this.trace.bytesAppended) throw new RangeError(`bytes ${at}–${at + length} are beyond the end of trace ${this.trace.path}`);
    const bytes = Buffer.allocUnsafe(length);
    const inFile = Math.min(length, Math.max(0, this.trace.bytesAppended - this.trace.pendingBytes - at));
    let done = 0;
    while (done < inFile) {
      const n = readSync(this.fd, bytes, done, inFile - done, at + done);
      if (n === 0) throw new Error(`The trace ${this.trace.path} ended early (wanted ${length} bytes at ${at}).`);
      done += n;
    }
    if (inFile < length) this.trace.copyPending(at + inFile, length - inFile, bytes, inFile);
    return bytes;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
