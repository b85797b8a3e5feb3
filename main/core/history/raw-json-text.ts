/**
 * A long JSON string of a trace line kept as its raw bytes (its content between the quotes, checked
 * to be what JSON.parse accepts), for snippets: the query words are found in the bytes and only the
 * window of text around a match is decoded. What would be the decoded string is `text()`, decoded
 * on demand (the snippets do so when the exact answer needs the whole text: accents to fold).
 *
 * Only strings whose escapes all decode to ASCII characters that are not letters or digits are
 * taken (`\" \\ \/ \b \f \n \r \t` and `\u` of a control character): then a query word (ASCII
 * letters and digits) is in the decoded text exactly where its letters are in the bytes, unescaped,
 * and what is next to it — an escape, a UTF-8 sequence, an ASCII character — tells whether it is a
 * whole word as the snippet's regular expression sees it (snippets.ts `wordRegex`: a letter, digit
 * or any character from U+00AA on joins words; U+0080–U+00A9, encoded C2 80–C2 A9, do not).
 */
import { isAscii } from 'node:buffer';

/** A query word: search.ts QueryTerm restated, since the trace reader imports this module and search.ts imports the index, which imports the reader. */
interface Word {
  term: string;
  prefix: boolean;
}

const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const U = 0x75;
/** After a backslash: the escapes taken besides `\u` (all decode to ASCII non-letters). */
const SIMPLE_ESCAPE = new Uint8Array(128);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;
const HEX_DIGIT = /^[0-9a-fA-F]$/;

/**
 * The content is searched through Latin-1 views of this many bytes at a time (plus a little
 * overlap), never one view of the whole: a string of a megabyte is a large object to allocate,
 * copy and collect, while views this size are cheap young objects (measured on the corpus's long
 * lines: ≈ 0.24 against ≈ 1.2 ms per MB for the views alone).
 */
const VIEW_BYTES = 64 * 1024;
/**
 * The word search's first view is this big, and each next one twice the one before up to
 * VIEW_BYTES: a word near where the search starts is found after reading and viewing a few KiB of
 * a text left in its file (RawJsonText.fromFile) instead of 64 KiB.
 */
export const FIRST_VIEW_BYTES = 4 * 1024;

/** The control characters as one-character strings, but for the newline, which no line holds (lines are cut at it). */
const CONTROLS: string[] = [];
for (let c = 0; c < 0x20; c++) if (c !== NEWLINE) CONTROLS.push(String.fromCharCode(c));

/**
 * The content is one this module takes: no raw control character (JSON.parse rejects those), and
 * every escape, read one after the other from the first backslash (so `\\n` is a backslash and an
 * n), one taken here (escapes are ASCII). Both are looked for in Latin-1 views of the bytes: one
 * String#indexOf per control character (a native `memchr` over a view that stays in the cache:
 * ≈ 0.4 against ≈ 0.6 ms per MB for one Buffer#indexOf per control byte over the whole string),
 * and backslashes found with String#indexOf, faster than a regular expression finds the escapes to
 * refuse (≈ 0.3–0.5 against ≈ 0.9 ms per MB). Each view reaches 5 bytes past its part, so an escape
 * that starts in the part is whole in it; the next part starts at the next backslash not yet read.
 */
function takeable(bytes: Buffer): boolean {
  const n = bytes.length;
  for (let from = 0; from < n; ) {
    const partEnd = Math.min(n, from + VIEW_BYTES);
    const view = bytes.toString('latin1', from, Math.min(n, partEnd + 5));
    for (const c of CONTROLS) if (view.indexOf(c) !== -1) return false;
    let i = view.indexOf('\\');
    while (i !== -1 && from + i < partEnd) {
      const e = view.charCodeAt(i + 1);
      if (e === U) {
        const a = view.charCodeAt(i + 2), b = view.charCodeAt(i + 3), c = view.charCodeAt(i + 4);
        const control = a === 0x30 && b === 0x30 && (c === 0x30 || c === 0x31) && HEX_DIGIT.test(view.charAt(i + 5));
        const del = a === 0x30 && b === 0x30 && c === 0x37 && (view.charCodeAt(i + 5) | 0x20) === 0x66;
        if (!control && !del) return false;
        i = view.indexOf('\\', i + 6);
      } else {
        // NaN (a backslash at the end) is no escape either.
        if (!(e < 128 && SIMPLE_ESCAPE[e] === 1)) return false;
        i = view.indexOf('\\', i + 2);
      }
    }
    // No backslash left in the view: none before its end either.
    from = i === -1 ? from + view.length : from + i;
  }
  return true;
}

