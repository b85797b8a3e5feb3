/**
 * Line tap: our own splitter on an agent's stdout, in front of the ACP SDK.
 *
 * Why it exists: the SDK's `ndJsonStream` answers every non-JSON line with a `-32700` error written
 * back into the agent, and tears the connection down on a line over its limit; it also gives us no
 * view of the raw bytes. Agents do print banners and logs to stdout, and the inspector, the trace
 * and the conformance report need to see every line. So we split lines ourselves, parse each line
 * exactly once, and hand the SDK only what it can digest (see `message-stream.ts`).
 *
 * Guarantees:
 * - Linear time under any chunking: a line's pieces are copied into one buffer of the tap's, which
 *   doubles when it must (so each byte is copied less than twice on average, never a buffer
 *   concatenated per chunk); a line inside one chunk is not copied at all.
 * - No allocation per line: the buffer that assembles lines spanning reads is reused for the next
 *   such line (kept while it is at most CARRY_KEEP_BYTES; a longer line's is dropped after it), as
 *   stdout is read into one reused buffer — the ≈ 12,000 lines per 4 × 100k flood that span two
 *   reads (nearly all 16 KiB diffs) no longer leave two or three array buffers each for the
 *   collector (docs/performance.md § 1, fifteenth pass).
 * - Chunks may be reused: nothing is kept of a chunk past `push` but copies.
 * - Bounded memory: a line longer than `maxLineBytes` is not buffered whole; it is hashed
 *   incrementally (sha256), its first 1 KiB kept, and the rest skipped up to the next newline.
 * - Lines end at `\n`; a `\r` right before it (or at EOF) is not part of the line. A final line
 *   without a newline is delivered at `end()`.
 *
 * What each line becomes:
 * - a JSON object → `message(obj, rawLength, info)`. Every object is reported (the trace and the
 *   conformance checks see invalid ones too); `info.forward` says whether the SDK may receive it.
 *   An object is NOT forwarded when the SDK would misbehave on it: requests/notifications without
 *   `jsonrpc: "2.0"` or with a non-string `method` (the SDK would write a `-32600` with `id: null`
 *   into the agent, which helps nobody), objects that are neither call nor response, and responses
 *   with `id: null` (they match no request of ours; the SDK would only log). Response-shaped objects
 *   with a real id ARE forwarded even when malformed: the SDK then rejects the matching pending
 *   request instead of leaving it waiting forever, and writes nothing back.
 * - anything else (banners, logs, JSON that is not an object, blank lines) → `noise(text)`, or
 *   `noise({ base64 })` when the line is not valid UTF-8, so the exact bytes survive.
 * - a line over the limit → `oversize({ length, sha256, head })`.
 */
import { createHash, type Hash } from 'node:crypto';

/** The SDK's own default limit (`DEFAULT_MAX_MESSAGE_BYTES`), so we never accept less than it would. */
export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
const OVERSIZE_HEAD_BYTES = 1024;
/** The buffer assembling lines that span reads starts at one read's size (stdout-reader.ts)... */
const CARRY_FIRST_BYTES = 64 * 1024;
/** ...and is kept for the next line while it is at most this big. */
export const CARRY_KEEP_BYTES = 256 * 1024;
const EMPTY = Buffer.alloc(0);
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export type JsonObject = Record<string, unknown>;

export type JsonRpcShape = 'request' | 'notification' | 'response' | 'invalid';

export interface MessageInfo {
  shape: JsonRpcShape;
  /** Whether the message may be given to the SDK (see the module comment). */
  forward: boolean;
  /** What is wrong with the message as JSON-RPC, for conformance; absent when nothing is. */
  problem?: string;
  /** The line was not valid UTF-8; it was decoded with replacement characters. */
  invalidUtf8?: boolean;
}

/** A line that is not a JSON object: its text, or its bytes when it is not valid UTF-8. */
export type NoiseLine = string | { base64: string };

export interface OversizeLine {
  /** Bytes of the line, without its terminator. */
  length: number;
  sha256: string;
  /** The first 1 KiB, decoded leniently, for display. */
  head: string;
}

