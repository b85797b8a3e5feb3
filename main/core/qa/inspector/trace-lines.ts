/**
 * Reads lines of a connection's trace file back by their byte span, for the inspector: the store
 * keeps only where each message's line is, and its text is read here when a window, the detail
 * view, a search or an export needs it. Lines still in the writer's buffer are flushed first.
 * Reads are coalesced: spans close together are read with one file read.
 */
import { open, type FileHandle } from 'node:fs/promises';

/** The trace as the connection writes it (TraceWriter has this shape). */
export interface TraceFile {
  readonly path: string;
  /** Bytes appended so far, header included (where the next line starts). */
  readonly bytesAppended: number;
  /** Bytes appended but not yet in the file. */
  readonly pendingBytes: number;
  flush(): Promise<void>;
}

export interface Span {
  offset: number;
  length: number;
}

/** Spans closer than this are read together (the bytes between are read and dropped). */
const COALESCE_GAP = 64 * 1024;
/** One read at most this big when coalescing (a single longer line is read on its own). */
const MAX_READ = 4 * 1024 * 1024;

export class TraceReadError extends Error {
  constructor(path: string, cause: unknown) {
    super(
      `Could not read the message back from the trace file ${path}: ${(cause as Error)?.message ?? String(cause)}. ` +
        'The inspector reads message text from the trace; if the file was moved or deleted, the message text is gone (its row stays).',
    );
    this.name = 'TraceReadError';
  }
}

export class TraceLines {
  constructor(private readonly trace: TraceFile) {}

  get path(): string {
    return this.trace.path;
  }

  /** The bytes of each span (in the order given; spans need not be sorted). */
  async read(spans: readonly Span[]): Promise<Buffer[]> {
    const out = new Array<Buffer>(spans.length);
    if (spans.length === 0) return out;
    const order = spans.map((_, k) => k).sort((a, b) => spans[a]!.offset - spans[b]!.offset);
    let end = 0;
    for (const s of spans) end = Math.max(end, s.offset + s.length);
    await this.ensureWritten(end);
    await this.withFile(async (file) => {
      let k = 0;
      while (k < order.length) {
        // A run of spans read with one read.
        const first = spans[order[k]!]!;
        let end = first.offset + first.length;
        let j = k;
        while (j + 1 < order.length) {
          const next = spans[order[j + 1]!]!;
          const nextEnd = Math.max(end, next.offset + next.length);
          if (next.offset - end > COALESCE_GAP || nextEnd - first.offset > MAX_READ) break;
          end = nextEnd;
          j++;
        }
        const block = await readExactly(file, first.offset, end - first.offset);
        for (let m = k; m <= j; m++) {
          const s = spans[order[m]!]!;
          out[order[m]!] = block.subarray(s.offset - first.offset, s.offset - first.offset + s.length);
        }
        k = j + 1;
      }
    });
    return out;
  }

  /** One span's bytes. */
  async readOne(span: Span): Promise<Buffer> {
    return (await this.read([span]))[0]!;
  }

  private async ensureWritten(end: number): Promise<void> {
    if (end <= this.trace.bytesAppended - this.trace.pendingBytes) return;
    try {
      await this.trace.flush();
    } catch (err) {
      throw new TraceReadError(this.trace.path, err);
    }
  }

  private async withFile(use: (file: FileHandle) => Promise<void>): Promise<void> {
    let file: FileHandle;
    try {
      file = await open(this.trace.path, 'r');
    } catch (err) {
      throw new TraceReadError(this.trace.path, err);
    }
    try {
      await use(file);
    } catch (err) {
      throw err instanceof TraceReadError ? err : new TraceReadError(this.trace.path, err);
    } finally {
      await file.close();
    }
  }
}

async function readExactly(file: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await file.read(buffer, got, length - got, offset + got);
    if (bytesRead === 0) throw new Error(`the file ends at byte ${offset + got}, before byte ${offset + length}`);
    got += bytesRead;
  }
  return buffer;
}
