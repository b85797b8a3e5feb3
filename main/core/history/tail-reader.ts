/**
 * Reads the complete lines of a trace from a byte position on (the whole file from 0, or what was
 * appended since the last look), with each line's byte offset. A last line without its newline is
 * left unread: the writer may be in the middle of it (it is read once completed), or it is the torn
 * line a crash left, which `torn` reports. Same classification as trace-reader.ts (shared parser).
 */
import { open } from 'node:fs/promises';
import { TraceLineParser, type TraceItem } from '../../../common/trace/parse';

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

export async function readTraceTail(
  path: string,
  from: { position: number; lines: number },
  onItem: (item: TraceItem, offset: number) => void,
  options: { maxBytes?: number; stopAfterOffset?: number; shouldStop?: () => boolean } = {},
): Promise<TailResult> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const end = options.maxBytes !== undefined ? Math.min(size, from.position + options.maxBytes) : size;
    const parser = parserAfter(from.lines);
    let lines = from.lines;
    let position = from.position;
    let carry: Buffer | undefined;
    let carryAt = position;
    let readAt = position;
    let stopped = false;
    let chunkSize = FIRST_CHUNK;
    while (readAt < end && !stopped) {
      const want = Math.min(chunkSize, end - readAt);
      chunkSize = Math.min(chunkSize * 2, MAX_CHUNK);
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await file.read(chunk, 0, want, readAt);
      if (bytesRead === 0) break;
      const data = carry ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      const base = carry ? carryAt : readAt;
      readAt += bytesRead;
      let start = 0;
      for (;;) {
        const nl = data.indexOf(NEWLINE, start);
        if (nl === -1) break;
        const bytes = data.subarray(start, nl);
        let item: TraceItem;
        const text = bytes.toString('utf8');
        if (text.includes('\uFFFD')) {
          // Only a replacement character needs the strict check (it may have been in the file).
          try {
            strictUtf8.decode(bytes);
            item = parser.parse(text);
          } catch {
            item = parser.reject('not valid UTF-8', text.slice(0, 512));
          }
        } else item = parser.parse(text);
        lines++;
        onItem(item, base + start);
        const lineStart = base + start;
        start = nl + 1;
        position = base + start;
        // Reading a session's range: its last line is read, or the reader has what it wanted.
        if ((options.stopAfterOffset !== undefined && lineStart >= options.stopAfterOffset) || options.shouldStop?.()) {
          stopped = true;
          break;
        }
      }
      carry = start < data.length ? Buffer.from(data.subarray(start)) : undefined;
      carryAt = base + start;
    }
    return { position, lines, size, torn: !stopped && size > position };
  } finally {
    await file.close();
  }
}
