/**
 * Entry ids by position (issue #11). The reducer numbers entries `e1`, `e2`, … in the order it
 * appends them (`step.ts`), so an entry's id is a function of its index: `EntryIdList` keeps a
 * transcript's id list as its length alone while that holds — no string and no array slot per entry,
 * which was most of what the core's live transcript still kept per entry — and each id is made
 * again when it is read. Everything that crosses a boundary (patches, windows, traces) still carries
 * the same string ids; only the core's own list stops holding them.
 */
import type { EntryId } from './model';

/** Ids are numbered up to this (31 bits: far beyond any transcript, and `e${n}` stays exact). */
const MAX_ENTRY_NUMBER = 2 ** 31 - 1;

/** The number of an id of the reducer's form `e<n>` (n ≥ 1, decimal, no leading zero or sign), or -1. */
export function entryNumber(id: string): number {
  // Digit by digit: no string is made (it runs for every entry appended and every one spilled).
  if (id.charCodeAt(0) !== 101 || id.length < 2 || id.length > 11 || id.charCodeAt(1) === 48) return -1;
  let n = 0;
  for (let i = 1; i < id.length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n <= MAX_ENTRY_NUMBER ? n : -1;
}

/** The id the reducer gives the entry at `index` (0-based): `e${index + 1}`. */
export function positionalEntryId(index: number): EntryId {
  return `e${index + 1}`;
}

/**
 * An append-only list of entry ids. While every id pushed is the one its position gives
 * (`positionalEntryId`), it stores only the count; the first id that is not turns it into a plain
 * array of the ids so far and that one, so any sequence reads back exactly as pushed.
 */
export class EntryIdList {
  private count = 0;
  /** The ids as strings, once one was pushed out of positional order. */
  private explicit: EntryId[] | undefined;

  get length(): number {
    return this.explicit ? this.explicit.length : this.count;
  }

  /** Whether the ids are kept as strings (one was pushed out of positional order; tests, figures). */
  get stored(): boolean {
    return this.explicit !== undefined;
  }

  push(id: EntryId): void {
    if (this.explicit) this.explicit.push(id);
    else if (entryNumber(id) === this.count + 1) this.count++;
    else {
      this.explicit = this.toArray();
      this.explicit.push(id);
    }
  }

  /** The id at `index`, or undefined past the end. */
  at(index: number): EntryId | undefined {
    if (this.explicit) return this.explicit[index];
    return Number.isInteger(index) && index >= 0 && index < this.count ? positionalEntryId(index) : undefined;
  }

  /** The index of `id`, or -1. */
  indexOf(id: EntryId): number {
    if (!this.explicit) {
      const n = entryNumber(id);
      return n >= 1 && n <= this.count ? n - 1 : -1;
    }
    const n = entryNumber(id);
    if (n >= 1 && this.explicit[n - 1] === id) return n - 1;
    return this.explicit.indexOf(id);
  }

  /** The ids as a new array. */
  toArray(): EntryId[] {
    if (this.explicit) return [...this.explicit];
    const ids: EntryId[] = [];
    for (let i = 0; i < this.count; i++) ids.push(positionalEntryId(i));
    return ids;
  }
}
