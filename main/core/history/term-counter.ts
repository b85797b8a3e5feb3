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

/**
 * Per byte of a JSON string's content (addJson): 0 separator, 1–36 an ASCII word character's digit
 * (as DIGIT), NOT_ASCII for what needs a closer look — a backslash (an escape), a control character
 * (JSON.parse rejects it raw), a byte beyond ASCII (a UTF-8 sequence).
 */
const BYTE_CLASS = new Uint8Array(256).fill(NOT_ASCII);
for (let c = 0x20; c < 0x80; c++) BYTE_CLASS[c] = c === 0x5c ? NOT_ASCII : DIGIT[c]!;

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
  /** Each entry's short key (short-key.ts; 0: none), so a segment builder finds a short term by it. */
  private keyList: Float64Array = new Float64Array(64);
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

  get keys(): ArrayLike<number> {
    return this.keyList.subarray(0, this.size);
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

  /**
   * Counts every word of a JSON string's content as it is in the trace's bytes — `bytes[start, end)`,
   * valid UTF-8, between the quotes, escapes not decoded — the same words, in the same order, as
   * `add(JSON.parse('"' + content + '"'))` (fold-skeleton.ts: the long texts of a line are never
   * decoded or parsed). ASCII words are keyed and looked up straight from the bytes; an escape that
   * decodes to a separator (`\n`, `\"`, `\u0020`, …) separates words, as U+0080–U+00A9 (C2 80–C2 A9)
   * do; a run of word characters with any other character (UTF-8 beyond ASCII, or a `\u` escape of
   * a letter or digit) is decoded alone and counted by `add` — runs end at separators in both
   * forms, so it is the same run. False, with the words before it counted, at what JSON.parse
   * rejects: a raw control character or a bad escape.
   */
  addJson(bytes: Uint8Array, start: number, end: number, weight: number, bit: number): boolean {
    let i = start;
    let words = 0;
    while (i < end) {
      let d = BYTE_CLASS[bytes[i]!]!;
      if (d === 0) {
        i++;
        continue;
      }
      if (d < NOT_ASCII) {
        const from = i;
        let key = 0;
        for (;;) {
          key = key * KEY_BASE + d;
          if (++i === end) break;
          d = BYTE_CLASS[bytes[i]!]!;
          if (d === 0 || d >= NOT_ASCII) break;
        }
        // An ASCII word, unless what ends it joins it (a character beyond ASCII, a `\u` of a letter).
        if (i < end && d >= NOT_ASCII && joins(bytes, i, end)) {
          const to = runEnd(bytes, i, end);
          if (to < 0) {
            this.words += words;
            return false;
          }
          this.add(decodeRun(bytes, from, to), weight, bit);
          i = to;
          continue;
        }
        const len = i - from;
        if (len >= MIN_TERM && len <= MAX_TERM) {
          const e = len <= SHORT_TERM ? this.findShortBytes(key, bytes, from, i) : this.findBytes(bytes, from, i, lowerHashBytes(bytes, from, i));
          this.weightList[e] = this.weightList[e]! + weight;
          this.maskList[e] = this.maskList[e]! | bit;
          words++;
        }
        continue;
      }
      // An escape, a byte beyond ASCII or a control character.
      const sep = separatorLength(bytes, i, end);
      if (sep > 0) {
        i += sep;
        continue;
      }
      if (sep < 0) {
        this.words += words;
        return false;
      }
      const to = runEnd(bytes, i, end);
      if (to < 0) {
        this.words += words;
        return false;
      }
      this.add(decodeRun(bytes, i, to), weight, bit);
      i = to;
    }
    this.words += words;
    return true;
  }

  /** findShort for a word of bytes (ASCII letters and digits). */
  private findShortBytes(key: number, bytes: Uint8Array, start: number, end: number): number {
    const keys = this.shortSlots;
    const mask = (keys.length >> 1) - 1;
    const m = Math.imul(key | 0, 0x9e3779b1);
    for (let slot = (m ^ (m >>> 15)) & mask; ; slot = (slot + 1) & mask) {
      const k = keys[2 * slot]!;
      if (k === key) return keys[2 * slot + 1]!;
      if (k === 0) {
        const e = this.insertBytes(bytes, start, end, lowerHashBytes(bytes, start, end));
        this.keyList[e] = key;
        keys[2 * slot] = key;
        keys[2 * slot + 1] = e;
        if (++this.shortCount * 4 > keys.length) this.shortSlots = grownKeys(keys);
        return e;
      }
    }
  }

  /** find (creating) for a word of bytes (ASCII letters and digits), lower-cased. */
  private findBytes(bytes: Uint8Array, start: number, end: number, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const len = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = slots[2 * slot + 1]!;
      if (e === 0) {
        const index = this.insertBytes(bytes, start, end, h);
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
        const c = bytes[start + k]!;
        if ((c >= 65 && c <= 90 ? c + 32 : c) !== pool[at + k]) break;
      }
      if (k === len) return e - 1;
    }
  }

  /** insert for a word of bytes (ASCII letters and digits), lower-cased. */
  private insertBytes(bytes: Uint8Array, start: number, end: number, h: number): number {
    const index = this.size++;
    if (index + 1 === this.weightList.length) {
      this.weightList = grown(this.weightList);
      this.maskList = grown(this.maskList);
      this.hashList = grown(this.hashList);
      this.keyList = grownFloats(this.keyList);
      this.startList = grown(this.startList);
    }
    const len = end - start;
    let at = this.poolUsed;
    if (at + len > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, at + len));
      pool.set(this.pool);
      this.pool = pool;
    }
    const pool = this.pool;
    for (let k = start; k < end; k++) {
      const c = bytes[k]!;
      pool[at++] = c >= 65 && c <= 90 ? c + 32 : c;
    }
    this.poolUsed = at;
    this.startList[index + 1] = at;
    this.hashList[index] = h;
    return index;
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
        this.keyList[e] = key;
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
      this.keyList = grownFloats(this.keyList);
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

