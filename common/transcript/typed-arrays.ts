/**
 * What the structures kept outside the JS heap share (path-list-arena.ts, tool-call-table.ts,
 * live-transcript.ts): typed arrays grown by doubling, and UTF-8 both hosts have.
 */

// Both hosts (Node, the browser) have these; common/ is compiled without either's types.
declare const TextEncoder: { new (): { encodeInto(text: string, into: Uint8Array): { read: number; written: number } } };
declare const TextDecoder: { new (): { decode(bytes: Uint8Array): string } };

export const utf8Encoder = new TextEncoder();
export const utf8Decoder = new TextDecoder();

type Typed = Uint8Array | Uint32Array | Int32Array | Float64Array;

/**
 * `array` when it holds `need` elements already; else one of its type at least twice as long
 * (doubling until `need` fits) with its first `keep` elements copied.
 */
export function withRoom<A extends Typed>(array: A, need: number, keep = array.length): A {
  if (need <= array.length) return array;
  let size = Math.max(1, array.length) * 2;
  while (size < need) size *= 2;
  const bigger = new (array.constructor as new (length: number) => A)(size);
  bigger.set(array.subarray(0, keep));
  return bigger;
}
