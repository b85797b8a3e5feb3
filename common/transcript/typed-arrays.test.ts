import { describe, expect, it } from 'vitest';
import { utf8Decoder, utf8Encoder, withRoom } from './typed-arrays';

describe('withRoom', () => {
  it('gives the array itself while it has room, else a doubled one of its type with what was kept', () => {
    const a = Uint32Array.of(1, 2, 3, 4);
    expect(withRoom(a, 4)).toBe(a);
    const b = withRoom(a, 5);
    expect(b).toBeInstanceOf(Uint32Array);
    expect([...b]).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
    expect(withRoom(Float64Array.of(0.5), 9).length).toBe(16);
    const bytes = withRoom(Uint8Array.of(7, 8, 9), 4, 2);
    expect([...bytes]).toEqual([7, 8, 0, 0, 0, 0]);
    expect(withRoom(new Int32Array(0), 1).length).toBe(2);
  });

  it('encodes and decodes UTF-8', () => {
    const into = new Uint8Array(16);
    const { written } = utf8Encoder.encodeInto('é日', into);
    expect(written).toBe(5);
    expect(utf8Decoder.decode(into.subarray(0, written))).toBe('é日');
  });
});
