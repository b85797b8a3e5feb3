/**
 * Hand-rolled checks for user-written JSON (settings, registry documents). Each check records a
 * problem with the JSON path it is about, in words a person can act on ("expected a string, got
 * the number 3"), and returns undefined so the caller can fall back and keep going: one typo must
 * not hide every other problem.
 */

export interface Problem {
  /** JSON path inside the document, e.g. `customAgents[1].command`; empty = the whole document. */
  path: string;
  message: string;
  /** Errors make the value unusable (it falls back to its default); warnings are advice. */
  severity: 'error' | 'warning';
}

export class Problems {
  readonly list: Problem[] = [];
  add(path: string, message: string): void {
    this.list.push({ path, message, severity: 'error' });
  }
  warn(path: string, message: string): void {
    this.list.push({ path, message, severity: 'warning' });
  }
  get errorCount(): number {
    return this.list.filter((p) => p.severity === 'error').length;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  if (!base) return safe.startsWith('"') ? `[${safe}]` : safe;
  return safe.startsWith('"') ? `${base}[${safe}]` : `${base}.${safe}`;
}

/** "the number 3", "null", "an array", "the string \"x\"" — for "expected ..., got ..." messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

export function readString(value: unknown, path: string, problems: Problems, opts: { nonEmpty?: boolean; pattern?: RegExp; patternText?: string } = {}): string | undefined {
  if (typeof value !== 'string') {
    problems.add(path, `expected a string, got ${describeValue(value)}`);
    return undefined;
  }
  if (opts.nonEmpty && value.trim() === '') {
    problems.add(path, 'must not be empty');
    return undefined;
  }
  if (opts.pattern && !opts.pattern.test(value)) {
    problems.add(path, `${JSON.stringify(value)} is not ${opts.patternText ?? `matching ${String(opts.pattern)}`}`);
    return undefined;
  }
  return value;
}

export function readBoolean(value: unknown, path: string, problems: Problems): boolean | undefined {
  if (typeof value !== 'boolean') {
    problems.add(path, `expected true or false, got ${describeValue(value)}`);
    return undefined;
  }
  return value;
}

export function readEnum<T extends string>(value: unknown, allowed: readonly T[], path: string, problems: Problems): T | undefined {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    problems.add(path, `expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describeValue(value)}`);
    return undefined;
  }
  return value as T;
}

export function readStringArray(value: unknown, path: string, problems: Problems): string[] | undefined {
  if (!Array.isArray(value)) {
    problems.add(path, `expected an array of strings, got ${describeValue(value)}`);
    return undefined;
  }
  const before = problems.errorCount;
  const out = value.map((item, i) => readString(item, childPath(path, i), problems));
  return problems.errorCount === before ? (out as string[]) : undefined;
}

/** A `{ "NAME": "value" }` object of strings (env maps). */
export function readStringMap(value: unknown, path: string, problems: Problems): Record<string, string> | undefined {
  if (!isRecord(value)) {
    problems.add(path, `expected an object of "NAME": "value" strings, got ${describeValue(value)}`);
    return undefined;
  }
  const before = problems.errorCount;
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const s = readString(item, childPath(path, key), problems);
    if (s !== undefined) out[key] = s;
  }
  return problems.errorCount === before ? out : undefined;
}

export function readObject(value: unknown, path: string, problems: Problems): Record<string, unknown> | undefined {
  if (!isRecord(value)) {
    problems.add(path, `expected an object, got ${describeValue(value)}`);
    return undefined;
  }
  return value;
}

/**
 * Unknown keys are likely typos, so they are named — as warnings: they are kept on write (a newer
 * version or the user's own notes may have put them there).
 */
export function warnUnknownKeys(obj: Record<string, unknown>, known: readonly string[], path: string, problems: Problems): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key) && !key.startsWith('$') && !key.startsWith('//')) {
      problems.warn(childPath(path, key), `unknown key, kept as is (known keys here: ${known.join(', ')})`);
    }
  }
}
