/**
 * Reads the complete lines of a trace from a byte position on (the whole file from 0, or what was
 * appended since the last look), with each line's byte offset. A last line without its newline is
 * left unread: the writer may be in the middle of it (it is read once completed), or it is the torn
 * line a crash left, which `torn` reports. Same classification as trace-reader.ts (shared parser).
 */
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { TraceLineParser, type TraceItem } from '../../../common/trace/parse';
import type { FoldSkeleton } from './fold-skeleton';
import { readHintedLine, type HintedLine } from './hinted-line';
import type { LineHintWriter, TraceHints } from './line-hints';
import { SKELETON_MIN_STRING, type LineSkeleton } from './line-skeleton';

/** Reads start small (a snippet needs a few lines) and grow to this. */
const FIRST_CHUNK = 64 * 1024;
const MAX_CHUNK = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export interface TailResult {
  /** Byte position after the last complete line read. */
  position: number;
  /** Lines read so far in the file (the next line's number is lines + 1). */
  lines: number;
  /** File size when read. */
  size: number;
  /** Bytes after `position` that do not end with a newline. */
  torn: boolean;
}

/**
 * A parser that numbers lines from `lines + 1` on. TraceLineParser counts from 1 and treats line 1
 * as the header; it has no way to start later, so the lines already read are counted through it.
 */
function parserAfter(lines: number): TraceLineParser {
  const parser = new TraceLineParser();
  for (let i = 0; i < lines; i++) parser.reject('', '');
  return parser;
}

export interface TailOptions {
  maxBytes?: number;
  stopAfterOffset?: number;
  shouldStop?: () => boolean;
  /**
   * Lines the caller knows it has no use for from their text alone (the line as it is in the file,
   * decoded): counted and passed over without being parsed (no item is handed on).
   */
  skipLine?: (line: string) => boolean;
  /**
   * Long lines are parsed as their skeleton (line-skeleton.ts): records come with markers in place
   * of their long texts, which `skeleton.resolve` turns into raw texts while the record is handed
   * on. Such a line is not offered to `skipLine` (reading a line is always what skipping it stands
   * for). Other items (corrupt lines) are the same as without the option. The raw
   * texts are views of the bytes read, so only `readTraceTail` takes it (it reads into new buffers;
   * `readTraceTailSync` reuses one and ignores the option).
   */
  skeleton?: LineSkeleton;
  /**
   * With `skeleton`, in `readTraceTailInto` only: the index's hints of the file's long lines
   * (line-hints.ts). While the file is the version they were written for (its inode and
   * modification time), a hinted line is read through its hint (hinted-line.ts): only the bytes
   * around its long strings, and of those only what the snippets search; the same items. A hint
   * the bytes read do not match stops the use of hints for the rest of the reading.
   */
  hints?: TraceHints;
  /** The fold's side: every line of at least SKELETON_MIN_STRING bytes parsed as a record is noted here (line-hints.ts). */
  hintLines?: LineHintWriter;
  /**
   * The fold's skeleton (fold-skeleton.ts; not with `skeleton` or `skipLine`): a long line whose
   * skeleton is a record is handed on as that record, whose markers `foldSkeleton` resolves while it
   * is handed on (views of the bytes read: the synchronous reader takes it too); then its strings
   * taken out and not read are checked (`check` throws NotAsParsed). Other lines are read as before.
   */
  foldSkeleton?: FoldSkeleton;
}

/**
 * The lines of what was read, chunk by chunk: complete lines are classified and handed on, a
 * partial last line is kept for the next chunk. Shared by the asynchronous and synchronous readers.
 */
class TailLines {
  private readonly parser: TraceLineParser;
  lines: number;
  position: number;
  stopped = false;
  /** The start of a line not complete yet, in pieces (joined once, when its newline comes). */
  private carry: Buffer[] = [];
  private carryAt: number;

  constructor(
    from: { position: number; lines: number },
    private readonly onItem: (item: TraceItem, offset: number) => void,
    private readonly options: TailOptions,
  ) {
    this.parser = parserAfter(from.lines);
    this.lines = from.lines;
    this.position = from.position;
    this.carryAt = from.position;
  }

