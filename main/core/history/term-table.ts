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
  /** The terms' characters in one pool: id k's are pool[starts[k] … starts[k + 1]). */
  private pool: Uint16Array = new Uint16Array(1024);
  private poolUsed = 0;
  private starts: Int32Array = new Int32Array(65);
  /** Open addressing, two ints a slot: the hash, and the id + 1 (0 = empty). */
  private slots: Int32Array = new Int32Array(512);

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
    const mask = (slots.length >> 1) - 1;
    const len = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = slots[2 * slot + 1]!;
      if (e === 0) return this.insert(text, start, end, h, slot, lower);
      if (slots[2 * slot] !== h) continue;
      const starts = this.starts;
      const at = starts[e - 1]!;
      if (starts[e]! - at !== len) continue;
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
    const mask = (slots.length >> 1) - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = slots[2 * slot + 1]!;
      if (e === 0) return -1;
      if (slots[2 * slot] !== h) continue;
      const at = this.starts[e - 1]!;
      if (this.starts[e]! - at !== term.length) continue;
      let k = 0;
      while (k < term.length && term.charCodeAt(k) === this.pool[at + k]) k++;
      if (k === term.length) return e - 1;
    }
  }

  private insert(text: string, start: number, end: number, h: number, slot: number, lower: boolean): number {
    const id = this.count++;
    const raw = start === 0 && end === text.length ? text : text.slice(start, end);
    this.terms.push(lower ? raw.toLowerCase() : raw);
    if (id + 1 === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.starts = grown(this.starts);
    }
    let at = this.poolUsed;
    const len = end - start;
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
    this.poolUsed = at;
    this.starts[id + 1] = at;
    this.hashes[id] = h;
    this.slots[2 * slot] = h;
    this.slots[2 * slot + 1] = id + 1;
    if (this.count * 4 > this.slots.length) this.grow();
    return id;
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

export function grown(a: Int32Array, atLeast = 0): Int32Array {
  let size = a.length * 2;
  while (size < atLeast) size *= 2;
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
