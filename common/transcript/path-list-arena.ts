/**
 * Lists of file paths kept outside the JS heap: each list's paths as UTF-8 bytes, separated by NUL,
 * in one growing byte array, and a list is a number. What the live transcript keeps of a cold tool
 * call that changed files (live-transcript.ts): under a long session, a string per tool call was
 * the largest part of what its heap grew by, and every byte of heap costs about two of memory at
 * the collector's peak (issue #11). A list equal to one of the last RECENT_LISTS added is not stored
 * again — a session edits the same files over and over.
 */

/** How many recently added lists are remembered for sharing. */
export const RECENT_LISTS = 64;

// Both hosts (Node, the browser) have these; common/ is compiled without either's types.
declare const TextEncoder: { new (): { encodeInto(text: string, into: Uint8Array): { read: number; written: number } } };
declare const TextDecoder: { new (): { decode(bytes: Uint8Array): string } };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class PathListArena {
  private bytes = new Uint8Array(4096);
  private used = 0;
  /** Where list n (from 1) starts and how many bytes it has; 0 is "no list". */
  private at = new Uint32Array(256);
  private length = new Uint32Array(256);
  private count = 0;
  private recent = new Map<string, number>();
  /** Lists with a path that holds a NUL itself (an agent's odd path), kept as they are. */
  private odd = new Map<number, readonly string[]>();

  /** Lists stored (shared ones once). */
  get lists(): number {
    return this.count;
  }

  /** Bytes the stored lists take. */
  get byteLength(): number {
    return this.used;
  }

  /** Stores `paths` (at least one) and returns its number, from 1. */
  add(paths: readonly string[]): number {
    if (paths.length === 0) throw new Error('PathListArena.add: an empty list has no number (0 is "none")');
    if (paths.some((p) => p.includes('\u0000'))) {
      const n = this.next();
      this.odd.set(n, [...paths]);
      return n;
    }
    const key = paths.join('\u0000');
    const known = this.recent.get(key);
    if (known !== undefined) return known;
    this.roomFor(key.length * 3);
    const { written } = encoder.encodeInto(key, this.bytes.subarray(this.used));
    const n = this.next();
    this.at[n] = this.used;
    this.length[n] = written;
    this.used += written;
    if (this.recent.size >= RECENT_LISTS) this.recent.clear();
    this.recent.set(key, n);
    return n;
  }

  /** The paths of list `n`, or an empty list for 0 or an unknown number. */
  get(n: number): string[] {
    if (!(n >= 1 && n <= this.count)) return [];
    const odd = this.odd.get(n);
    if (odd) return [...odd];
    const start = this.at[n]!;
    return decoder.decode(this.bytes.subarray(start, start + this.length[n]!)).split('\u0000');
  }

  private next(): number {
    const n = ++this.count;
    if (n >= this.at.length) this.growIndex();
    return n;
  }

  private roomFor(extra: number): void {
    if (this.used + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.used + extra) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.bytes.subarray(0, this.used));
    this.bytes = bigger;
  }

  private growIndex(): void {
    const at = new Uint32Array(this.at.length * 2);
    at.set(this.at);
    const length = new Uint32Array(this.length.length * 2);
    length.set(this.length);
    this.at = at;
    this.length = length;
  }
}
