/**
 * Recognizes markdown that can only be one plain paragraph: a single line of letters, digits,
 * spaces and punctuation that no markdown construct starts with (no emphasis, code, links, HTML,
 * entities, escapes; no list, heading or code marker at its start). Such a block renders as
 * `<p>{text}</p>` without the remark/rehype pipeline — the bulk of a long agent transcript is prose
 * like this, and parsing it was most of the script time of a scrolling frame (issue #11). Anything
 * else goes through react-markdown as before; `plain-paragraph.test.ts` checks both give the same HTML.
 */
/** Also `@` first: no CommonMark construct starts with it (a mention, a decorator name, a timestamp tag). */
const PLAIN = /^[\p{L}\p{N}@][\p{L}\p{N}\p{M} ,.;:'"?!()/%@$=+#-]*$/u;
/** A line starting with digits and `.` or `)` is an ordered list item. */
const ORDERED_ITEM = /^\p{N}{1,9}[.)]/u;

/** The paragraph's text when `block` is a plain paragraph (trailing blank lines removed), else null. */
export function plainParagraph(block: string): string | null {
  const text = block.trimEnd();
  if (text.length === 0 || text.length > 2000 || !PLAIN.test(text) || ORDERED_ITEM.test(text)) return null;
  return text;
}
