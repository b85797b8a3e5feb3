import { describe, expect, it } from 'vitest';
import { recordHead } from './record-head';

/** What the head must equal: the record's JSON as if `msg` were not there. */
const reference = (record: object): string => JSON.stringify({ ...record, msg: undefined });

describe('recordHead', () => {
  it('is the JSON of the record without msg, key order kept, for the records the core writes', () => {
    const records: object[] = [
      { kind: 'wire', t: 1234.567, dir: 'in', msg: { jsonrpc: '2.0', method: 'session/update' }, agentSessionId: 'a-1', sessionId: 's-1' },
      { kind: 'wire', t: 0, dir: 'out', msg: { id: 1 }, unchecked: true },
      { kind: 'wire', t: 5.001, dir: 'in', msg: {}, problem: 'missing "jsonrpc": "2.0"; not valid UTF-8', invalidUtf8: true, sessionId: 's-2' },
      { msg: 1, kind: 'wire', t: 12 },
      { kind: 'wire', t: 7, dir: 'in', sessionId: 'quote " backslash \\ newline \n tab \t \u0001 \u2028 lone \ud800 é 😀' },
      { kind: 'wire', t: -0, dir: 'in', n: Number.NaN, inf: Number.POSITIVE_INFINITY, big: 1e21, small: 1e-7, neg: -3.25 },
      { kind: 'wire', t: 1, skip: undefined, fn: () => 1, sym: Symbol('x'), nul: null, bool: false },
      { kind: 'wire', t: 1, nested: { a: [1, 'b', null, undefined], toJSON: undefined }, date: new Date(0), list: [undefined, () => 1] },
      { 2: 'two', kind: 'wire', 1: 'one', t: 3 },
      { kind: 'wire', msg: { x: 1 } },
      {},
    ];
    for (const record of records) expect(recordHead(record)).toBe(reference(record));
  });

  it('gives the same text for the same record many times (cached quoting) and for long and changing strings', () => {
    for (let i = 0; i < 50; i++) {
      const record = { kind: 'wire', t: i / 1000, dir: i % 2 ? 'in' : 'out', msg: {}, agentSessionId: `a-${i % 3}`, sessionId: `s-${i % 11}`, problem: 'p'.repeat(i * 13) };
      expect(recordHead(record)).toBe(reference(record));
    }
  });

  it('leaves the record as it was, frozen or not', () => {
    const msg = { jsonrpc: '2.0' };
    const record = { kind: 'wire', t: 1, dir: 'in', msg, sessionId: 's' };
    const frozen = Object.freeze({ ...record });
    expect(recordHead(record)).toBe(reference(record));
    expect(recordHead(frozen)).toBe(reference(record));
    expect(record.msg).toBe(msg);
    expect(frozen.msg).toBe(msg);
  });

  it('defers to JSON.stringify for what is not a plain object of own fields', () => {
    class Wire {
      kind = 'wire';
      t = 2;
      msg = { a: 1 };
    }
    const inherited = Object.create({ inheritedField: 'x' }) as Record<string, unknown>;
    inherited.kind = 'wire';
    inherited.msg = {};
    const withToJson = { kind: 'wire', t: 1, msg: {}, toJSON: () => ({ replaced: true }) };
    expect(recordHead(new Wire())).toBe('{"kind":"wire","t":2}');
    expect(recordHead(inherited)).toBe('{"kind":"wire"}');
    expect(recordHead(withToJson)).toBe(JSON.stringify(withToJson));
  });
});
