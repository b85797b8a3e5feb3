/**
 * A long trace line read for snippets without decoding or parsing its long texts: the line's
 * *skeleton* — the same JSON with each long string that the snippets only search (a text, a
 * terminal's output, a diff's new text, a tool's raw output) replaced by a marker `"\u0000<n>"` —
 * is what is decoded and parsed, and each marker stands for the string's raw bytes
 * (raw-json-text.ts), which the snippets search as bytes and decode only around a match.
 *
 * Exactly the same records, but for the markers:
 * - the line is valid UTF-8 (`isUtf8`, else it is read as before: the reader rejects it);
 * - a string is replaced only when its content is what JSON.parse accepts (RawJsonText.take), so the
 *   skeleton parses exactly when the line does, to the same values;
 * - the strings are found by a small JSON scanner that follows the line's structure; it gives up
 *   (the line is read as before) on anything it does not follow, and on keys with escapes (a key's
 *   name decides what is replaced);
 * - no string of the skeleton can pass for a marker: a line holding `\u0000` outside the strings
 *   taken out is read as before;
 * - only strings whose value reaches the snippets whole are replaced: under the keys `text`,
 *   `output` and `newText`, and the leaves of a `rawOutput` — never under `rawInput`, whose leaves
 *   are cut at 2,000 characters (search-text.ts). A streamed piece (a `text`) is decoded by the
 *   snippet collector before it is joined to the next one.
 * Markers are valid for the line just read; `resolve` answers for that line only.
 */
import { isUtf8 } from 'node:buffer';
import { RawJsonText } from './raw-json-text';

/** Strings shorter than this (in bytes) stay in the skeleton; shorter lines are read as before. */
export const SKELETON_MIN_STRING = 16 * 1024;
const MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MARKER_TEXT = '\\u0000';

// What the scanner knows of a value's place.
const IN_RAW_INPUT = 1;
const IN_RAW_OUTPUT = 2;
const TEXT_KEY = 4;
const KEYS: Array<[Buffer, number]> = [
  [Buffer.from('text'), TEXT_KEY],
  [Buffer.from('output'), TEXT_KEY],
  [Buffer.from('newText'), TEXT_KEY],
  [Buffer.from('rawInput'), IN_RAW_INPUT],
  [Buffer.from('rawOutput'), IN_RAW_OUTPUT],
];

const EMPTY = Buffer.alloc(0);

/** Thrown inside the scanner when it does not follow the line. */
const GIVE_UP = new Error('line-skeleton: read the line whole');

/**
 * The scanner and the skeleton, whatever stands for a string taken out (`T`, made by `take`): the
 * snippets' raw texts (LineSkeleton), the fold's spans (fold-skeleton.ts).
 */
export abstract class JsonSkeleton<T> {
  protected texts: T[] = [];
  protected buf: Buffer = EMPTY;
  private pieces: string[] = [];
  private copied = 0;

  /** The skeleton of `line` (without its newline) to parse instead of it, or undefined: parse the line as usual. */
  read(line: Buffer): string | undefined {
    this.clear();
    if (line.length < SKELETON_MIN_STRING || !isUtf8(line)) return undefined;
    this.pieces = [];
    this.copied = 0;
    if (!this.scan(line)) this.texts = [];
    if (this.texts.length === 0) return undefined;
    this.pieces.push(line.toString('utf8', this.copied));
    // What is left of the line must not hold `\u0000` (a string there could pass for a marker);
    // the long strings taken out may (they are never parsed). Every other piece is the line's text.
    for (let k = 0; k < this.pieces.length; k += 2) {
      if (this.pieces[k]!.includes(MARKER_TEXT)) {
        this.texts = [];
        return undefined;
      }
    }
    return this.pieces.join('');
  }

  /** The long string a marker of the line last read stands for; undefined for any other string. */
  resolve(text: string): T | undefined {
    if (this.texts.length === 0 || text.length < 2 || text.charCodeAt(0) !== 0) return undefined;
    const n = Number(text.slice(1));
    return Number.isInteger(n) && `\u0000${n}` === text ? this.texts[n] : undefined;
  }

  /**
   * The raw texts of a line read through its hint (hinted-line.ts), whose skeleton was made without
   * `read`: marker n stands for texts[n] until the next clear.
   */
  useTexts(texts: T[]): void {
    this.texts = texts;
  }

  /** Forgets the markers (the next line has none until read). */
  clear(): void {
    if (this.texts.length > 0) this.texts = [];
  }

