/**
 * The fast path of the hot updates gives exactly the findings of the full validator: over a corpus
 * of the plain shapes and of every single-point variant of them (a key removed, a value of another
 * type, null, out of range, an unknown key...) plus seeded random multi-point variants, the outcome
 * with the fast path equals the full validator's, and the conformance report of a trace of them is
 * the same either way.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TraceRecord } from '../../../../common/trace/records';
import { conformanceReport } from '../engine';
import { acpSchema } from './acp-schema';
import { plainSessionUpdate } from './plain-updates';

type Json = Record<string, unknown>;
const schema = acpSchema();
const enums = { toolKinds: new Set(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']), toolStatuses: new Set(['pending', 'in_progress', 'completed', 'failed']) };

const diff = { type: 'diff', path: '/w/a.ts', oldText: '// v1\nold', newText: '// v1+1\nnew' };
const VALID: Json[] = [
  { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } },
  { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: '' } },
  { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'é "q" \n' } },
  { sessionUpdate: 'tool_call', toolCallId: 'tc-1', title: 'Edit a.ts', kind: 'edit', status: 'in_progress', content: [diff], locations: [{ path: '/w/a.ts' }] },
  { sessionUpdate: 'tool_call', toolCallId: 'tc-2', title: 'Read' },
  { sessionUpdate: 'tool_call', toolCallId: 'tc-3', title: 'Run', kind: 'execute', status: 'pending', content: [{ type: 'content', content: { type: 'text', text: 'out' } }], locations: [{ path: '/w/b', line: 0 }, { path: '/w/c', line: 4294967295 }] },
  { sessionUpdate: 'tool_call', toolCallId: 'tc-4', title: 'New file', content: [{ type: 'diff', path: '/w/n.ts', newText: 'x' }], locations: [] },
  { sessionUpdate: 'tool_call_update', toolCallId: 'tc-1', status: 'completed', content: [diff] },
  { sessionUpdate: 'tool_call_update', toolCallId: 'tc-1' },
  { sessionUpdate: 'tool_call_update', toolCallId: 'tc-1', title: 'Edited', kind: 'other', status: 'failed', content: [], locations: [{ path: '/w/a.ts', line: 12 }] },
];
const params = (update: unknown): Json => ({ sessionId: 'sess-1', update });

/** Values a field is set to by the variants. */
const REPLACEMENTS: unknown[] = [undefined, null, 42, 1.5, -1, 2 ** 32, '', 'x', 'bogus', true, [], {}, [null], [{}], { type: 'text' }, { type: 'text', text: 1 }, 'edit', 'completed', 'text', 'diff'];

const clone = <T>(v: T): T => structuredClone(v);

/** Every path (list of keys) to a value inside `v`, including the root. */
function paths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

/** A copy of `root` with the value at `path` replaced (undefined: removed). */
function withValue(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = clone(root) as Json;
  let node = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = value;
  return copy;
}

/** A copy with an extra key in the object at `path` (when it is an object). */
function withExtra(root: unknown, path: Array<string | number>, key: string, value: unknown): unknown | undefined {
  const copy = clone(root) as Json;
  let node: unknown = copy;
  for (const k of path) node = (node as Record<string | number, unknown>)[k];
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  (node as Json)[key] = value;
  return copy;
}

function corpus(): unknown[] {
  const out: unknown[] = [];
  for (const update of VALID) {
    const p = params(update);
    out.push(p);
    for (const path of paths(p)) {
      for (const value of REPLACEMENTS) out.push(withValue(p, path, value));
      for (const [key, value] of [['extra', 1], ['_meta', {}], ['_meta', null], ['annotations', null], ['messageId', 'm1'], ['name', 'n'], ['rawInput', {}]] as const) {
        const v = withExtra(p, path, key, value);
        if (v !== undefined) out.push(v);
      }
    }
  }
  // Seeded random variants with two or three changes at once.
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let k = 0; k < 3000; k++) {
    let p: unknown = params(VALID[random(VALID.length)]);
    for (let m = 0, changes = 2 + random(2); m < changes; m++) {
      const all = paths(p);
      const path = all[1 + random(all.length - 1)] ?? [];
      p = random(4) === 0 ? (withExtra(p, path, 'extra', REPLACEMENTS[random(REPLACEMENTS.length)]) ?? p) : withValue(p, path, REPLACEMENTS[random(REPLACEMENTS.length)]);
    }
    out.push(p);
  }
  out.push(undefined, null, [], 'text', { sessionId: 'x' }, { update: VALID[0] });
  return out;
}

describe('the fast path of the hot session/update shapes', () => {
  it('takes the plain shapes agents send (the full validator finds nothing in them)', () => {
    for (const update of VALID) {
      expect(plainSessionUpdate(params(update), enums), JSON.stringify(update)).toBe(true);
      expect(schema.validateParamsFully('session/update', params(update))).toEqual({ errors: [], tolerated: [] });
    }
  });

  it('gives exactly the full validator’s outcome over the corpus and every variant, valid or not', () => {
    const items = corpus();
    let fast = 0;
    let withIssues = 0;
    for (const p of items) {
      const full = schema.validateParamsFully('session/update', p)!;
      if (full.errors.length || full.tolerated.length) withIssues++;
      if (plainSessionUpdate(p, enums)) {
        fast++;
        expect(full, JSON.stringify(p)).toEqual({ errors: [], tolerated: [] });
      }
      expect(schema.validateParams('session/update', p)).toEqual(full);
    }
    // The corpus exercises both sides: many variants the schema flags, many the fast path takes.
    expect(withIssues).toBeGreaterThan(1000);
    expect(fast).toBeGreaterThan(200);
  });

  it('reads its enums from the schema: the same as listed here', () => {
    const strict = (update: Json) => plainSessionUpdate(params(update), enums);
    for (const kind of enums.toolKinds) expect(schema.validateParams('session/update', params({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', kind }))).toEqual({ errors: [], tolerated: [] });
    expect(strict({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', kind: 'bogus' })).toBe(false);
    expect(schema.validateParams('session/update', params({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', kind: 'bogus' }))!.tolerated).toHaveLength(1);
  });

  it('the conformance report of a trace of the corpus is the same with and without the fast path', () => {
    const records: TraceRecord[] = corpus().map((p, i) => ({ kind: 'wire', t: i, dir: 'in', msg: { jsonrpc: '2.0', method: 'session/update', params: p as Json } }) as TraceRecord);
    const withFast = conformanceReport({ records });
    const spy = vi.spyOn(schema, 'validateParams').mockImplementation((method, p) => schema.validateParamsFully(method, p));
    try {
      const withoutFast = conformanceReport({ records });
      expect(spy).toHaveBeenCalled();
      expect(withFast).toEqual(withoutFast);
      expect(withFast.findings.some((f) => f.rule === 'schema-params')).toBe(true);
      expect(withFast.findings.some((f) => f.rule === 'schema-tolerated')).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});