export interface LineTapOutput {
  /**
   * `rawLength` is the line's length in bytes, without its terminator. `line` is those bytes, valid
   * UTF-8 unless `info.invalidUtf8` (e.g. to record the message without serializing it again); it
   * may be a view of the chunk it came in, which is reused for the next read, or of the tap's own
   * buffer for lines that span reads, reused for the next such line: valid only during the call —
   * copy it to keep it.
   */
  message(message: JsonObject, rawLength: number, info: MessageInfo, line: Buffer): void;
  noise(line: NoiseLine, rawLength: number): void;
  oversize(line: OversizeLine): void;
}

export interface LineTapOptions {
  maxLineBytes?: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

export class LineTap {
  private readonly maxLineBytes: number;
  /** The unfinished line's bytes so far: `carry[0, pieceBytes)`. */
  private carry: Buffer = EMPTY;
  private pieceBytes = 0;
  /** Set while skipping a line over the limit. */
  private skipped: { hash: Hash; length: number; head: Buffer[]; headBytes: number; heldCr: boolean } | undefined;
  private ended = false;

  constructor(
    private readonly output: LineTapOutput,
    options: LineTapOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Bytes of the current, unfinished line held in memory (at most `maxLineBytes + 1` + 1 KiB). */
  get bufferedBytes(): number {
    return this.pieceBytes + (this.skipped?.headBytes ?? 0);
  }

  /**
   * Splits a chunk into lines. The chunk may be overwritten as soon as this returns (stdout is read
   * into one reused buffer): whole lines reach the output as views of it, valid only during the
   * output's call, and the piece of a line still unfinished is copied.
   */
  push(chunk: Uint8Array): void {
    if (this.ended) return;
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      // A whole line inside this chunk, nothing pending: delivered as a view of the chunk, no copy
      // (the copy in `append` is for pieces that wait for the rest of their line).
      if (newline !== -1 && this.pieceBytes === 0 && !this.skipped && newline - start <= this.maxLineBytes + 1) {
        this.finishBytes(bytes.subarray(start, newline));
        start = newline + 1;
        continue;
      }
      const stop = newline === -1 ? bytes.length : newline;
      if (stop > start) this.append(bytes.subarray(start, stop));
      if (newline === -1) break;
      this.finishLine();
      start = newline + 1;
    }
  }

  /** End of stream: delivers a final line that had no newline. Later pushes are ignored. */
  end(): void {
    if (this.ended) return;
    if (this.skipped || this.pieceBytes > 0) this.finishLine();
    this.ended = true;
  }

  private append(piece: Buffer): void {
    if (this.skipped) {
      this.skip(piece);
      return;
    }
    // +1: the byte past the limit may be the `\r` of a `\r\n`, which is not part of the line.
    if (this.pieceBytes + piece.length > this.maxLineBytes + 1) {
      this.skipped = { hash: createHash('sha256'), length: 0, head: [], headBytes: 0, heldCr: false };
      const buffered = this.carry.subarray(0, this.pieceBytes);
      this.pieceBytes = 0;
      this.skip(buffered); // hashed, and its head copied, now
      this.releaseCarry();
      this.skip(piece);
      return;
    }
    // Copied: the chunk is valid only during `push` (stdout is read into one reused buffer), and a
    // view would pin its whole chunk anyway.
    const need = this.pieceBytes + piece.length;
    if (need > this.carry.length) this.growCarry(need);
    piece.copy(this.carry, this.pieceBytes);
    this.pieceBytes = need;
  }

  /** Room for `need` bytes, the bytes so far kept: doubling, so that the copies stay linear. */
  private growCarry(need: number): void {
    let capacity = Math.max(CARRY_FIRST_BYTES, this.carry.length * 2);
    while (capacity < need) capacity *= 2;
    const bigger = Buffer.allocUnsafeSlow(capacity);
    this.carry.copy(bigger, 0, 0, this.pieceBytes);
    this.carry = bigger;
  }

  /** A buffer grown past CARRY_KEEP_BYTES for one long line is not kept for the next. */
  private releaseCarry(): void {
    if (this.carry.length > CARRY_KEEP_BYTES) this.carry = EMPTY;
  }

  /** Hashes a piece of an oversize line, holding back a trailing `\r` until we know a `\n` follows. */
  private skip(piece: Buffer): void {
    const skipped = this.skipped!;
    if (piece.length === 0) return;
    if (skipped.heldCr) {
      skipped.heldCr = false;
      this.consumeSkipped(Buffer.of(CARRIAGE_RETURN));
    }
    if (piece[piece.length - 1] === CARRIAGE_RETURN) {
      skipped.heldCr = true;
      piece = piece.subarray(0, piece.length - 1);
    }
    this.consumeSkipped(piece);
  }

