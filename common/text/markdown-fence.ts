/** Markdown code around text that no backtick inside it can end. */

/** The longest run of backticks in `text` (0 when none). */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/** A code-block fence longer than any backtick run in `text`, at least three backticks. */
function fenceFor(text: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
}

/** A fenced code block's lines: the opening fence (with `lang`), the text, the closing fence. */
export function codeBlock(text: string, lang = ''): [string, string, string] {
  const fence = fenceFor(text);
  return [`${fence}${lang}`, text, fence];
}