/** A query word's letters, any case, in the Latin-1 view of the bytes (not yet checked as a word). */
const letters = new Map<string, RegExp>();
function lettersOf(term: string): RegExp {
  let re = letters.get(term);
  if (re === undefined) {
    re = new RegExp(term, 'gi');
    letters.set(term, re);
  }
  return re;
}

const isAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** Raw bytes per decoded UTF-16 unit, at most (`\u001b` is 6 bytes for one unit). */
const MAX_BYTES_PER_UNIT = 6;

/**
 * Reads `length` bytes of the file at `position` into `into` at `offset`; returns how many were
 * read (0 at the end of the file). `fs.readSync` on an open file, bound to it.
 */
export type ReadBytes = (into: Buffer, offset: number, length: number, position: number) => number;

/** The first read of a string left in its file, in bytes (it doubles from there). */
const FIRST_LOAD = 16 * 1024;

export class RawJsonText {
  private decoded: string | undefined;
  /** The first `loaded` bytes of the content are in `bytes` (all of them unless the text is read from its file). */
  private loaded: number;

  private constructor(
    /** The string's content (between its quotes): a view of the line, which must not be overwritten; or what was read of it so far. */
    private bytes: Buffer,
    /** The content's length in bytes. */
    private readonly size: number,
    private asciiBytes: boolean | undefined,
    /** Where the rest of the content is read from (a string left in its file: fromFile). */
    private readonly source?: { read: ReadBytes; position: number },
  ) {
    this.loaded = source === undefined ? size : 0;
  }

  /** No byte ≥ 0x80: the decoded text is ASCII (escapes here decode to ASCII). */
  get ascii(): boolean {
    if (this.asciiBytes === undefined) {
      this.load(this.size);
      this.asciiBytes = isAscii(this.bytes.subarray(0, this.size));
    }
    return this.asciiBytes;
  }

  /**
   * The content `line[start, end)` of a JSON string as a RawJsonText, or undefined when it is not
   * one this module can take (`takeable`). The line must be valid UTF-8 and hold no newline (it is
   * one line of a trace: checked, or cut so, by the caller).
   */
  static take(line: Buffer, start: number, end: number): RawJsonText | undefined {
    const bytes = line.subarray(start, end);
    return takeable(bytes) ? new RawJsonText(bytes, bytes.length, undefined) : undefined;
  }

  /**
   * A string whose content is `length` bytes of a file at `position`, known — from the index's hint
   * of its line (line-hints.ts) — to be one `take` accepts, and ASCII or not: its bytes are read
   * only as far as a search or a window needs them. `read` must stay valid while the text is used.
   */
  static fromFile(read: ReadBytes, position: number, length: number, ascii: boolean): RawJsonText {
    return new RawJsonText(Buffer.alloc(0), length, ascii, { read, position });
  }

  /** Makes sure the content's first `n` bytes (at most all) are in memory, reading ahead (doubling) when it reads. */
  private load(n: number): void {
    const source = this.source;
    if (source === undefined || n <= this.loaded) return;
    const want = Math.min(this.size, Math.max(n, this.loaded * 2, FIRST_LOAD));
    if (this.bytes.length < want) {
      const bigger = Buffer.allocUnsafe(want);
      this.bytes.copy(bigger, 0, 0, this.loaded);
      this.bytes = bigger;
    }
    while (this.loaded < want) {
      const got = source.read(this.bytes, this.loaded, want - this.loaded, source.position + this.loaded);
      if (got === 0) throw new Error('raw-json-text: the file is shorter than its hint says');
      this.loaded += got;
    }
  }

  /** The decoded string, exactly as JSON.parse gives it. */
  text(): string {
    // ASCII bytes decode the same as Latin-1, which skips UTF-8 validation.
    if (this.decoded === undefined) {
      this.load(this.size);
      this.decoded = this.decode(0, this.size, this.ascii ? 'latin1' : 'utf8');
    }
    return this.decoded;
  }

