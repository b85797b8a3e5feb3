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

import { utf8Decoder as decoder, utf8Encoder as encoder, withRoom } from './typed-arrays';

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
    this.bytes = withRoom(this.bytes, this.used + key.length * 3, this.used);
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
    this.at = withRoom(this.at, n + 1);
    this.length = withRoom(this.length, n + 1);
    return n;
  }
}
