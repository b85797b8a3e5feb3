import { describe, expect, it } from 'vitest';
import { WireHeads } from './wire-head';

/** What the text must equal: the record's JSON as if `msg` were not there, open, then `,"msg":`. */
const reference = (record: object): string => `${JSON.stringify({ ...record, msg: undefined }).slice(0, -1)},"msg":`;

/** A small deterministic generator (the same sequence every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('WireHeads', () => {
  it('gives the JSON head of every record of a connection, t changing, the rest kept', () => {
    const heads = new WireHeads();
    for (let i = 0; i < 2000; i++) {
      const record = { kind: 'wire', t: i * 1.013, dir: 'in', sessionId: 's-1', agentSessionId: 'flood-1', msg: { i } };
      expect(heads.of(record)).toBe(reference(record));
    }
  });

  it('never reuses the kept text for a record that differs in anything but t (generated sequences)', () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const values: unknown[] = ['s-1', 's-2', 's-1 ', 'quote " and \\', '"t":1', ',"t":2', 0, -0, 1, 2.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY, true, false, undefined, null, { a: 1 }, [1]];
    const times: unknown[] = [0, 1, 1.5, 1234.567, 0.001, -0, 1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY, '5', undefined, null];
    const keySets = [
      ['kind', 't', 'dir', 'sessionId', 'agentSessionId', 'msg'],
      ['kind', 't', 'dir', 'msg', 'sessionId', 'agentSessionId'],
      ['t', 'kind', 'dir', 'sessionId', 'msg'],
      ['kind', 'dir', 't', 'msg', 'problem', 'invalidUtf8'],
      ['kind', 'dir', 'msg'],
      ['msg', 't'],
      ['t'],
      ['kind', 't', 'dir', 'sessionId', 'agentSessionId', 'msg', 'unchecked'],
    ];
    for (let run = 0; run < 50; run++) {
      const heads = new WireHeads();
      let keys = pick(keySets);
      let fields = new Map(keys.map((k) => [k, k === 't' ? 1 : pick(values)]));
      for (let step = 0; step < 200; step++) {
        const change = next();
        if (change < 0.05) {
          keys = pick(keySets);
          fields = new Map(keys.map((k) => [k, k === 't' ? 1 : pick(values)]));
        } else if (change < 0.15) {
          const key = pick(keys);
          if (key !== 't') fields.set(key, pick(values));
        }
        const record: Record<string, unknown> = {};
        for (const k of keys) record[k] = k === 't' ? (next() < 0.8 ? Math.round(next() * 1e9) / 1000 : pick(times)) : k === 'msg' ? { step } : fields.get(k);
        // An object value may change in place between two records.
        const nested = [...fields.values()].find((v) => typeof v === 'object' && v !== null && !Array.isArray(v)) as { a?: number } | undefined;
        if (nested && next() < 0.3) nested.a = step;
        expect(heads.of(record)).toBe(reference(record));
        if (next() < 0.1) expect(heads.of(Object.freeze({ ...record }))).toBe(reference(record));
      }
    }
  });

  it('follows records that are not plain objects, and strings that hold "t":', () => {
    const heads = new WireHeads();
    class Wire {
      kind = 'wire';
      t = 1;
      msg = {};
    }
    const withToJson = { kind: 'wire', t: 2, msg: {}, toJSON: () => ({ other: true }) };
    const sequence: object[] = [
      { kind: 'wire', t: 1, dir: 'in', note: ',"t":1,', msg: {} },
      { kind: 'wire', t: 2, dir: 'in', note: ',"t":1,', msg: {} },
      { kind: 'wire', t: 1, dir: 'in', note: ',"t":2,', msg: {} },
      new Wire(),
      { kind: 'wire', t: 1, msg: {} },
      withToJson,
      { kind: 'wire', t: 3, msg: {}, toJSON: undefined },
      { kind: 'wire', t: 3, msg: {} },
    ];
    for (const record of sequence) expect(heads.of(record)).toBe(`${recordHeadReference(record)},"msg":`);
  });

  it('notices a toJSON that appears on Object.prototype after the text was kept', () => {
    const heads = new WireHeads();
    const record = (t: number) => ({ kind: 'wire', t, dir: 'in', msg: {} });
    expect(heads.of(record(1))).toBe(reference(record(1)));
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => ({ polluted: true }), configurable: true, writable: true });
    try {
      expect(heads.of(record(2))).toBe(`${recordHeadReference(record(2))},"msg":`);
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
    expect(heads.of(record(3))).toBe(reference(record(3)));
  });
});

/** recordHead's own rule for records it hands to JSON.stringify (another prototype, a toJSON). */
function recordHeadReference(record: object): string {
  return JSON.stringify(record, function (this: unknown, key, value: unknown) {
    return key === 'msg' && this === record ? undefined : value;
  }).slice(0, -1);
}