  /**
   * Follows the structure of `line` (valid UTF-8), calling longString for each long string in a
   * place the snippets only search; false when the scanner does not follow the line.
   */
  protected scan(line: Buffer): boolean {
    this.buf = line;
    try {
      this.value(this.blank(0), 0, 0);
      return true;
    } catch (err) {
      if (err !== GIVE_UP) throw err;
      return false;
    } finally {
      this.buf = EMPTY;
    }
  }

  /** Scans the value at `i`; returns where it ends. */
  protected value(i: number, place: number, depth: number): number {
    const buf = this.buf;
    const b = buf[i];
    if (b === QUOTE) return this.string(i, place);
    const inherited = place & (IN_RAW_INPUT | IN_RAW_OUTPUT);
    if (b === 0x7b || b === 0x5b) {
      if (depth > MAX_DEPTH) throw GIVE_UP;
      const object = b === 0x7b;
      const close = object ? 0x7d : 0x5d;
      i = this.blank(i + 1);
      if (buf[i] === close) return i + 1;
      for (;;) {
        let inner = inherited;
        if (object) {
          if (buf[i] !== QUOTE) throw GIVE_UP;
          const keyEnd = this.stringEnd(i + 1);
          inner |= this.keyPlace(i + 1, keyEnd);
          i = this.blank(keyEnd + 1);
          if (buf[i] !== 0x3a) throw GIVE_UP;
          i = this.blank(i + 1);
        }
        i = this.blank(this.value(i, inner, depth + 1));
        if (buf[i] === close) return i + 1;
        if (buf[i] !== 0x2c) throw GIVE_UP;
        i = this.blank(i + 1);
      }
    }
    // A number, true, false or null (JSON.parse of the skeleton checks which).
    const start = i;
    while (i < buf.length && isLiteralByte(buf[i]!)) i++;
    if (i === start) throw GIVE_UP;
    return i;
  }

  private keyPlace(start: number, end: number): number {
    const buf = this.buf;
    // An escaped key may decode to a name below: the scanner does not decode keys.
    for (let i = start; i < end; i++) if (buf[i] === BACKSLASH) throw GIVE_UP;
    const length = end - start;
    for (const [name, place] of KEYS) {
      if (name.length === length && buf.compare(name, 0, length, start, end) === 0) return place;
    }
    return 0;
  }

  /** The string at the quote at `i`, replaced when its place and content allow; returns where it ends. */
  private string(i: number, place: number): number {
    const start = i + 1;
    const end = this.stringEnd(start);
    if (end - start >= SKELETON_MIN_STRING && (place & IN_RAW_INPUT) === 0 && (place & (TEXT_KEY | IN_RAW_OUTPUT)) !== 0) this.longString(start, end);
    return end + 1;
  }

  /** What stands for the string whose content is `buf[start, end)` once taken out; undefined: it stays. */
  protected abstract take(buf: Buffer, start: number, end: number): T | undefined;

  /** A long string the snippets only search, content `buf[start, end)`: taken out when `take` takes it. */
  protected longString(start: number, end: number): void {
    const text = this.take(this.buf, start, end);
    if (text !== undefined) {
      this.pieces.push(this.buf.toString('utf8', this.copied, start), `\\u0000${this.texts.length}`);
      this.texts.push(text);
      this.copied = end;
    }
  }

  /** Where the string whose content starts at `start` ends (its closing quote). */
  private stringEnd(start: number): number {
    const buf = this.buf;
    let end = buf.indexOf(QUOTE, start);
    for (;;) {
      if (end === -1) throw GIVE_UP;
      let slashes = 0;
      while (end - 1 - slashes >= start && buf[end - 1 - slashes] === BACKSLASH) slashes++;
      if ((slashes & 1) === 0) return end;
      end = buf.indexOf(QUOTE, end + 1);
    }
  }

  protected blank(i: number): number {
    const buf = this.buf;
    for (;;) {
      const c = buf[i];
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
      i++;
    }
  }
}

/** The snippets' skeleton: a string taken out is its raw bytes, when RawJsonText takes it. */
export class LineSkeleton extends JsonSkeleton<RawJsonText> {
  protected take(buf: Buffer, start: number, end: number): RawJsonText | undefined {
    return RawJsonText.take(buf, start, end);
  }
}

/** Bytes of a JSON number or literal (letters of true/false/null, digits, sign, point, exponent). */
function isLiteralByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45;
}
