/**
 * The words of one document with their weight and field mask — the hot path of indexing. Text is
 * cut into words by the rules of tokenize.ts (a test checks they agree), but an ASCII word is
 * keyed and looked up while it is scanned, straight from the text: no word becomes a string. (A
 * Map keyed by `text.slice()` allocated and hashed a new string for every occurrence; most
 * occurrences are repeats.) A word of up to 10 characters — nearly nine in ten — is found by its
 * short key (short-key.ts), with no characters compared; longer ones by hash and characters.
 *
 * Per entry everything but the term itself lives in typed arrays (hash, length, weight, mask), so
 * a lookup touches no JS object; the scan never reads past the end of the text (a read past the end
 * gives NaN, which V8's optimized loop pays for on every character).
 */
import { KEY_BASE, keyDigit, SHORT_TERM, shortKey } from './short-key';
import { foldTerm, MAX_TERM, MIN_TERM } from './tokenize';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const NOT_ASCII = KEY_BASE;
/**
 * Per UTF-16 code unit: 0 separator, 1–36 an ASCII word character's digit in a short word's key
 * (short-key.ts: upper case as lower case), NOT_ASCII a character from U+00AA on (Unicode rules).
 * A table of all 65,536 (64 KiB, of which the scan of ASCII text reads the first 128 bytes): one
 * read per character and no test of its range.
 */
const DIGIT = new Uint8Array(65536).fill(NOT_ASCII);
for (let c = 0; c < 0xaa; c++) DIGIT[c] = c >= 65 && c <= 90 ? keyDigit(c + 32) : keyDigit(c);

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
  /**
   * The entries of short words (short-key.ts), open addressing, two numbers a slot: the word's key
   * (0 = empty) and its entry index — a hit is one read of one cache line, no characters compared.
   */
  private shortSlots: Float64Array = new Float64Array(512);
  private shortCount = 0;
  /**
   * The other entries (longer, or with characters other than a–z and 0–9): open addressing, two
   * ints a slot: the hash, and the entry index + 1 (0 = empty); a hit is confirmed by the characters.
   */
  private slots: Int32Array = new Int32Array(512);
  private longCount = 0;
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
    const i = this.entryOf(term, false);
    return i < 0 ? undefined : [this.weightList[i]!, this.maskList[i]!];
  }

  /** Counts every word of `text` with this weight and field bit. */
  add(text: string, weight: number, bit: number): void {
    const n = text.length;
    let i = 0;
    let words = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      let d = DIGIT[c]!;
      if (d === 0) {
        i++;
        continue;
      }
      const start = i;
      let ascii = true;
      // The word's key (short-key.ts), exact while it has at most SHORT_TERM characters.
      let key = 0;
      for (;;) {
        if (d === NOT_ASCII) ascii = false;
        else key = key * KEY_BASE + d;
        if (++i === n) break;
        c = text.charCodeAt(i);
        d = DIGIT[c]!;
        if (d === 0) break;
      }
      if (ascii) {
        const len = i - start;
        if (len >= MIN_TERM && len <= MAX_TERM) {
          const e = len <= SHORT_TERM ? this.findShort(key, text, start, i, true) : this.find(text, start, i, lowerHash(text, start, i), true, true);
          this.weightList[e] = this.weightList[e]! + weight;
          this.maskList[e] = this.maskList[e]! | bit;
          words++;
        }
        continue;
      }
      for (const part of text.slice(start, i).match(WORD) ?? []) {
        const t = foldTerm(part);
        if (t.length >= MIN_TERM && t.length <= MAX_TERM) {
          const e = this.entryOf(t, true);
          this.weightList[e] = this.weightList[e]! + weight;
          this.maskList[e] = this.maskList[e]! | bit;
          words++;
        }
      }
    }
    this.words += words;
  }

  /** The entry of a folded term, in the table its characters say; created when `create`, else -1 when absent. */
  private entryOf(t: string, create: boolean): number {
    const key = shortKey(t);
    return key > 0 ? this.findShort(key, t, 0, t.length, create) : this.find(t, 0, t.length, hashTerm(t), create, false);
  }

  /**
   * The entry of a short word (text[start, end): at most SHORT_TERM characters a–z, 0–9, upper case
   * read as lower) by its key — equal keys, equal words, so no characters are compared; created
   * when `create`, else -1 when absent.
   */
  private findShort(key: number, text: string, start: number, end: number, create: boolean): number {
    const keys = this.shortSlots;
    const mask = (keys.length >> 1) - 1;
    const m = Math.imul(key | 0, 0x9e3779b1);
    for (let slot = (m ^ (m >>> 15)) & mask; ; slot = (slot + 1) & mask) {
      const k = keys[2 * slot]!;
      if (k === key) return keys[2 * slot + 1]!;
      if (k === 0) {
        if (!create) return -1;
        const e = this.insert(text, start, end, lowerHash(text, start, end), true);
        keys[2 * slot] = key;
        keys[2 * slot + 1] = e;
        if (++this.shortCount * 4 > keys.length) this.shortSlots = grownKeys(keys);
        return e;
      }
    }
  }

  /** The entry of text[start, end) lower-cased; created (weight 0) when `create`, else -1 when absent. */
  private find(text: string, start: number, end: number, h: number, create: boolean, ascii: boolean): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const len = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = slots[2 * slot + 1]!;
      if (e === 0) {
        if (!create) return -1;
        const index = this.insert(text, start, end, h, ascii);
        slots[2 * slot] = h;
        slots[2 * slot + 1] = index + 1;
        if (++this.longCount * 4 > slots.length) this.grow();
        return index;
      }
      if (slots[2 * slot] !== h) continue;
      const at = this.startList[e - 1]!;
      if (this.startList[e]! - at !== len) continue;
      const pool = this.pool;
      let k = 0;
      for (; k < len; k++) {
        let c = text.charCodeAt(start + k);
        // Only ASCII words are lower-cased here (as `insert` stores them); a folded word is compared
        // as it is — its fold may hold capitals (ℍ folds to H), and lowering them here made every
        // occurrence a new entry.
        if (ascii && c >= 65 && c <= 90) c += 32;
        if (c !== pool[at + k]) break;
      }
      if (k === len) return e - 1;
    }
  }

  /** A new entry (weight 0) for text[start, end), lower-cased when `ascii`, whose hashTerm is `h`; the caller puts it in a table. */
  private insert(text: string, start: number, end: number, h: number, ascii: boolean): number {
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

/** The short words' table twice as big, its keys placed again. */
function grownKeys(old: Float64Array): Float64Array {
  const keys = new Float64Array(old.length * 2);
  const mask = (keys.length >> 1) - 1;
  for (let s = 0; s < old.length; s += 2) {
    const key = old[s]!;
    if (key === 0) continue;
    const m = Math.imul(key | 0, 0x9e3779b1);
    let slot = (m ^ (m >>> 15)) & mask;
    while (keys[2 * slot] !== 0) slot = (slot + 1) & mask;
    keys[2 * slot] = key;
    keys[2 * slot + 1] = old[s + 1]!;
  }
  return keys;
}

/** hashTerm of text[start, end) with ASCII upper case read as lower. */
function lowerHash(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
  }
  return h | 0;
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
