/**
 * What an inspector search looks in — a message's JSON (`JSON.stringify(msg)`), a noise or stderr
 * line's text, an oversize line's head — lower-cased, at most HAY_LIMIT characters; and a cheap
 * test on the raw trace line that rules a line out without parsing it, when that is certain.
 *
 * Why the raw test is sound: a trace line is the record's JSON. When the line has no backslash
 * (no escapes: every string's characters are the same in the line and in the re-serialized JSON)
 * and no number that JSON.stringify would spell differently with letters (an exponent, a run of
 * 16+ digits, a tiny decimal), and the needle has no whitespace, no JSON punctuation, no digit,
 * sign or dot, then any place the needle occurs in the search text lies inside one string (or
 * `true`/`false`/`null`) token, which occurs as such in the line: if the lower-cased line does not
 * contain the needle, the search text does not either. Otherwise the line is parsed and the search
 * text made exactly as before.
 */
import type { TraceRecord } from '../../../../common/trace/records';

/** Search text kept per row, at most (a 30 MB file read is searched in its first 256 KiB). */
export const HAY_LIMIT = 256 * 1024;

export function searchText(r: TraceRecord): string {
  switch (r.kind) {
    case 'wire':
      return JSON.stringify(r.msg);
    case 'noise':
      return 'text' in r ? r.text : r.base64;
    case 'stderr':
      return r.text;
    case 'oversize':
      return r.head;
    default:
      return '';
  }
}

/** The lower-cased search text of a record, cut at HAY_LIMIT. */
export function hayOf(r: TraceRecord): string {
  const text = searchText(r);
  return (text.length > HAY_LIMIT ? text.slice(0, HAY_LIMIT) : text).toLowerCase();
}

/** The needle can only ever match inside one string token (see the header). */
export function plainNeedle(needle: string): boolean {
  return needle.length > 0 && !/[\s"\\:,{}[\]0-9.+-]/.test(needle);
}

/** The line's strings and numbers serialize back the same, letter for letter (see the header). */
export function plainLine(line: string): boolean {
  return !line.includes('\\') && !/[0-9][eE]|[0-9]{16}|\.0{5}/.test(line);
}

/**
 * False only when the raw line certainly does not match `needle` (lower-cased, plain); true means
 * "parse it and look" (it may or may not).
 */
export function lineMayMatch(line: string, needle: string, needleIsPlain: boolean): boolean {
  if (!needleIsPlain || !plainLine(line)) return true;
  return line.toLowerCase().includes(needle);
}
