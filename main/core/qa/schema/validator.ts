/**
 * A focused JSON-Schema validator for the ACP schema the SDK ships (schema/v1/*.json): exactly the
 * keywords that schema uses (type, properties, required, additionalProperties, items, $ref, allOf,
 * anyOf, oneOf + discriminator, not, const, enum, minimum, maximum, minLength, integer formats),
 * plus its two leniency markers:
 *
 * - `x-deserialize-default-on-error`: the SDK replaces an invalid value with the default instead of
 *   rejecting the message — reported as a *tolerated* issue, not an error;
 * - `x-deserialize-skip-invalid-items`: invalid array items are dropped — likewise tolerated.
 *
 * Each schema node is compiled once into a closure and cached by node identity, so the hot path
 * (every incoming `session/update`) runs compiled checks only. `oneOf` is treated like `anyOf`:
 * the ACP unions are discriminated, so "exactly one" and "at least one" agree on them, and the
 * cheaper check also gives better messages.
 */

export interface SchemaIssue {
  /** Where, as a JSON path from the validated value (`params.update.title`). */
  path: string;
  message: string;
  /** The SDK would accept the message anyway (dropping or defaulting this value). */
  tolerated?: boolean;
}

type Json = Record<string, unknown>;
type Check = (value: unknown, path: string, issues: SchemaIssue[]) => boolean;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

const INTEGER_RANGES: Record<string, [number, number]> = {
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  uint64: [0, Number.MAX_SAFE_INTEGER * 2 ** 11],
  int32: [-2147483648, 2147483647],
};

const describe = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const child = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;

export class SchemaCompiler {
  private readonly cache = new WeakMap<object, Check>();

  constructor(private readonly root: Json) {}

  /** The compiled check of a definition (`#/$defs/NAME`). */
  definition(name: string): Check {
    return this.compile({ $ref: `#/$defs/${name}` });
  }

  compile(node: unknown): Check {
    if (!isObject(node)) return () => true;
    const cached = this.cache.get(node);
    if (cached) return cached;
    // A placeholder first, so recursive $refs resolve to the finished check lazily.
    let compiled: Check | undefined;
    const lazy: Check = (v, p, i) => compiled!(v, p, i);
    this.cache.set(node, lazy);
    compiled = this.build(node);
    this.cache.set(node, compiled);
    return compiled;
  }

  private resolve(ref: string): Json {
    if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
    let node: unknown = this.root;
    for (const part of ref.slice(2).split('/')) node = isObject(node) ? node[part] : undefined;
    if (!isObject(node)) throw new Error(`unresolved $ref ${ref}`);
    return node;
  }

  private build(node: Json): Check {
    const checks: Check[] = [];
    if (typeof node.$ref === 'string') {
      const target = this.resolve(node.$ref);
      checks.push((v, p, i) => this.compile(target)(v, p, i));
    }
    if (node.type !== undefined) checks.push(typeCheck(node.type));
    if ('const' in node) {
      const expected = node.const;
      checks.push((v, p, i) => v === expected || fail(i, p, `must be ${describe(expected)}, got ${describe(v)}`));
    }
    if (Array.isArray(node.enum)) {
      const values = node.enum;
      checks.push((v, p, i) => values.includes(v as never) || fail(i, p, `must be one of ${values.map(describe).join(', ')}, got ${describe(v)}`));
    }
    if (typeof node.minimum === 'number' || typeof node.maximum === 'number' || typeof node.format === 'string') {
      const range = typeof node.format === 'string' ? INTEGER_RANGES[node.format] : undefined;
      const min = typeof node.minimum === 'number' ? node.minimum : range?.[0];
      const max = typeof node.maximum === 'number' ? node.maximum : range?.[1];
      if (min !== undefined || max !== undefined) {
        checks.push((v, p, i) => {
          if (typeof v !== 'number') return true;
          if (min !== undefined && v < min) return fail(i, p, `must be ≥ ${min}, got ${v}`);
          if (max !== undefined && v > max) return fail(i, p, `must be ≤ ${max}, got ${v}`);
          return true;
        });
      }
    }
    if (typeof node.minLength === 'number') {
      const min = node.minLength;
      checks.push((v, p, i) => typeof v !== 'string' || [...v].length >= min || fail(i, p, `must have at least ${min} character(s)`));
    }
    if (isObject(node.properties) || Array.isArray(node.required) || node.additionalProperties !== undefined) {
      checks.push(this.objectCheck(node));
    }
    if (node.items !== undefined) checks.push(this.itemsCheck(node));
    if (Array.isArray(node.allOf)) {
      const parts = node.allOf.map((s) => this.compile(s));
      checks.push((v, p, i) => parts.every((c) => c(v, p, i)));
    }
    if (Array.isArray(node.anyOf)) checks.push(this.unionCheck(node.anyOf, undefined));
    if (Array.isArray(node.oneOf)) {
      const discriminator = isObject(node.discriminator) && typeof node.discriminator.propertyName === 'string' ? node.discriminator.propertyName : undefined;
      checks.push(this.unionCheck(node.oneOf, discriminator));
    }
    if (node.not !== undefined) {
      const inner = this.compile(node.not);
      checks.push((v, p, i) => !inner(v, p, []) || fail(i, p, 'matches a form it must not match'));
    }
    let check: Check =
      checks.length === 0
        ? () => true
        : checks.length === 1
          ? checks[0]!
          : (v, p, i) => {
              // Every part runs (no short-circuit), so one message lists all its problems.
              let ok = true;
              for (const c of checks) if (!c(v, p, i)) ok = false;
              return ok;
            };
    if (node['x-deserialize-default-on-error'] === true) check = tolerant(check);
    return check;
  }

