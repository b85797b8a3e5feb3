/**
 * The words of one document with their weight and field mask — the hot path of indexing. Text is
 * cut into words by the rules of tokenize.ts (a test checks they agree), but an ASCII word is
 * hashed and looked up while it is scanned, straight from the text: only a word not seen before in
 * the document becomes a string of its own. (A Map keyed by `text.slice()` allocated and hashed a
 * new string for every occurrence; most occurrences are repeats.)
 */
import { foldTerm, MAX_TERM, MIN_TERM } from './tokenize';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c >= 0xaa;
}

/** The hash the counter uses for a (lower-case, folded) term; segment builders reuse it. */
export function hashTerm(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

export class TermCounter {
  /** Entries in first-seen order. */
  readonly terms: string[] = [];
  private weightList: number[] = [];
  private maskList: number[] = [];
  /** hashTerm of each entry (so a segment builder need not hash the term again). */
  private hashList: number[] = [];
  /** Open addressing: entry index + 1 per slot (0 = empty); hashes beside it. */
  private slots = new Int32Array(256);
  private slotHashes = new Int32Array(256);
  /** Words seen (all occurrences). */
  words = 0;

  get size(): number {
    return this.terms.length;
  }

  get weights(): readonly number[] {
    return this.weightList;
  }

  get masks(): readonly number[] {
    return this.maskList;
  }

  get hashes(): readonly number[] {
    return this.hashList;
  }

  /** Weight and mask of a term, if the document has it. */
  get(term: string): [number, number] | undefined {
    const i = this.find(term, 0, term.length, hashTerm(term), false);
    return i < 0 ? undefined : [this.weightList[i]!, this.maskList[i]!];
  }

  /** Counts every word of `text` with this weight and field bit. */
  add(text: string, weight: number, bit: number): void {
    const n = text.length;
    let i = 0;
    let words = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      while (i < n && !isWordCode(c)) c = text.charCodeAt(++i);
      if (i >= n) break;
      const start = i;
      let ascii = true;
      let h = FNV_OFFSET;
      while (i < n && isWordCode(c)) {
        if (c >= 0xaa) ascii = false;
        // Lower-cased as it is hashed: the same hash as the stored (lower-case) term.
        h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
        c = text.charCodeAt(++i);
      }
      if (ascii) {
        const len = i - start;
        if (len >= MIN_TERM && len <= MAX_TERM) {
          this.count(text, start, i, h | 0, weight, bit, true);
          words++;
        }
        continue;
      }
      for (const part of text.slice(start, i).match(WORD) ?? []) {
        const t = foldTerm(part);
        if (t.length >= MIN_TERM && t.length <= MAX_TERM) {
          this.count(t, 0, t.length, hashTerm(t), weight, bit, false);
          words++;
        }
      }
    }
    this.words += words;
  }

  private count(text: string, start: number, end: number, h: number, weight: number, bit: number, ascii: boolean): void {
    const i = this.find(text, start, end, h, true, ascii);
    this.weightList[i] = this.weightList[i]! + weight;
    this.maskList[i] = this.maskList[i]! | bit;
  }

  /** The entry of text[start, end) lower-cased; created (weight 0) when `create`, else -1 when absent. */
  private find(text: string, start: number, end: number, h: number, create: boolean, ascii = false): number {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = this.slots[slot]!;
      if (e === 0) {
        if (!create) return -1;
        const raw = text.slice(start, end);
        // ASCII is lower-cased here; other words come folded already (tokenize.ts foldTerm).
        const term = ascii ? raw.toLowerCase() : raw;
        const index = this.terms.push(term) - 1;
        this.weightList.push(0);
        this.maskList.push(0);
        this.hashList.push(h);
        this.slots[slot] = index + 1;
        this.slotHashes[slot] = h;
        if (this.terms.length * 2 > this.slots.length) this.grow();
        return index;
      }
      if (this.slotHashes[slot] !== h) continue;
      const term = this.terms[e - 1]!;
      if (term.length !== len) continue;
      let same = true;
      for (let k = 0; k < len; k++) {
        let c = text.charCodeAt(start + k);
        if (c >= 65 && c <= 90) c += 32;
        if (c !== term.charCodeAt(k)) {
          same = false;
          break;
        }
      }
      if (same) return e - 1;
    }
  }

  private grow(): void {
    const size = this.slots.length * 2;
    const slots = new Int32Array(size);
    const hashes = new Int32Array(size);
    const mask = size - 1;
    for (let s = 0; s < this.slots.length; s++) {
      const e = this.slots[s]!;
      if (e === 0) continue;
      const h = this.slotHashes[s]!;
      let slot = h & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = e;
      hashes[slot] = h;
    }
    this.slots = slots;
    this.slotHashes = hashes;
  }
}
