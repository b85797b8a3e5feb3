/**
 * Where the `params.update` value of a raw `session/update` line is, when its bytes are exactly
 * what `JSON.stringify(JSON.parse(line).params.update)` would print. `run --json` then copies those
 * bytes into its `update` event instead of serializing the parsed object again (most of its cost
 * per update, the 16 KiB diffs above all); the output is byte for byte the same.
 *
 * The value qualifies only when nothing in it could print differently: no whitespace between
 * tokens, string escapes only where JSON.stringify writes them (`\"` `\\` `\b` `\f` `\n` `\r` `\t`,
 * `\u00xx` in lowercase for the other control characters), integers only (at most 15 digits, no
 * `-0`), no key that starts with a digit (V8 moves integer-like keys first), no escaped key and no
 * key twice in one object. Anything else, or a line that is not well-formed, gives `undefined` and
 * the caller serializes as before. Outside the update, whitespace and any JSON are allowed; when a
 * key repeats, the last one counts, as in JSON.parse.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Objects with more keys than this are left to JSON.stringify (the duplicate check is quadratic). */
const MAX_KEYS = 64;
const MAX_DEPTH = 64;

/** [start, end) of the update value in `line`. */
export type Span = readonly [number, number];

let buf: Buffer = Buffer.alloc(0);
let pos = 0;
let len = 0;
/** Key spans of the open objects in strict mode, flat: each object's keys from its base index. */
const keyStart = new Int32Array(MAX_KEYS * MAX_DEPTH);
const keyEnd = new Int32Array(MAX_KEYS * MAX_DEPTH);

export function canonicalUpdateSpan(line: Buffer): Span | undefined {
  buf = line;
  pos = 0;
  len = line.length;
  try {
    return scanMessage();
  } finally {
    buf = EMPTY;
  }
}

const EMPTY = Buffer.alloc(0);

function ws(): void {
  while (pos < len) {
    const c = buf[pos]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    pos++;
  }
}

