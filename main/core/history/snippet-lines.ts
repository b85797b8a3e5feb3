/**
 * Which trace lines a snippet search may pass over unparsed: a line whose JSON text cannot hold a
 * query word, nor a streamed piece, nor a terminal record. Parsing such a line would only hand the
 * snippet collector texts without a query word (which it drops) and perhaps end its open streams —
 * so it is passed over only while no stream is open (snippets.ts), and the snippets come out
 * exactly the same. The test is one regular expression over the line as it is in the file: much
 * cheaper than `JSON.parse` and extracting its texts.
 *
 * Why that is exact, for a line that passes the test:
 * - it is ASCII without `\u` escapes, so its strings are its characters but for the escapes
 *   `\n \t \" \\ \/ \b \f \r`, none of which decodes to a letter or digit: a query word (letters and
 *   digits) in a decoded string is in the line too, in any case (the test ignores case, as the
 *   snippet's word search does), and no accent folding applies to ASCII;
 * - it holds no `_chunk`, so it is no streamed message piece (the only texts joined across lines);
 * - it holds no `terminal`, so it is no terminal record (the only records whose effect depends on
 *   earlier ones: a terminal's output is taken once);
 * - every other record only gives whole texts and may end the open streams.
 * A query word that is not plain ASCII letters and digits turns the test off (undefined).
 */
import type { QueryTerm } from './search';

const ASCII_WORD = /^[a-z0-9]+$/;

/** A test of a trace line (its JSON text): true when it cannot add to the snippets of `query` (see above). */
export function lineCannotMatch(query: readonly QueryTerm[]): ((line: string) => boolean) | undefined {
  if (query.length === 0 || query.some((q) => !ASCII_WORD.test(q.term))) return undefined;
  // Word starts and word ends alike are substrings: the test only has to be a superset.
  const re = new RegExp(`${query.map((q) => q.term).join('|')}|_chunk|terminal|\\\\u|[^\\x00-\\x7f]`, 'i');
  return (line) => !re.test(line);
}
