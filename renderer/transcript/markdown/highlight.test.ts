import { describe, expect, it } from 'vitest';
import { highlightCode, MAX_HIGHLIGHT_CHARS } from './highlight';

const typed = (code: string, lang: string) => highlightCode(code, lang).filter((t) => t.type).map((t) => [t.type, t.text]);

describe('highlighter', () => {
  it('marks keywords, strings, numbers and comments in C-like code, losing no text', () => {
    const code = 'const x = "a // not a comment"; // real\nreturn 42 /* c */ + y;';
    const tokens = highlightCode(code, 'ts');
    expect(tokens.map((t) => t.text).join('')).toBe(code);
    expect(typed(code, 'ts')).toEqual([
      ['keyword', 'const'],
      ['string', '"a // not a comment"'],
      ['comment', '// real'],
      ['keyword', 'return'],
      ['number', '42'],
      ['comment', '/* c */'],
    ]);
  });

  it('knows hash comments, SQL and diffs', () => {
    expect(typed('x = 1  # note', 'python')).toEqual([['number', '1'], ['comment', '# note']]);
    expect(typed('SELECT a FROM t -- c', 'sql')).toEqual([['keyword', 'SELECT'], ['keyword', 'FROM'], ['comment', '-- c']]);
    expect(typed('@@ -1 +1 @@\n-a\n+b\n c', 'diff')).toEqual([['meta', '@@ -1 +1 @@\n'], ['del', '-a\n'], ['add', '+b\n']]);
  });

  it('leaves unknown languages and huge blocks plain', () => {
    expect(highlightCode('const a', 'brainfuck')).toEqual([{ type: null, text: 'const a' }]);
    const big = 'a'.repeat(MAX_HIGHLIGHT_CHARS + 1);
    expect(highlightCode(big, 'js')).toEqual([{ type: null, text: big }]);
  });

  it('terminates on unclosed strings and comments', () => {
    expect(highlightCode('"abc\n/* open', 'js').map((t) => t.text).join('')).toBe('"abc\n/* open');
  });
});
