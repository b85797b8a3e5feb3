import { describe, expect, it } from 'vitest';
import { canonicalUpdateSpan } from './canonical-update';

const line = (text: string) => Buffer.from(text, 'utf8');
const notification = (update: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } });
/** The bytes the span points at, as text; undefined when there is no span. */
const spanned = (text: string) => {
  const bytes = line(text);
  const span = canonicalUpdateSpan(bytes);
  return span && bytes.subarray(span[0], span[1]).toString('utf8');
};

describe('canonicalUpdateSpan', () => {
  it('finds the update of lines as JSON.stringify writes them, bytes equal to serializing it again', () => {
    const updates: unknown[] = [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello, "world" \\ ünïcödé 🚀 \n\t\r\b\f \u0001\u001f\u007f\u2028' } },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'tc-1',
        status: 'in_progress',
        content: [{ type: 'diff', path: '/p/a.ts', oldText: 'a\nb\n', newText: 'export const x = "1";\n' }],
        locations: [],
        rawInput: { n: -12, big: 123456789012345, zero: 0, yes: true, no: false, nothing: null, list: [[], {}, [1, [2]]] },
      },
      { sessionUpdate: 'usage_update', used: 5300, size: 200000 },
      'a string update',
      42,
      null,
      [],
      {},
    ];
    for (const u of updates) expect(spanned(notification(u))).toBe(JSON.stringify(u));
  });

  it('allows whitespace and any key order outside the update, and takes the last of repeated keys as JSON.parse does', () => {
    expect(spanned(' { "params" : { "update" : {"a":1} , "sessionId":"x"} , "jsonrpc" : "2.0", "method":"session/update" } ')).toBe('{"a":1}');
    expect(spanned('{"params":{"update":{"a":1},"update":{"b":2}}}')).toBe('{"b":2}');
    expect(spanned('{"params":{"update":{"a":1}},"params":{"update":{"c":3}}}')).toBe('{"c":3}');
    // A later params without an update: JSON.parse gives no update, so neither does the span.
    expect(spanned('{"params":{"update":{"a":1}},"params":{}}')).toBeUndefined();
    // Text that looks like the key inside a string is text.
    expect(spanned('{"method":"\\"params\\":{\\"update\\":1}","params":{"x":"\\"update\\":2","update":3}}')).toBe('3');
  });

  it('gives no span when the update would print differently (the caller then serializes it)', () => {
    const differs = [
      '{"a": 1}', // whitespace inside
      '{ "a":1}',
      '[1, 2]',
      '"a\\/b"', // escaped slash
      '"\\u0041"', // an escape JSON.stringify does not write
      '"\\u001F"', // uppercase hex
      '"\\u000a"', // has a short escape (\n)
      '"\\ud83d\\ude80"', // a pair: printed as the character
      '1.0',
      '1.5',
      '1e3',
      '-0',
      '1234567890123456', // 16 digits
      '{"a":1,"a":2}', // a key twice
      '{"b":1,"1":2}', // V8 prints integer-like keys first
      '{"a\\u0062":1}', // an escaped key
    ];
    for (const update of differs) {
      const text = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":${update}}}`;
      expect(JSON.parse(text)).toBeTruthy(); // well-formed: only the form differs
      expect(spanned(text), update).toBeUndefined();
    }
  });

  it('gives no span without an update or for what is not a well-formed object', () => {
    for (const text of ['{}', '{"params":{}}', '{"params":[]}', '{"params":"update"}', '[1]', '{"params":{"update":{"a":1}}', '{"params":{"update":"x}}', '{"params":{"update":1}} x']) {
      expect(spanned(text), text).toBeUndefined();
    }
  });

  it('never gives a span whose bytes differ from JSON.stringify of the parsed update (random values, random spacing)', () => {
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T,>(items: T[]): T => items[Math.floor(rand() * items.length)]!;
    const strings = ['', 'a', 'update', 'x"y', 'back\\slash', 'line\nnext', 'tab\t', '\u0000', 'é', '🚀', '1', '12', 'a/b', ' spaced '];
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth > 3 || r < 0.3) return pick<unknown>([...strings, 0, -1, 7, 1.5, 1e21, true, false, null]);
      if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 4); i > 0; i--) o[pick(strings)] = value(depth + 1);
      return o;
    };
    // Re-serialize with optional whitespace, alternative escapes and repeated keys: the same value once parsed.
    const render = (v: unknown): string => {
      const ws = () => (rand() < 0.1 ? ' ' : '');
      if (typeof v === 'string') return rand() < 0.2 ? JSON.stringify(v).replace(/\//g, '\\/').replace(/a/g, '\\u0061') : JSON.stringify(v);
      if (Array.isArray(v)) return `[${ws()}${v.map(render).join(`${ws()},${ws()}`)}${ws()}]`;
      if (v && typeof v === 'object') {
        const entries = Object.entries(v);
        // Sometimes a key twice: JSON.parse keeps the last, so the first one's value is lost.
        if (entries.length && rand() < 0.2) entries.unshift([entries[0]![0], 'dropped']);
        return `{${ws()}${entries.map(([k, x]) => `${render(k)}${ws()}:${ws()}${render(x)}`).join(',')}${ws()}}`;
      }
      return JSON.stringify(v);
    };
    let spans = 0;
    for (let i = 0; i < 3000; i++) {
      const update = value(0);
      const text = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":${render(update)}}}`;
      const got = spanned(text);
      if (got === undefined) continue;
      spans++;
      expect(got).toBe(JSON.stringify((JSON.parse(text) as { params: { update: unknown } }).params.update));
    }
    expect(spans).toBeGreaterThan(300); // the canonical ones are taken
  });
});