/** hashTerm of the ASCII word bytes[start, end) with upper case read as lower. */
function lowerHashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let k = start; k < end; k++) {
    const c = bytes[k]!;
    h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
  }
  return h | 0;
}

const BACKSLASH = 0x5c;
/** The value of a hex digit's byte, -1 for any other byte. */
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[65 + c] = HEX[97 + c] = 10 + c;
/** The characters `\x` stands for, for the escapes JSON has besides `\u` (all separators); 0 for the others. */
const SIMPLE_ESCAPE = new Uint8Array(128);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

/** The code unit of the escape `\uXXXX` at bytes[i], or -1 when it is not one. */
function unitEscape(bytes: Uint8Array, i: number, end: number): number {
  if (i + 6 > end || bytes[i + 1] !== 0x75) return -1;
  const a = HEX[bytes[i + 2]!]!, b = HEX[bytes[i + 3]!]!, c = HEX[bytes[i + 4]!]!, d = HEX[bytes[i + 5]!]!;
  return (a | b | c | d) < 0 ? -1 : (a << 12) | (b << 8) | (c << 4) | d;
}

/**
 * At bytes[i], a byte of class NOT_ASCII or above (an escape, a byte beyond ASCII, a control
 * character): how many bytes of separator start there (an escape of a separator, C2 80–C2 A9);
 * 0 when a word character starts there; -1 when JSON.parse would reject it.
 */
function separatorLength(bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i]!;
  if (b === BACKSLASH) {
    const e = i + 1 < end ? bytes[i + 1]! : -1;
    if (e === 0x75) {
      const u = unitEscape(bytes, i, end);
      return u < 0 ? -1 : DIGIT[u] === 0 ? 6 : 0;
    }
    return e >= 0 && e < 128 && SIMPLE_ESCAPE[e] === 1 ? 2 : -1;
  }
  if (b < 0x20) return -1;
  // Valid UTF-8 (the caller's line): C2 80–C2 A9 are U+0080–U+00A9, separators; all else from U+00AA on joins.
  return b === 0xc2 && i + 1 < end && bytes[i + 1]! <= 0xa9 ? 2 : 0;
}

/** Whether what starts at bytes[i] (class NOT_ASCII or above), right after a word character, joins the word (or is invalid: the run's scan says so). */
function joins(bytes: Uint8Array, i: number, end: number): boolean {
  return separatorLength(bytes, i, end) <= 0;
}

/** Where the run of word characters that includes bytes[i] ends (the next separator or `end`); -1 at what JSON.parse rejects. */
function runEnd(bytes: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const d = BYTE_CLASS[bytes[i]!]!;
    if (d === 0) return i;
    if (d < NOT_ASCII) {
      i++;
      continue;
    }
    const sep = separatorLength(bytes, i, end);
    if (sep > 0) return i;
    if (sep < 0) return -1;
    // A word character: an escape (6 bytes) or a UTF-8 sequence (its lead byte says how long).
    const b = bytes[i]!;
    i += b === BACKSLASH ? 6 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
  }
  return end;
}

/** The run bytes[start, end) (whole characters and escapes, checked) decoded as JSON.parse decodes it. */
function decodeRun(bytes: Uint8Array, start: number, end: number): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
  return text.includes('\\') ? (JSON.parse(`"${text}"`) as string) : text;
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

function grownFloats(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
