/**
 * The words of one document with their weight and field mask — the hot path of indexing. Text is
 * cut into words by the rules of tokenize.ts (a test checks they agree), but an ASCII word is
 * hashed and looked up while it is scanned, straight from the text: only a word not seen before in
 * the document becomes a string of its own. (A Map keyed by `text.slice()` allocated and hashed a
 * new string for every occurrence; most occurrences are repeats.)
 *
 * Per entry everything but the term itself lives in typed arrays (hash, length, weight, mask), so
 * a lookup touches no JS object; the scan never reads past the end of the text (a read past the end
 * gives NaN, which V8's optimized loop pays for on every character).
 */
import { foldTerm, MAX_TERM, MIN_TERM } from './tokenize';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Per character code below 256: 0 separator, 1 ASCII word character (lower case or digit),
 * 2 upper-case ASCII letter, 3 a character from U+00AA on (Unicode rules; codes ≥ 256 too).
 */
const CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) CLASS[c] = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) ? 1 : c >= 65 && c <= 90 ? 2 : c >= 0xaa ? 3 : 0;

/** The hash the counter uses for a (lower-case, folded) term; segment builders reuse it. */
export function hashTerm(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

export class TermCounter {
  /** Entries so far (in first-seen order). */
  size = 0;
  private weightList: Int32Array = new Int32Array(64);
  private maskList: Int32Array = new Int32Array(64);
  /** hashTerm of each entry (so a segment builder need not hash the term again). */
  private hashList: Int32Array = new Int32Array(64);
  /**
   * Each entry's characters (lower case, folded) in one pool: compared without touching a string,
   * and what a segment builder reads (it is a PooledTerms: pooled-terms.ts). No entry becomes a
   * string unless asked for.
   */
  private pool: Uint16Array = new Uint16Array(1024);
  private poolUsed = 0;
  private startList: Int32Array = new Int32Array(64);
  /** Open addressing, two ints a slot: the hash, and the entry index + 1 (0 = empty) — one cache line per probe. */
  private slots: Int32Array = new Int32Array(512);
  /** The entries as strings, made when `terms` is first read (tests, small uses). */
  private termStrings: string[] = [];
  /** Words seen (all occurrences). */
  words = 0;

  /** The entries as strings, in first-seen order. */
  get terms(): readonly string[] {
    for (let i = this.termStrings.length; i < this.size; i++) this.termStrings.push(String.fromCharCode(...this.pool.subarray(this.startList[i]!, this.startList[i + 1]!)));
    return this.termStrings;
  }

  get chars(): Uint16Array {
    return this.pool;
  }

  get starts(): Int32Array {
    return this.startList;
  }

  get weights(): ArrayLike<number> {
    return this.weightList.subarray(0, this.size);
  }

  get masks(): ArrayLike<number> {
    return this.maskList.subarray(0, this.size);
  }

  get hashes(): ArrayLike<number> {
    return this.hashList.subarray(0, this.size);
  }

  /** Weight and mask of a term, if the document has it. */
  get(term: string): [number, number] | undefined {
    const i = this.find(term, 0, term.length, hashTerm(term), false, false);
    return i < 0 ? undefined : [this.weightList[i]!, this.maskList[i]!];
  }

  /** Counts every word of `text` with this weight and field bit. */
  add(text: string, weight: number, bit: number): void {
    const n = text.length;
    let i = 0;
    let words = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      let k = c < 256 ? CLASS[c]! : 3;
      if (k === 0) {
        i++;
        continue;
      }
      const start = i;
      let ascii = true;
      let h = FNV_OFFSET;
      for (;;) {
        // Lower-cased as it is hashed: the same hash as the stored (lower-case) term.
        if (k === 2) c += 32;
        else if (k === 3) ascii = false;
        h = Math.imul(h ^ c, FNV_PRIME);
        if (++i === n) break;
        c = text.charCodeAt(i);
        k = c < 256 ? CLASS[c]! : 3;
        if (k === 0) break;
      }
      if (ascii) {
        const len = i - start;
        if (len >= MIN_TERM && len <= MAX_TERM) {
          const e = this.find(text, start, i, h | 0, true, true);
          this.weightList[e] = this.weightList[e]! + weight;
          this.maskList[e] = this.maskList[e]! | bit;
          words++;
        }
        continue;
      }
      for (const part of text.slice(start, i).match(WORD) ?? []) {
        const t = foldTerm(part);
        if (t.length >= MIN_TERM && t.length <= MAX_TERM) {
          const e = this.find(t, 0, t.length, hashTerm(t), true, false);
          this.weightList[e] = this.weightList[e]! + weight;
          this.maskList[e] = this.maskList[e]! | bit;
          words++;
        }
      }
    }
    this.words += words;
  }

  /** The entry of text[start, end) lower-cased; created (weight 0) when `create`, else -1 when absent. */
  private find(text: string, start: number, end: number, h: number, create: boolean, ascii: boolean): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const len = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = slots[2 * slot + 1]!;
      if (e === 0) return create ? this.insert(text, start, end, h, slot, ascii) : -1;
      if (slots[2 * slot] !== h) continue;
      const at = this.startList[e - 1]!;
      if (this.startList[e]! - at !== len) continue;
      const pool = this.pool;
      let k = 0;
      for (; k < len; k++) {
        let c = text.charCodeAt(start + k);
        if (c >= 65 && c <= 90) c += 32;
        if (c !== pool[at + k]) break;
      }
      if (k === len) return e - 1;
    }
  }

  private insert(text: string, start: number, end: number, h: number, slot: number, ascii: boolean): number {
    const index = this.size++;
    if (index + 1 === this.weightList.length) {
      this.weightList = grown(this.weightList);
      this.maskList = grown(this.maskList);
      this.hashList = grown(this.hashList);
      this.startList = grown(this.startList);
    }
    const len = end - start;
    let at = this.poolUsed;
    if (at + len > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, at + len));
      pool.set(this.pool);
      this.pool = pool;
    }
    // ASCII is lower-cased here; other words come folded already (tokenize.ts foldTerm).
    const pool = this.pool;
    if (ascii) {
      for (let k = start; k < end; k++) {
        const c = text.charCodeAt(k);
        pool[at++] = c >= 65 && c <= 90 ? c + 32 : c;
      }
    } else for (let k = start; k < end; k++) pool[at++] = text.charCodeAt(k);
    this.poolUsed = at;
    this.startList[index + 1] = at;
    this.hashList[index] = h;
    this.slots[2 * slot] = h;
    this.slots[2 * slot + 1] = index + 1;
    if (this.size * 4 > this.slots.length) this.grow();
    return index;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let s = 1; s < old.length; s += 2) {
      const e = old[s]!;
      if (e === 0) continue;
      const h = old[s - 1]!;
      let slot = h & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = h;
      slots[2 * slot + 1] = e;
    }
    this.slots = slots;
  }
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