  /**
   * `chunk` was read at byte `readAt` (right after the previous chunk). `reused`: the caller reads
   * into the same buffer again, so what is kept of it is copied; otherwise it is kept as a view.
   */
  feed(chunk: Buffer, readAt: number, reused: boolean): void {
    let start = 0;
    if (this.carry.length > 0) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.carry.push(reused ? Buffer.from(chunk) : chunk);
        return;
      }
      const line = Buffer.concat([...this.carry, chunk.subarray(0, nl)]);
      this.carry = [];
      if (this.line(line, this.carryAt)) return;
      start = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      if (this.line(chunk.subarray(start, nl), readAt + start)) return;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.carry.push(reused ? Buffer.from(rest) : rest);
      this.carryAt = readAt + start;
    }
  }

  /**
   * The complete lines of `buffer[0, filled)`, whose first byte is the file's byte `base` and
   * starts a line (nothing carried: the caller keeps a line's start in the buffer itself), the
   * first `known` bytes known to hold no newline (a line's start read before). Returns where the
   * unfinished last line starts (`filled` when there is none).
   */
  feedLines(buffer: Buffer, filled: number, base: number, known: number): number {
    const bytes = buffer.subarray(0, filled);
    let start = 0;
    for (let from = known; ; from = start) {
      const nl = bytes.indexOf(NEWLINE, from);
      if (nl === -1) return start;
      if (this.line(bytes.subarray(start, nl), base + start)) return nl + 1;
      start = nl + 1;
    }
  }

  /** One complete line (without its newline) starting at byte `lineStart`; true: stop reading. */
  private line(bytes: Buffer, lineStart: number): boolean {
    const { parser, options } = this;
    let item: TraceItem;
    options.skeleton?.clear();
    // ASCII (most lines, and the megabytes of tool output): the same string, decoded as one byte
    // per character without UTF-8 validation — and V8 parses such a string faster.
    const ascii = isAscii(bytes);
    if (options.foldSkeleton !== undefined && bytes.length >= SKELETON_MIN_STRING && this.lines > 0 && this.foldLine(options.foldSkeleton, bytes, lineStart, ascii)) return this.stopsAt(lineStart);
    // Short ASCII lines are read whole: their skeleton would be the line (no string long enough).
    if ((!ascii || bytes.length >= SKELETON_MIN_STRING) && options.skeleton !== undefined && this.lines > 0) {
      const skeleton = options.skeleton.read(bytes);
      if (skeleton !== undefined) {
        item = parser.parse(skeleton);
        if (item.type !== 'record') item = wholeLineItem(bytes, item.line);
        this.lines++;
        this.onItem(item, lineStart);
        options.skeleton.clear();
        this.position = lineStart + bytes.length + 1;
        return this.stopsAt(lineStart);
      }
    }
    const text = bytes.toString(ascii ? 'latin1' : 'utf8');
    if (options.skipLine?.(text)) {
      parser.reject('', '');
      this.lines++;
      this.position = lineStart + bytes.length + 1;
      return this.stopsAt(lineStart);
    }
    if (!ascii && text.includes('\uFFFD')) {
      // Only a replacement character needs the strict check (it may have been in the file).
      try {
        strictUtf8.decode(bytes);
        item = parser.parse(text);
      } catch {
        item = parser.reject('not valid UTF-8', text.slice(0, 512));
      }
    } else item = parser.parse(text);
    if (options.hintLines !== undefined && item.type === 'record' && bytes.length >= SKELETON_MIN_STRING) options.hintLines.note(bytes, lineStart, ascii);
    this.lines++;
    this.onItem(item, lineStart);
    this.position = lineStart + bytes.length + 1;
    return this.stopsAt(lineStart);
  }

  /**
   * A long line read as the fold's skeleton (fold-skeleton.ts) when that is a record: handed on,
   * noted for its hint as the line itself would be, and checked; false (nothing counted or handed
   * on) when the line is to be read as before.
   */
  private foldLine(fold: FoldSkeleton, bytes: Buffer, lineStart: number, ascii: boolean): boolean {
    const skeleton = fold.read(bytes);
    if (skeleton === undefined) return false;
    const item = this.skeletonParser.parse(skeleton);
    if (item.type !== 'record') {
      fold.clear();
      return false;
    }
    this.parser.reject('', '');
    this.lines++;
    this.options.hintLines?.note(bytes, lineStart, ascii);
    this.onItem({ ...item, line: this.lines }, lineStart);
    fold.check();
    fold.clear();
    this.position = lineStart + bytes.length + 1;
    return true;
  }

  /**
   * The line at `lineStart` (`length` bytes and its newline) read through its hint: its skeleton is
   * parsed (with a parser of its own, so the line is not counted yet) and handed on with its raw
   * texts. False when the skeleton is no record: nothing is handed on, the caller reads the line as
   * usual (a hint that does not match the line; the whole line's item is what must be handed on).
   */
  hintedLine(line: HintedLine, lineStart: number, length: number): boolean {
    const skeleton = this.options.skeleton!;
    const item = this.skeletonParser.parse(line.skeleton);
    if (item.type !== 'record') return false;
    this.parser.reject('', '');
    this.lines++;
    skeleton.clear();
    skeleton.useTexts(line.texts);
    this.onItem({ ...item, line: this.lines }, lineStart);
    skeleton.clear();
    this.position = lineStart + length + 1;
    this.stopsAt(lineStart);
    return true;
  }

  /** Parses hinted lines' skeletons; only a line's number (1: the header) changes how a line is read, and this one is past 1. */
  private readonly skeletonParser = parserAfter(1);

  /** Reading a session's range: its last line is read, or the reader has what it wanted. */
  private stopsAt(lineStart: number): boolean {
    const { options } = this;
    if ((options.stopAfterOffset !== undefined && lineStart >= options.stopAfterOffset) || options.shouldStop?.()) {
      this.stopped = true;
      return true;
    }
    return false;
  }

  result(size: number): TailResult {
    return { position: this.position, lines: this.lines, size, torn: !this.stopped && size > this.position };
  }
}