  private objectCheck(node: Json): Check {
    const properties = isObject(node.properties) ? Object.entries(node.properties).map(([k, s]) => [k, this.compile(s)] as const) : [];
    const known = new Set(properties.map(([k]) => k));
    const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === 'string') : [];
    const additional = node.additionalProperties;
    const additionalCheck = isObject(additional) ? this.compile(additional) : undefined;
    return (v, p, i) => {
      if (!isObject(v)) return true; // `type` reports it
      let ok = true;
      for (const key of required) if (!(key in v)) ok = fail(i, child(p, key), 'required property is missing');
      for (const [key, check] of properties) if (key in v && !check(v[key], child(p, key), i)) ok = false;
      if (additional === false || additionalCheck) {
        for (const key of Object.keys(v)) {
          if (known.has(key)) continue;
          if (additional === false) ok = fail(i, child(p, key), 'unexpected property');
          else if (!additionalCheck!(v[key], child(p, key), i)) ok = false;
        }
      }
      return ok;
    };
  }

  private itemsCheck(node: Json): Check {
    const item = this.compile(node.items);
    const skipInvalid = node['x-deserialize-skip-invalid-items'] === true;
    return (v, p, i) => {
      if (!Array.isArray(v)) return true;
      let ok = true;
      v.forEach((x, n) => {
        const path = child(p, n);
        if (!skipInvalid) {
          if (!item(x, path, i)) ok = false;
          return;
        }
        const inner: SchemaIssue[] = [];
        const itemOk = item(x, path, inner);
        for (const issue of inner) i.push(itemOk || issue.tolerated ? issue : { ...issue, message: `${issue.message} (the item is dropped)`, tolerated: true });
      });
      return ok;
    };
  }

  private unionCheck(branches: unknown[], discriminator: string | undefined): Check {
    const compiled = branches.map((b) => ({ node: b as Json, check: this.compile(b) }));
    const constOf = (b: Json): unknown => {
      const prop = isObject(b.properties) && discriminator ? b.properties[discriminator] : undefined;
      return isObject(prop) && 'const' in prop ? prop.const : undefined;
    };
    const byTag = new Map<unknown, Check>();
    if (discriminator) for (const b of compiled) if (constOf(b.node) !== undefined) byTag.set(constOf(b.node), b.check);
    // A union of plain constants (an enum spelled as oneOf): say which values are allowed.
    const constants = compiled.every((b) => 'const' in b.node) ? compiled.map((b) => b.node.const) : undefined;
    return (v, p, i) => {
      if (discriminator && isObject(v)) {
        const tagged = byTag.get(v[discriminator]);
        if (tagged) return tagged(v, p, i);
        if (!(discriminator in v)) return fail(i, child(p, discriminator), 'required property is missing');
      }
      if (constants) return constants.includes(v as never) || fail(i, p, `must be one of ${constants.map(describe).join(', ')}, got ${describe(v)}`);
      let best: SchemaIssue[] | undefined;
      let bestScore = -1;
      for (const b of compiled) {
        const attempt: SchemaIssue[] = [];
        if (b.check(v, p, attempt)) {
          i.push(...attempt); // tolerated issues of the branch that matched
          return true;
        }
        // The most specific failure: the deepest path, then the fewest problems.
        const depth = Math.max(...attempt.filter((x) => !x.tolerated).map((x) => x.path.length));
        const score = depth * 1000 - attempt.length;
        if (score > bestScore) {
          bestScore = score;
          best = attempt;
        }
      }
      if (!best || best.every((x) => x.path === p && x.message.startsWith('must be of type'))) {
        const types = [...new Set(compiled.flatMap((b) => typesOf(b.node)))];
        return fail(i, p, types.length ? `must be of type ${types.join(' or ')}, got ${jsonType(v)}` : `does not match any allowed form`);
      }
      i.push(...best);
      return false;
    };
  }
}

function typesOf(node: Json): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === 'string');
  if (typeof node.$ref === 'string') return [node.$ref.replace(/^.*\//, '')];
  return [];
}

function typeCheck(type: unknown): Check {
  const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
  return (v, p, i) => {
    for (const t of types) if (typeMatches(v, t) || (t === 'number' && jsonType(v) === 'integer')) return true;
    return fail(i, p, `must be of type ${types.join(' or ')}, got ${jsonType(v)}`);
  };
}

/** The SDK defaults an invalid value here: its problems are reported as tolerated, never as failures. */
function tolerant(check: Check): Check {
  return (v, p, i) => {
    const inner: SchemaIssue[] = [];
    const ok = check(v, p, inner);
    for (const issue of inner) i.push(ok || issue.tolerated ? issue : { ...issue, message: `${issue.message} (the value is ignored)`, tolerated: true });
    return true;
  };
}

function fail(issues: SchemaIssue[], path: string, message: string): false {
  issues.push({ path, message });
  return false;
}
