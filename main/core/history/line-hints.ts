/**
 * Hints of a trace's long lines, written by the index's fold and read by the snippets: per line of
 * at least SKELETON_MIN_STRING bytes that the fold parsed as a record, where the line is and which
 * of its long strings a snippet search takes out as raw texts (line-skeleton.ts) — the strings'
 * byte ranges and whether each is ASCII. A first search then reads only the bytes of the line
 * around those strings and, of a string, only as far as its first match and window
 * (hinted-line.ts), instead of reading every byte and checking it as JSON.parse would.
 *
 * The fold proves what the snippet path checks: the line is valid UTF-8 and JSON.parse took it (so
 * no string holds a raw control character or a bad escape), the same scanner finds the same long
 * strings in the same places, and of their escapes only `\u` ones remain to check (a raw text takes
 * `\u` of a control character or DEL only; `uEscapesTaken`), and no `\u0000` is left in the line
 * outside them (the reader checks that again: it reads those bytes anyway).
 *
 * A hint is `[lineOffset, lineLength, start, end, ascii, start, end, ascii, …]`: the line's byte
 * offset in the file and length (without its newline), then per string taken its content's range in
 * the line (between its quotes) and 1 when it is ASCII. A file's hints are in line order, in its
 * detail (cards.ts `FileDetail.hints`), and describe the file as the index last read it: they hold
 * while its inode and modification time are the index's (`TraceHints.fits`), as the snippet cache's
 * key does. Appended lines leave the hinted ones where they were; a file read again from the start
 * starts with no hints.
 */
import { isAscii } from 'node:buffer';
import { LineSkeleton } from './line-skeleton';

export type LineHint = number[];

const BACKSLASH = 0x5c;
const U_ESCAPE = Buffer.from('\\u');
const MARKER = Buffer.from('\\u0000');

/**
 * The content `buf[start, end)` of a string JSON.parse accepted: its `\u` escapes are all ones a
 * raw text takes (raw-json-text.ts `takeable`: a control character or DEL). Its other escapes are
 * valid (JSON.parse took them) and all taken; it holds no raw control character.
 */
export function uEscapesTaken(buf: Buffer, start: number, end: number): boolean {
  const content = buf.subarray(start, end);
  for (let i = content.indexOf(U_ESCAPE); i !== -1; i = content.indexOf(U_ESCAPE, i + 1)) {
    // A backslash escaped by the one before it (an even run) is a character, and its `u` a letter.
    let run = 1;
    while (i - run >= 0 && content[i - run] === BACKSLASH) run++;
    if ((run & 1) === 0) continue;
    const a = content[i + 2], b = content[i + 3], c = content[i + 4], d = content[i + 5]!;
    const control = a === 0x30 && b === 0x30 && (c === 0x30 || c === 0x31);
    const del = a === 0x30 && b === 0x30 && c === 0x37 && (d | 0x20) === 0x66;
    if (!control && !del) return false;
  }
  return true;
}

/**
 * The line holds `\u0000` outside the strings its hint takes out: a string of its skeleton could
 * pass for a marker, so the snippets read it whole (line-skeleton.ts) and it gets no hint.
 */
function markerOutside(line: Buffer, hint: LineHint): boolean {
  let from = 0;
  for (let k = 2; k <= hint.length; k += 3) {
    const to = k === hint.length ? line.length : hint[k]!;
    const at = line.indexOf(MARKER, from);
    if (at === -1) return false;
    if (at + MARKER.length <= to) return true;
    if (k < hint.length) from = hint[k + 1]!;
  }
  return false;
}

/** The fold's side: the hints of the lines it parsed, appended to those of the file so far. */
export class LineHintWriter extends LineSkeleton {
  private hint: LineHint = [];
  private lineAscii = false;

  constructor(
    /** The file's hints so far (appended to). */
    readonly hints: LineHint[] = [],
  ) {
    super();
  }

  /**
   * A line (without its newline) at byte `offset` that the trace parser took as a record (so: valid
   * UTF-8, and JSON), `ascii` when it has no byte ≥ 0x80: its hint is kept when it has a string
   * a snippet search takes out.
   */
  note(line: Buffer, offset: number, ascii: boolean): void {
    this.hint = [offset, line.length];
    this.lineAscii = ascii;
    if (this.scan(line) && this.hint.length > 2 && !markerOutside(line, this.hint)) this.hints.push(this.hint);
    this.hint = [];
  }

  protected override longString(start: number, end: number): void {
    if (!uEscapesTaken(this.buf, start, end)) return;
    this.hint.push(start, end, this.lineAscii || isAscii(this.buf.subarray(start, end)) ? 1 : 0);
  }
}

/** The snippets' side: a file's hints, and the version of the file they describe. */
export class TraceHints {
  constructor(
    private readonly stamp: { ino: number; mtimeMs: number },
    private readonly lines: readonly LineHint[],
  ) {}

  /** The file open now (its fstat) is the one the hints were written for. */
  fits(stat: { ino: number; mtimeMs: number }): boolean {
    return stat.ino === this.stamp.ino && stat.mtimeMs === this.stamp.mtimeMs;
  }

  /** The index of the first hint of a line starting at or after `offset`. */
  private firstFrom(offset: number): number {
    let lo = 0;
    let hi = this.lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.lines[mid]![0]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The hint of the line starting at byte `offset`, if there is one. */
  at(offset: number): LineHint | undefined {
    const h = this.lines[this.firstFrom(offset)];
    return h !== undefined && h[0] === offset ? h : undefined;
  }

  /** Where the first hinted line after byte `offset` starts (Infinity: none). */
  after(offset: number): number {
    const h = this.lines[this.firstFrom(offset + 1)];
    return h === undefined ? Number.POSITIVE_INFINITY : h[0]!;
  }
}
