/**
 * Terms numbered: each distinct term (lower case, folded — see tokenize.ts) gets an id, 0, 1, 2 …
 * in the order terms are first seen. A term is found straight from the text it is scanned in (its
 * FNV-1a hash computed while scanning, its characters compared against a pool of code units), so
 * looking up a word that is already there makes no string.
 *
 * One table can serve many documents: a fold worker keeps one for all the files it folds and for
 * the segment it is building (fold-worker.ts), so a distinct term of a document is looked up once —
 * by the counter, while scanning — and the segment builder takes term ids instead of strings. A
 * counter used alone has a table of its own (its ids are then its entries in first-seen order).
 *
 * Per id everything but the term's string lives in typed arrays (hash, where its characters are in
 * the pool); the slot table holds hash and id side by side (one cache line per probe).
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The hash the tables use for a (lower-case, folded) term. */
export function hashTerm(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

export class TermTable {
  /** Each id's term. */
  readonly terms: string[] = [];
  private count = 0;
  /** hashTerm of each id's term. */
  hashes: Int32Array = new Int32Array(64);
  /** The terms' characters in one pool (where each is: in its slot). */
  private pool: Uint16Array = new Uint16Array(1024);
  private poolUsed = 0;
  /**
   * Open addressing, four ints a slot: the hash, the id + 1 (0 = empty), where the term's
   * characters start in the pool and how many there are — a lookup that finds its term touches
   * its slot and the characters, nothing else (the table holds up to a segment's terms, hundreds of
   * thousands: most lookups of rare terms miss the cache, so the lines touched count).
   */
  private slots: Int32Array = new Int32Array(1024);

  get size(): number {
    return this.count;
  }

  /**
   * The id of text[start, end) with A–Z lower-cased, whose hash is `h`; added when new. `lower`:
   * the text is to be lower-cased to make its string (an ASCII word as scanned); otherwise it is
   * the term already (a folded word).
   */
  idOf(text: string, start: number, end: number, h: number, lower: boolean): number {
    const slots = this.slots;
    const mask = (slots.length >> 2) - 1;
    const len = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const s = 4 * slot;
      const e = slots[s + 1]!;
      if (e === 0) return this.insert(text, start, end, h, slot, lower);
      if (slots[s] !== h || slots[s + 3] !== len) continue;
      const at = slots[s + 2]!;
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

  /** The id of a term (lower case, folded already), added when new. */
  intern(term: string, h: number = hashTerm(term)): number {
    return this.idOf(term, 0, term.length, h, false);
  }

  /** The id of a term (lower case, folded), or -1 when the table does not hold it. */
  find(term: string): number {
    const h = hashTerm(term);
    const slots = this.slots;
    const mask = (slots.length >> 2) - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = slots[4 * slot + 1]!;
      if (e === 0) return -1;
      if (slots[4 * slot] === h && this.terms[e - 1] === term) return e - 1;
    }
  }

  private insert(text: string, start: number, end: number, h: number, slot: number, lower: boolean): number {
    const id = this.count++;
    const raw = start === 0 && end === text.length ? text : text.slice(start, end);
    this.terms.push(lower ? raw.toLowerCase() : raw);
    if (id === this.hashes.length) this.hashes = grown(this.hashes);
    const len = end - start;
    let at = this.poolUsed;
    if (at + len > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, at + len));
      pool.set(this.pool);
      this.pool = pool;
    }
    const pool = this.pool;
    for (let k = start; k < end; k++) {
      const c = text.charCodeAt(k);
      pool[at++] = c >= 65 && c <= 90 ? c + 32 : c;
    }
    const s = 4 * slot;
    this.slots[s] = h;
    this.slots[s + 1] = id + 1;
    this.slots[s + 2] = this.poolUsed;
    this.slots[s + 3] = len;
    this.poolUsed = at;
    this.hashes[id] = h;
    // At most half the slots used.
    if (this.count * 8 > this.slots.length) this.grow();
    return id;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 2) - 1;
    for (let s = 0; s < old.length; s += 4) {
      if (old[s + 1] === 0) continue;
      let slot = old[s]! & mask;
      while (slots[4 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots.set(old.subarray(s, s + 4), 4 * slot);
    }
    this.slots = slots;
  }
}

export function grown(a: Int32Array, atLeast = 0): Int32Array {
  let size = a.length * 2;
  while (size < atLeast) size *= 2;
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