/** Is the key at [start, end) (the bytes between its quotes) equal to `word`? */
function keyIs(start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (buf[start + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** The top level: `{ ... "params": { ... "update": VALUE ... } ... }`. */
function scanMessage(): Span | undefined {
  ws();
  if (buf[pos] !== 0x7b) return undefined;
  // A "params" that is not an object has no update; a later "params" replaces an earlier one.
  const span = lastMember('params', 0, () => (buf[pos] === 0x7b ? lastMember('update', 1, strictUpdate) : looseValue(0) ? undefined : null));
  if (span === null) return undefined;
  ws();
  return pos === len ? span : undefined;
}

/** The update value: its span when canonical, null otherwise. */
function strictUpdate(): Span | null {
  const start = pos;
  if (!strictValue(0) || !escapesCanonical(start, pos)) return null;
  return [start, pos];
}

/**
 * The object at `pos` (its `{`), read loosely except for its members named `name`, whose values
 * `member` reads and gives the span of (undefined: none; null: not usable). The span of the last
 * such member (undefined without one); null when the object is not well-formed or a member not usable.
 */
function lastMember(name: string, depth: number, member: () => Span | undefined | null): Span | undefined | null {
  pos++; // {
  let span: Span | undefined;
  ws();
  if (buf[pos] === 0x7d) {
    pos++;
    return undefined;
  }
  for (;;) {
    ws();
    const keyAt = pos + 1;
    if (!looseString()) return null;
    const keyEnd = pos - 1;
    ws();
    if (buf[pos++] !== 0x3a) return null;
    ws();
    if (keyIs(keyAt, keyEnd, name)) {
      const found = member();
      if (found === null) return null;
      span = found;
    } else if (!looseValue(depth)) return null;
    ws();
    const c = buf[pos++];
    if (c === 0x7d) return span;
    if (c !== 0x2c) return null;
  }
}

// Loose: any well-formed JSON (whitespace allowed), only to find where it ends.

/** Past the string at `pos` (its closing quote found natively, not byte by byte in JS). */
function looseString(): boolean {
  if (buf[pos] !== QUOTE) return false;
  const end = stringEnd(pos + 1);
  if (end === -1) return false;
  pos = end + 1;
  return true;
}

/** The index of the quote that closes a string whose text starts at `from`; -1 if none. */
function stringEnd(from: number): number {
  const b = buf;
  // Short strings (keys, ids, kinds) byte by byte: cheaper than a native call each.
  const stop = Math.min(from + 32, len);
  let i = from;
  for (; i < stop; i++) {
    const c = b[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  // Long ones (text, diffs) natively: the next quote, skipped while escaped.
  for (;;) {
    const q = b.indexOf(QUOTE, i);
    if (q === -1) return -1;
    // Escaped when an odd number of backslashes precede it (the opening quote stops the count).
    let k = q - 1;
    while (b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
    i = q + 1;
  }
}

function looseValue(depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const c = buf[pos];
  if (c === QUOTE) return looseString();
  if (c === 0x7b || c === 0x5b) {
    const close = c === 0x7b ? 0x7d : 0x5d;
    pos++;
    ws();
    if (buf[pos] === close) {
      pos++;
      return true;
    }
    for (;;) {
      ws();
      if (c === 0x7b) {
        if (!looseString()) return false;
        ws();
        if (buf[pos++] !== 0x3a) return false;
        ws();
      }
      if (!looseValue(depth + 1)) return false;
      ws();
      const d = buf[pos++];
      if (d === close) return true;
      if (d !== 0x2c) return false;
    }
  }
  const start = pos;
  while (pos < len) {
    const d = buf[pos]!;
    // Numbers and the literals true, false, null: letters, digits, sign, point.
    if ((d >= 0x30 && d <= 0x39) || (d >= 0x61 && d <= 0x7a) || d === 0x2d || d === 0x2b || d === 0x2e || d === 0x45) pos++;
    else break;
  }
  return pos > start;
}

// Strict: well-formed and exactly as JSON.stringify prints it.

function strictValue(depth: number): boolean {
  const c = buf[pos];
  if (c === QUOTE) return strictString(false);
  if (c === 0x7b) return strictObject(depth);
  if (c === 0x5b) return strictArray(depth);
  if (c === 0x74) return literal('true');
  if (c === 0x66) return literal('false');
  if (c === 0x6e) return literal('null');
  return strictInteger();
}

function literal(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (buf[pos + i] !== word.charCodeAt(i)) return false;
  pos += word.length;
  return true;
}

function strictInteger(): boolean {
  const start = pos;
  if (buf[pos] === 0x2d) pos++;
  const first = pos;
  if (buf[pos] === 0x30) pos++;
  else while (pos < len && buf[pos]! >= 0x30 && buf[pos]! <= 0x39) pos++;
  const digits = pos - first;
  if (digits === 0 || digits > 15) return false;
  if (buf[start] === 0x2d && buf[first] === 0x30) return false; // -0 prints as 0
  const next = buf[pos];
  return next !== 0x2e && next !== 0x65 && next !== 0x45 && !(next !== undefined && next >= 0x30 && next <= 0x39);
}

/**
 * A string as JSON.stringify prints it. Its escapes are checked once for the whole value
 * (escapesCanonical); a key must have none and must not start with a digit.
 */
function strictString(key: boolean): boolean {
  const start = pos + 1;
  const end = stringEnd(start);
  if (end === -1) return false;
  pos = end + 1;
  if (!key) return true;
  const b = buf;
  if (b[start]! >= 0x30 && b[start]! <= 0x39) return false;
  for (let i = start; i < end; i++) if (b[i] === BACKSLASH) return false;
  return true;
}

const ESCAPED_SLASH = Buffer.from('\\/');
const UNICODE_ESCAPE = Buffer.from('\\u');
const HEX_LOWER = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);
const hexValue = (c: number) => (c <= 0x39 ? c - 0x30 : c - 0x61 + 10);

/**
 * Whether every escape in [start, end) is one JSON.stringify writes: no `\/`, and `\u` only as
 * `\u00xx` in lowercase for a control character without a short escape. (A `\u` that is really an
 * escaped backslash and a letter u is judged the same way: at worst the value is serialized.)
 * The other escapes of a string JSON.parse accepted (`\"` `\\` `\b` `\f` `\n` `\r` `\t`) are
 * JSON.stringify's own; raw control characters cannot be in such a string.
 */
function escapesCanonical(start: number, end: number): boolean {
  const b = buf;
  const slash = b.indexOf(ESCAPED_SLASH, start);
  if (slash !== -1 && slash < end) return false;
  for (let u = b.indexOf(UNICODE_ESCAPE, start); u !== -1 && u < end; u = b.indexOf(UNICODE_ESCAPE, u + 2)) {
    const h2 = b[u + 4]!;
    const h3 = b[u + 5]!;
    if (b[u + 2] !== 0x30 || b[u + 3] !== 0x30 || !HEX_LOWER(h2) || !HEX_LOWER(h3)) return false;
    const code = hexValue(h2) * 16 + hexValue(h3);
    if (code >= 0x20 || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return false;
  }
  return true;
}

function strictArray(depth: number): boolean {
  if (depth >= MAX_DEPTH) return false;
  pos++;
  if (buf[pos] === 0x5d) {
    pos++;
    return true;
  }
  for (;;) {
    if (!strictValue(depth + 1)) return false;
    const c = buf[pos++];
    if (c === 0x5d) return true;
    if (c !== 0x2c) return false;
  }
}

function strictObject(depth: number): boolean {
  if (depth >= MAX_DEPTH) return false;
  pos++;
  if (buf[pos] === 0x7d) {
    pos++;
    return true;
  }
  const base = depth * MAX_KEYS;
  let keys = 0;
  for (;;) {
    if (buf[pos] !== QUOTE) return false;
    const start = pos + 1;
    if (!strictString(true)) return false;
    const end = pos - 1;
    if (keys === MAX_KEYS) return false;
    for (let k = base; k < base + keys; k++) if (sameBytes(keyStart[k]!, keyEnd[k]!, start, end)) return false;
    keyStart[base + keys] = start;
    keyEnd[base + keys] = end;
    keys++;
    if (buf[pos++] !== 0x3a) return false;
    if (!strictValue(depth + 1)) return false;
    const c = buf[pos++];
    if (c === 0x7d) return true;
    if (c !== 0x2c) return false;
  }
}

function sameBytes(a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (; a < aEnd; a++, b++) if (buf[a] !== buf[b]) return false;
  return true;
}
