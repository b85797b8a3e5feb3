import { describe, expect, it } from 'vitest';
import { envelopeOf } from './envelope';

describe('envelopeOf', () => {
  it('judges each shape and lists every problem of the envelope', () => {
    const cases: Array<[Record<string, unknown>, string, string[], boolean?]> = [
      [{ jsonrpc: '2.0', method: 'session/update', params: {} }, 'notification', []],
      [{ jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: {} }, 'request', []],
      [{ jsonrpc: '2.0', id: 'x', result: {} }, 'response', []],
      [{ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } }, 'response', []],
      [{ method: 'session/update' }, 'notification', ['"jsonrpc" is not "2.0"']],
      [{ jsonrpc: '2.0', method: 'm', params: 3 }, 'notification', ['"params" is not an object or array']],
      [{ jsonrpc: '1.0', method: 'm', params: null, id: 1.5 }, 'request', ['"jsonrpc" is not "2.0"', '"params" is not an object or array', '"id" is not a string, an integer or null']],
      [{ jsonrpc: '2.0', method: 'm', id: null }, 'request', ['a request with a null "id"']],
      [{ jsonrpc: '2.0', method: 7 }, 'invalid', ['"method" is not a string']],
      [{ method: 7 }, 'invalid', ['"jsonrpc" is not "2.0"', '"method" is not a string']],
      [{ jsonrpc: '2.0', note: 'x' }, 'invalid', ['neither a request, a notification nor a response']],
      [{ note: 'x' }, 'invalid', ['"jsonrpc" is not "2.0"', 'neither a request, a notification nor a response']],
      [{ jsonrpc: '2.0', id: {} }, 'response', ['"id" is not a string, an integer or null', 'a response with neither "result" nor "error"']],
      [{ jsonrpc: '2.0', id: 1, error: { code: 'x' } }, 'response', ['"error" needs an integer "code" and a string "message"']],
      [{ jsonrpc: '2.0', id: null, result: 1 }, 'response', ['a result with a null "id"']],
      [{ jsonrpc: '2.0', id: 1, result: 1, error: { code: 1, message: 'm' } }, 'response', [], true],
      [{ jsonrpc: '2.0', id: null, result: 1, error: null }, 'response', [], true],
    ];
    for (const [msg, shape, problems, resultAndError = false] of cases) {
      expect(envelopeOf(msg), JSON.stringify(msg)).toEqual({ shape, problems, resultAndError });
    }
  });

  it('gives a message without a problem a shared envelope nobody can change, and one with a problem its own', () => {
    const a = envelopeOf({ jsonrpc: '2.0', method: 'session/update', params: {} });
    expect(envelopeOf({ jsonrpc: '2.0', method: 'x' })).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.problems)).toBe(true);
    expect(() => (a.problems as string[]).push('x')).toThrow();
    expect(envelopeOf({ jsonrpc: '2.0', id: 1, method: 'm' })).toBe(envelopeOf({ jsonrpc: '2.0', id: 'k', method: 'n', params: [] }));
    expect(envelopeOf({ jsonrpc: '2.0', id: 1, result: null })).toBe(envelopeOf({ jsonrpc: '2.0', id: 2, error: { code: 1, message: 'm' } }));
    const withProblem = () => envelopeOf({ method: 'm' });
    expect(withProblem()).not.toBe(withProblem());
    expect(withProblem().problems).not.toBe(withProblem().problems);
    // Both result and error: not the shared response envelope.
    expect(envelopeOf({ jsonrpc: '2.0', id: 1, result: 1, error: { code: 1, message: 'm' } }).resultAndError).toBe(true);
  });
});
