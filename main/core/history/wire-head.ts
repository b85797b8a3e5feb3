/**
 * The text a trace line of a wire record starts with, before the agent's own bytes of `msg`:
 * `recordHead(record)` without its closing brace, then `,"msg":` (trace-writer.ts). The lines of
 * one connection differ only in `t` (`{"kind":"wire","t":…,"dir":"in","sessionId":…,…`), so the
 * text around `t` is kept from the line before and reused while the record has the same keys, in
 * the same order, with the same values — `t` printed by `jsonNumber` between them. Anything else
 * (another key, a changed value, a value that is not a string, finite number or boolean, a record
 * that `recordHead` hands to `JSON.stringify`) is built by `recordHead` as before, and becomes the
 * kept text if it can be. The same text as `${recordHead(record).slice(0, -1)},"msg":` always.
 */
import { jsonNumber } from './json-number';
import { recordHead } from './record-head';

const MSG = ',"msg":';

export class WireHeads {
  /** Keys of the kept record, in order. */
  private keys: string[] = [];
  /** Their values (`t`'s is not compared). */
  private values: unknown[] = [];
  /** Index of `t` in `keys`; -1: nothing kept. */
  private tAt = -1;
  /** The text before `t`'s number, and after it (with `,"msg":`). */
  private before = '';
  private after = '';

  /** `${recordHead(record).slice(0, -1)},"msg":` */
  of(record: object): string {
    if (this.tAt >= 0 && this.matches(record)) return this.before + jsonNumber((record as { t: number }).t) + this.after;
    const head = `${recordHead(record).slice(0, -1)}${MSG}`;
    this.keep(record, head);
    return head;
  }

  private matches(record: object): boolean {
    const fields = record as Record<string, unknown>;
    const keys = this.keys;
    let i = 0;
    for (const key in fields) {
      if (keys[i] !== key) return false;
      if (i === this.tAt) {
        if (typeof fields[key] !== 'number') return false;
      } else if (key !== 'msg' && fields[key] !== this.values[i]) return false;
      i++;
    }
    return i === keys.length && Object.getPrototypeOf(record) === Object.prototype && !('toJSON' in record);
  }

  /** Keeps the text around `t` when every other value is a plain one `recordHead` prints the same way again. */
  private keep(record: object, head: string): void {
    this.tAt = -1;
    if (Object.getPrototypeOf(record) !== Object.prototype || 'toJSON' in record) return;
    const fields = record as Record<string, unknown>;
    const keys: string[] = [];
    const values: unknown[] = [];
    let tAt = -1;
    for (const key in fields) {
      const value = fields[key];
      if (key === 't') {
        if (typeof value !== 'number' || !Number.isFinite(value)) return;
        tAt = keys.length;
      } else if (key !== 'msg' && !(typeof value === 'string' || typeof value === 'boolean' || value === undefined || (typeof value === 'number' && Number.isFinite(value)))) {
        return;
      }
      keys.push(key);
      values.push(key === 'msg' ? undefined : value);
    }
    if (tAt < 0) return;
    // The head is the record's fields in order: `t`'s number follows its key, `{"t":` or `,"t":` —
    // found once only, as every `"` inside a string or key is escaped (`\"`).
    const number = jsonNumber(fields.t as number);
    const key = `${tAt === firstPrinted(keys, values) ? '{' : ','}"t":`;
    const at = head.indexOf(key + number);
    if (at < 0) return;
    this.keys = keys;
    this.values = values;
    this.before = head.slice(0, at + key.length);
    this.after = head.slice(at + key.length + number.length);
    this.tAt = tAt;
  }
}

/** Index of the first key `recordHead` prints (not `msg`, not an undefined value). */
function firstPrinted(keys: string[], values: unknown[]): number {
  for (let i = 0; i < keys.length; i++) if (keys[i] !== 'msg' && values[i] !== undefined) return i;
  return -1;
}
