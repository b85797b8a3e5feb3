import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER, formatLatency, formatSize, formatTime, isFiltered, methodLabel, parseJson, toQuery, toggleIn } from './format';

describe('inspector formatting', () => {
  it('writes times, sizes and latencies compactly', () => {
    expect(formatTime(12345.6)).toBe('12.346');
    expect([formatSize(512), formatSize(2048), formatSize(20 * 1024), formatSize(3 * 1024 * 1024)]).toEqual(['512 B', '2.0 KB', '20 KB', '3.0 MB']);
    expect([formatLatency(undefined), formatLatency(2.25), formatLatency(120.4), formatLatency(1500), formatLatency(25_000)]).toEqual(['', '2.3 ms', '120 ms', '1.50 s', '25.0 s']);
  });

  it('names a row by its update kind, method, or what the line was', () => {
    const row = { index: 0, line: 2, t: 0, dir: 'in' as const, size: 1, preview: '' };
    expect(methodLabel({ ...row, kind: 'notification', method: 'session/update', updateKind: 'plan' })).toBe('plan');
    expect(methodLabel({ ...row, kind: 'response', method: 'initialize' })).toBe('initialize');
    expect(methodLabel({ ...row, kind: 'noise' })).toBe('(stdout noise)');
  });

  it('turns the panel filter into the core query; empty lists mean all', () => {
    expect(toQuery(EMPTY_FILTER, [1])).toEqual({ scope: 'session' });
    expect(isFiltered(EMPTY_FILTER)).toBe(false);
    const f = { ...EMPTY_FILTER, dirs: toggleIn([], 'in' as const), method: 'session/update', updateKind: 'plan', search: ' x ', pinnedOnly: true };
    expect(toQuery(f, [3, 1])).toEqual({ scope: 'session', dirs: ['in'], methods: ['session/update'], updateKinds: ['plan'], search: 'x', indexes: [3, 1] });
    expect(isFiltered(f)).toBe(true);
    expect(toggleIn(['in', 'out'], 'in')).toEqual(['out']);
  });

  it('parses typed JSON or says what is wrong', () => {
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJson('  ')).toEqual({ ok: false, message: 'Type a JSON value' });
    expect(parseJson('{a}').ok).toBe(false);
  });
});