  private consumeSkipped(piece: Buffer): void {
    const skipped = this.skipped!;
    skipped.hash.update(piece);
    skipped.length += piece.length;
    if (skipped.headBytes < OVERSIZE_HEAD_BYTES) {
      // Copy: a view would pin the whole chunk it came from.
      const take = Buffer.from(piece.subarray(0, OVERSIZE_HEAD_BYTES - skipped.headBytes));
      skipped.head.push(take);
      skipped.headBytes += take.length;
    }
  }

  private finishLine(): void {
    if (this.skipped) {
      const { hash, length, head } = this.skipped;
      this.skipped = undefined;
      this.output.oversize({ length, sha256: hash.digest('hex'), head: lenientUtf8.decode(Buffer.concat(head)) });
      return;
    }
    const line = this.carry.subarray(0, this.pieceBytes);
    this.pieceBytes = 0;
    this.finishBytes(line);
    this.releaseCarry();
  }

  /** A complete line (its terminator excluded; a trailing `\r` is dropped here). */
  private finishBytes(line: Buffer): void {
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > this.maxLineBytes) {
      this.output.oversize({
        length: line.length,
        sha256: createHash('sha256').update(line).digest('hex'),
        head: lenientUtf8.decode(line.subarray(0, OVERSIZE_HEAD_BYTES)),
      });
      return;
    }
    this.deliver(line);
  }

  private deliver(line: Buffer): void {
    let text: string;
    let invalidUtf8 = false;
    try {
      text = strictUtf8.decode(line);
    } catch {
      invalidUtf8 = true;
      text = lenientUtf8.decode(line);
    }
    const parsed = startsLikeObject(text) ? tryParse(text) : undefined;
    if (parsed === undefined) {
      this.output.noise(invalidUtf8 ? { base64: line.toString('base64') } : text, line.length);
      return;
    }
    const info = classifyJsonRpc(parsed);
    if (invalidUtf8) {
      info.invalidUtf8 = true;
      info.problem = info.problem ? `${info.problem}; not valid UTF-8` : 'not valid UTF-8';
    }
    this.output.message(parsed, line.length, info, line);
  }
}

/** Looks at the first non-blank character only, so banners and logs are never fed to JSON.parse. */
function startsLikeObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xfeff) continue;
    return c === 0x7b; // '{'
  }
  return false;
}

function tryParse(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

function isJsonRpcId(value: unknown): value is string | number | null {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** How a parsed object stands as JSON-RPC 2.0, and whether the SDK may see it (module comment). */
export function classifyJsonRpc(message: JsonObject): MessageInfo {
  const hasVersion = message.jsonrpc === '2.0';
  if ('method' in message) {
    if (typeof message.method !== 'string') return invalid('"method" is not a string');
    if (!hasVersion) return invalid('missing "jsonrpc": "2.0"');
    if (!('id' in message)) return { shape: 'notification', forward: true };
    if (!isJsonRpcId(message.id)) return invalid('request "id" is not a string, number or null');
    return { shape: 'request', forward: true };
  }
  if (!('id' in message)) return invalid('neither a request, a notification nor a response');
  if (!isJsonRpcId(message.id)) return invalid('response "id" is not a string, number or null');
  const problem = responseProblem(message, hasVersion);
  if (message.id === null) {
    return { shape: 'response', forward: false, problem: problem ? `${problem}; "id" is null` : '"id" is null' };
  }
  return problem ? { shape: 'response', forward: true, problem } : { shape: 'response', forward: true };
}

function responseProblem(message: JsonObject, hasVersion: boolean): string | undefined {
  if (!hasVersion) return 'missing "jsonrpc": "2.0"';
  const hasResult = Object.hasOwn(message, 'result');
  const hasError = Object.hasOwn(message, 'error');
  if (hasResult === hasError) return 'a response needs exactly one of "result" and "error"';
  if (hasError) {
    const error = message.error as { code?: unknown; message?: unknown } | null;
    if (typeof error !== 'object' || error === null || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return '"error" needs an integer "code" and a string "message"';
    }
  }
  return undefined;
}

function invalid(problem: string): MessageInfo {
  return { shape: 'invalid', forward: false, problem };
}
