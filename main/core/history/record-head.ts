/**
 * The JSON of a wire record without its `msg` — the head of a trace line whose `msg` is written as
 * the agent's own bytes (trace-writer.ts). The same text as `JSON.stringify` of the record with
 * `msg` left out, key order included, written field by field: a wire record is a handful of flat
 * fields (`kind`, `t`, `dir`, the session ids, a problem, a flag); the session ids repeat on every
 * line of a connection, so their quoted form is kept from the lines before, and `t` is printed by
 * `jsonNumber` — V8's own printing of such a number was most of the cost of `JSON.stringify` of
 * the record (≈ 4–5 % of the core's CPU under a flood).
 *
 * Anything that is not a plain own field of a plain object (another prototype, a `toJSON`) goes to
 * `JSON.stringify` itself, so the output never differs from it.
 */

import { jsonNumber } from './json-number';

/** `"key":` of the keys seen so far (a wire record has fewer than ten distinct ones). */
const keyTexts = new Map<string, string>();
const KEY_TEXTS_MAX = 64;

/** The last strings quoted, most recent last: a connection's session ids, its `dir`, its `kind`. */
const RECENT_STRINGS = 8;
const recentRaw: string[] = [];
const recentQuoted: string[] = [];

function quoted(value: string): string {
  for (let k = recentRaw.length - 1; k >= 0; k--) if (recentRaw[k] === value) return recentQuoted[k]!;
  const text = JSON.stringify(value);
  // Long strings (a problem text) are not worth keeping.
  if (value.length <= 256) {
    if (recentRaw.length >= RECENT_STRINGS) {
      recentRaw.shift();
      recentQuoted.shift();
    }
    recentRaw.push(value);
    recentQuoted.push(text);
  }
  return text;
}

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (keyTexts.size < KEY_TEXTS_MAX) keyTexts.set(key, text);
  }
  return text;
}

/** `JSON.stringify(record)` with `record.msg` left out (as if it were undefined). */
export function recordHead(record: object): string {
  if (Object.getPrototypeOf(record) !== Object.prototype || 'toJSON' in record) return viaStringify(record);
  const fields = record as Record<string, unknown>;
  let out = '';
  for (const key in fields) {
    if (key === 'msg') continue;
    const value = fields[key];
    let text: string;
    switch (typeof value) {
      case 'string':
        text = quoted(value);
        break;
      case 'number':
        text = jsonNumber(value);
        break;
      case 'boolean':
        text = value ? 'true' : 'false';
        break;
      case 'undefined':
      case 'function':
      case 'symbol':
        continue;
      default: {
        const json = JSON.stringify(value) as string | undefined;
        if (json === undefined) continue;
        text = json;
      }
    }
    out += (out === '' ? '{' : ',') + keyText(key) + text;
  }
  return out === '' ? '{}' : `${out}}`;
}

function viaStringify(record: object): string {
  return JSON.stringify(record, function (this: unknown, key, value: unknown) {
    return key === 'msg' && this === record ? undefined : value;
  });
}