/** Where a reader stops: the file's end, or `maxBytes` after where it starts. */
function readEnd(size: number, from: { position: number }, options: TailOptions): number {
  return options.maxBytes !== undefined ? Math.min(size, from.position + options.maxBytes) : size;
}

/** The start of each asynchronous reader: the file open, its size, where reading ends, the line cutter. */
async function openTail(path: string, from: { position: number; lines: number }, onItem: (item: TraceItem, offset: number) => void, options: TailOptions) {
  const file = await open(path, 'r');
  try {
    const stat = await file.stat();
    const size = stat.size;
    return { file, stat, size, end: readEnd(size, from, options), tail: new TailLines(from, onItem, options) };
  } catch (err) {
    await file.close();
    throw err;
  }
}

/**
 * The item of line number `line` (> 1, valid UTF-8) parsed whole: what a skeleton that is no record
 * gave, said of the line itself (a JSON error's position, the start of the text).
 */
function wholeLineItem(bytes: Buffer, line: number): TraceItem {
  const parser = new TraceLineParser();
  parser.reject('', '');
  return { ...parser.parse(bytes.toString('utf8')), line };
}

export async function readTraceTail(
  path: string,
  from: { position: number; lines: number },
  onItem: (item: TraceItem, offset: number) => void,
  options: TailOptions = {},
): Promise<TailResult> {
  const { file, size, end, tail } = await openTail(path, from, onItem, options);
  try {
    let readAt = from.position;
    let chunkSize = FIRST_CHUNK;
    while (readAt < end && !tail.stopped) {
      const want = Math.min(chunkSize, end - readAt);
      chunkSize = Math.min(chunkSize * 2, MAX_CHUNK);
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await file.read(chunk, 0, want, readAt);
      if (bytesRead === 0) break;
      tail.feed(chunk.subarray(0, bytesRead), readAt, false);
      readAt += bytesRead;
    }
    return tail.result(size);
  } finally {
    await file.close();
  }
}