  /**
   * Byte offset of the first place at or after byte `from` where `q` is a whole word (a word's start
   * for a prefix) as snippets.ts's `wordRegex` finds it in the decoded text; -1 when none. Offsets
   * keep the order of the decoded text's offsets.
   */
  find(q: Word, from = 0): number {
    const re = lettersOf(q.term);
    const n = this.size;
    const length = q.term.length;
    // Each view overlaps the next by the word's length less one: a match starting in a part is
    // whole in its view, and one starting after the part does not fit in it (found once, in order).
    for (let part = Math.max(0, from), size = FIRST_VIEW_BYTES; part < n; part += size, size = Math.min(2 * size, VIEW_BYTES)) {
      // The view, and the two bytes after it that isWord may look at.
      this.load(part + size + length + 1);
      const view = this.bytes.toString('latin1', part, Math.min(n, part + size + length - 1));
      re.lastIndex = 0;
      for (;;) {
        const m = re.exec(view);
        if (m === null) break;
        if (this.isWord(part + m.index, length, q.prefix)) return part + m.index;
        re.lastIndex = m.index + 1;
      }
    }
    return -1;
  }

  /**
   * The decoded text around byte `at` (a match of `find`), and where `at` is in it: at least `before`
   * UTF-16 units before it unless the window starts with the string, at least `after` units from it
   * on unless the window ends with the string.
   */
  window(at: number, before: number, after: number): { text: string; at: number } {
    const n = this.size;
    this.load(at + after * MAX_BYTES_PER_UNIT + 1);
    const a = at - before * MAX_BYTES_PER_UNIT <= 0 ? 0 : this.boundary(at - before * MAX_BYTES_PER_UNIT);
    const b = at + after * MAX_BYTES_PER_UNIT >= n ? n : this.boundary(at + after * MAX_BYTES_PER_UNIT);
    return { text: this.decode(a, b), at: this.decode(a, at).length };
  }

  private decode(a: number, b: number, encoding: 'latin1' | 'utf8' = 'utf8'): string {
    return JSON.parse(`"${this.bytes.toString(encoding, a, b)}"`) as string;
  }

  /** `x`, or the start of the character or escape `x` is inside of. */
  private boundary(x: number): number {
    const bytes = this.bytes;
    while (x > 0 && (bytes[x]! & 0xc0) === 0x80) x--;
    const e = this.escapeAround(x);
    return e === -1 ? x : e;
  }

  /** Where the escape that byte `x` is a later byte of starts, or -1 when `x` is in none. */
  private escapeAround(x: number): number {
    const bytes = this.bytes;
    for (let k = 1; k <= 5 && x - k >= 0; k++) {
      if (bytes[x - k] !== BACKSLASH) continue;
      // The nearest backslash before x: an escape starts there when it ends an odd run.
      let run = 1;
      while (x - k - run >= 0 && bytes[x - k - run] === BACKSLASH) run++;
      if ((run & 1) === 0) return -1;
      const length = bytes[x - k + 1] === U ? 6 : 2;
      return k < length ? x - k : -1;
    }
    return -1;
  }

  /** The letters at `p` (`length` of them, ASCII) are a whole word of the decoded text (a word start for a prefix). */
  private isWord(p: number, length: number, prefix: boolean): boolean {
    const bytes = this.bytes;
    // The letters themselves must be characters, not part of an escape (`\n` in `\nerror`).
    if (this.escapeAround(p) !== -1) return false;
    if (p > 0) {
      const b = bytes[p - 1]!;
      if (b >= 0x80) {
        // The last byte of a character: U+0080–U+00A9 (C2 80–C2 A9) separate words, all others join.
        if (!(b <= 0xa9 && p >= 2 && bytes[p - 2] === 0xc2)) return false;
      } else if (isAlnum(b) && this.escapeAround(p - 1) === -1) return false;
    }
    if (prefix) return true;
    const q = p + length;
    if (q >= this.size) return true;
    const c = bytes[q]!;
    // After ASCII letters: a letter or digit is one (escapes start with a backslash: they decode to
    // separators here), a UTF-8 sequence joins unless it is C2 80–C2 A9.
    if (c >= 0x80) return c === 0xc2 && bytes[q + 1]! <= 0xa9;
    return !isAlnum(c);
  }
}
