/**
 * A long trace line read through its hint (line-hints.ts): only the bytes around its long strings
 * are read — the line's *gaps* — and made into the skeleton line-skeleton.ts would make of the whole
 * line; each long string becomes a raw text left in the file (RawJsonText.fromFile), read only as
 * far as a snippet needs it. Neither isUtf8 over the megabytes, nor the check of each string's
 * bytes, nor reading them: the hint, written by the fold for this version of the file, says what
 * those would find.
 *
 * What is read is checked against the hint, and the line is read as before (undefined) when it
 * does not match: the hint out of the line or past the end of what is read, a string not between
 * quotes, a newline inside the line or none at its end, a gap that is not valid UTF-8 or that holds
 * `\u0000` (a string of the skeleton could pass for a marker — line-skeleton.ts makes the same
 * check). The bytes of the strings themselves are trusted to be what the fold saw while the file's
 * inode and modification time are those the index recorded (TraceHints.fits, checked by the caller).
 */
import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';
import type { LineHint } from './line-hints';
import { RawJsonText, type ReadBytes } from './raw-json-text';

const QUOTE = 0x22;
const NEWLINE = 0x0a;
const MARKER_TEXT = '\\u0000';

export interface HintedLine {
  /** The line's skeleton: its text with marker n (`"\u0000n"`) in place of long string n. */
  skeleton: string;
  texts: RawJsonText[];
}

/** Bytes `[position, position + length)` of the open file, read synchronously (undefined: the file ends before). */
export function readBytesAt(fd: number, position: number, length: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) return undefined;
    done += n;
  }
  return buf;
}

/** The hint is made of integers in order: a line, then strings inside it, each after the one before. */
function wellFormed(hint: LineHint): boolean {
  if (hint.length < 5 || (hint.length - 2) % 3 !== 0 || !hint.every(Number.isSafeInteger)) return false;
  const length = hint[1]!;
  let from = 0;
  for (let k = 2; k < hint.length; k += 3) {
    const start = hint[k]!, end = hint[k + 1]!;
    // Each string is preceded by at least its opening quote and followed by its closing quote.
    if (start < from + 1 || end < start || end >= length) return false;
    from = end;
  }
  return true;
}

/**
 * The line at byte `lineStart` of the open file `fd`, described by `hint`, read through it; the
 * line and its newline must end by byte `end`. Undefined: the bytes are not what the hint says.
 */
export function readHintedLine(fd: number, hint: LineHint, lineStart: number, end: number): HintedLine | undefined {
  if (hint[0] !== lineStart || !wellFormed(hint)) return undefined;
  const length = hint[1]!;
  if (lineStart + length + 1 > end) return undefined;
  const read: ReadBytes = (into, offset, n, position) => readSync(fd, into, offset, n, position);
  const pieces: string[] = [];
  const texts: RawJsonText[] = [];
  // Gap k runs from the closing quote of string k - 1 (the line's start for k = 0) to the opening
  // quote of string k, both included; the last one from the last closing quote through the newline.
  let from = 0;
  for (let k = 2; k <= hint.length; k += 3) {
    const last = k === hint.length;
    const to = last ? length + 1 : hint[k]!;
    const gap = readBytesAt(fd, lineStart + from, to - from);
    if (gap === undefined) return undefined;
    const n = gap.length;
    if (from > 0 && gap[0] !== QUOTE) return undefined;
    if (last ? gap[n - 1] !== NEWLINE || gap.indexOf(NEWLINE) !== n - 1 : gap[n - 1] !== QUOTE || gap.indexOf(NEWLINE) !== -1) return undefined;
    const bytes = last ? gap.subarray(0, n - 1) : gap;
    if (!isUtf8(bytes)) return undefined;
    const text = bytes.toString('utf8');
    if (text.includes(MARKER_TEXT)) return undefined;
    pieces.push(text);
    if (last) break;
    pieces.push(`${MARKER_TEXT}${texts.length}`);
    texts.push(RawJsonText.fromFile(read, lineStart + hint[k]!, hint[k + 1]! - hint[k]!, hint[k + 2] === 1));
    from = hint[k + 1]!;
  }
  return { skeleton: pieces.join(''), texts };
}