/** One buffer for the synchronous reads of a thread (chunks are not kept after `feed`). */
let syncBuffer: Buffer | undefined;

/**
 * readTraceTail with synchronous reads, in big chunks into one reused buffer: for worker threads,
 * which have nothing else to do meanwhile (fold-worker.ts), so the promise per read is pure cost.
 */
export function readTraceTailSync(
  path: string,
  from: { position: number; lines: number },
  onItem: (item: TraceItem, offset: number) => void,
  options: TailOptions = {},
): TailResult {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const end = readEnd(size, from, options);
    const { skeleton: _viewsOfAReusedBuffer, ...syncOptions } = options;
    const tail = new TailLines(from, onItem, syncOptions);
    const buffer = (syncBuffer ??= Buffer.allocUnsafe(MAX_CHUNK));
    let readAt = from.position;
    while (readAt < end && !tail.stopped) {
      const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, end - readAt), readAt);
      if (bytesRead === 0) break;
      tail.feed(buffer.subarray(0, bytesRead), readAt, true);
      readAt += bytesRead;
    }
    return tail.result(size);
  } finally {
    closeSync(fd);
  }
}

/**
 * A buffer a reader fills again and again (readTraceTailInto): the bytes of a line are where it was
 * read, so nothing handed on outlives the next read. Grown (doubled) when a line does not fit.
 */
export class ReadBuffer {
  constructor(public bytes: Buffer = Buffer.allocUnsafe(FIRST_CHUNK)) {}

  /** A buffer at least twice as big, starting with the first `kept` bytes of this one. */
  grow(kept: number): void {
    const bigger = Buffer.allocUnsafe(this.bytes.length * 2);
    this.bytes.copy(bigger, 0, 0, kept);
    this.bytes = bigger;
  }
}

/**
 * readTraceTail into one reused buffer, for reading a few sessions' ranges in a row (snippets.ts):
 * no fresh buffer per read and no line joined from pieces — an unfinished line is moved to the
 * buffer's start and the next read lands after it. Items and results are readTraceTail's; what an
 * item refers to in the buffer (the skeleton's raw texts) is valid only while it is handed on.
 */
export async function readTraceTailInto(
  path: string,
  from: { position: number; lines: number },
  onItem: (item: TraceItem, offset: number) => void,
  options: TailOptions,
  into: ReadBuffer,
): Promise<TailResult> {
  const { file, stat, size, end, tail } = await openTail(path, from, onItem, options);
  try {
    let hints = options.skeleton !== undefined && options.hints?.fits(stat) ? options.hints : undefined;
    let readAt = from.position;
    // Bytes at the buffer's start: the unfinished line read so far (file bytes readAt - kept on).
    let kept = 0;
    let chunkSize = FIRST_CHUNK;
    while (readAt < end && !tail.stopped) {
      // A line starts at readAt (nothing kept) that has a hint: read through it.
      const hint = hints !== undefined && kept === 0 && tail.lines > 0 ? hints.at(readAt) : undefined;
      if (hint !== undefined) {
        const line = readHintedLine(file.fd, hint, readAt, end);
        if (line !== undefined && tail.hintedLine(line, readAt, hint[1]!)) {
          readAt += hint[1]! + 1;
          continue;
        }
        // Not what the hint says: this line and the rest are read as before.
        hints = undefined;
      }
      if (kept === into.bytes.length) into.grow(kept);
      // Reads stop where the next hinted line starts (it is read through its hint).
      const until = hints === undefined ? end : Math.min(end, hints.after(readAt));
      const want = Math.min(chunkSize, until - readAt, into.bytes.length - kept);
      chunkSize = Math.min(chunkSize * 2, MAX_CHUNK);
      const { bytesRead } = await file.read(into.bytes, kept, want, readAt);
      if (bytesRead === 0) break;
      const filled = kept + bytesRead;
      const rest = tail.feedLines(into.bytes, filled, readAt - kept, kept);
      readAt += bytesRead;
      if (tail.stopped) break;
      into.bytes.copyWithin(0, rest, filled);
      kept = filled - rest;
    }
    return tail.result(size);
  } finally {
    await file.close();
  }
}
