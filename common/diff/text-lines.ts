/**
 * The lines of a text as `splitLines` (line-diff.ts) makes them — split at `\n`, no extra empty line
 * for a final newline, one trailing `\r` taken off each line — kept as their bounds in the text
 * instead of as substrings (issue #11): a large diff's preview (large-diff-preview.ts) compares a
 * few lines at each end and fingerprints the rest, and needs the text of no more than the rows it
 * shows. Splitting a 16 KiB diff's two sides into ≈ 220 strings (and a second array for the `\r`)
 * was most of what a preview cost.
 * Pure: no DOM, no Node.
 */
export class TextLines {
  /** Line `i` is `text.slice(starts[i], ends[i])`. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(readonly text: string) {
    const length = text.length;
    let at = 0;
    while (at < length) {
      const newline = text.indexOf('\n', at);
      const next = newline === -1 ? length : newline;
      this.starts.push(at);
      this.ends.push(next > at && text.charCodeAt(next - 1) === 13 ? next - 1 : next);
      at = next + 1;
    }
  }

  /** The lines of `text`, none for `null`, `undefined` or `''` (as `splitLines`). */
  static of(text: string | null | undefined): TextLines {
    return text ? new TextLines(text) : EMPTY;
  }

  get count(): number {
    return this.starts.length;
  }

  /** Line `i`'s text (`splitLines(text)[i]`). */
  line(i: number): string {
    return this.text.slice(this.starts[i], this.ends[i]);
  }

  /** Whether line `i` of these lines and line `j` of `other` are the same text. */
  same(i: number, other: TextLines, j: number): boolean {
    const start = this.starts[i]!;
    const length = this.ends[i]! - start;
    const otherStart = other.starts[j]!;
    if (other.ends[j]! - otherStart !== length) return false;
    if (length === 0) return true;
    // Cheap first: most lines of equal length differ in their first character or their last.
    if (this.text.charCodeAt(start) !== other.text.charCodeAt(otherStart) || this.text.charCodeAt(start + length - 1) !== other.text.charCodeAt(otherStart + length - 1)) return false;
    return this.line(i) === other.line(j);
  }

  /** Line `i`'s length and its first and last four characters, folded into a small integer. */
  fingerprint(i: number): number {
    const text = this.text;
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    const n = end - start;
    let h = n;
    const head = start + (n < 8 ? n : 4);
    for (let k = start; k < head; k++) h = (Math.imul(h, 31) + text.charCodeAt(k)) | 0;
    for (let k = n < 8 ? end : end - 4; k < end; k++) h = (Math.imul(h, 31) + text.charCodeAt(k)) | 0;
    return h & 0x3fffffff;
  }
}

const EMPTY = new TextLines('');
