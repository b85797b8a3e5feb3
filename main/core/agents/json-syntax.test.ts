import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax';

describe('findJsonSyntaxError', () => {
  it('accepts valid JSON', () => {
    for (const text of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]} ', '"s"', '0']) {
      expect(findJsonSyntaxError(text), text).toBeUndefined();
    }
  });

  it('points at the first error with line and column', () => {
    expect(findJsonSyntaxError('{\n  "a": 1,\n}')).toEqual({ line: 3, column: 1, message: 'unexpected "}" where a "key" was expected (trailing comma?)' });
    expect(findJsonSyntaxError('{"a" 1}')).toMatchObject({ line: 1, column: 6, message: 'unexpected "1" where ":" was expected' });
    expect(findJsonSyntaxError('[1, 2,]')).toMatchObject({ line: 1, column: 7 });
    expect(findJsonSyntaxError('{"a": "b\nc"}')).toMatchObject({ line: 1, message: 'control character (a raw line break?) inside a string' });
    expect(findJsonSyntaxError('{"a": 1} x')).toMatchObject({ column: 10, message: 'unexpected "x" after the end of the document' });
    expect(findJsonSyntaxError('{"a": ')).toMatchObject({ message: 'unexpected end of file where a value was expected' });
    expect(findJsonSyntaxError("{'a': 1}")).toMatchObject({ column: 2 });
  });

  it('agrees with JSON.parse on what is valid', () => {
    const samples = ['{"a":1}', '{"a":01}', '[1,]', '{"a":"\\x"}', '  ', 'nul', '[1 2]', '{"a":{"b":[{}]}}', '1.', '-'];
    for (const text of samples) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(findJsonSyntaxError(text) === undefined, text).toBe(valid);
    }
  });
});
