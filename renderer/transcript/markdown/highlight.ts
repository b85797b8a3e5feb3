/**
 * A small syntax highlighter for settled code blocks: comments, strings, numbers and keywords of
 * the common languages, and +/- lines of diffs. Not a parser — good enough to read code, cheap
 * enough to run once per block. Pure: no DOM, tested in Node.
 */

export type TokenType = 'keyword' | 'string' | 'comment' | 'number' | 'literal' | 'add' | 'del' | 'meta';
export interface Token {
  type: TokenType | null;
  text: string;
}

/** Past this size a block is shown plain: thousands of spans cost more than they help. */
export const MAX_HIGHLIGHT_CHARS = 60_000;

type Family = 'c' | 'hash' | 'sql' | 'css' | 'markup' | 'diff' | 'json';

const FAMILY: Record<string, Family> = {};
const assign = (family: Family, names: string) => names.split(' ').forEach((n) => (FAMILY[n] = family));
assign('c', 'js javascript jsx mjs cjs ts typescript tsx mts cts java c h cpp c++ cc hpp cs csharp go golang rust rs swift kotlin kt scala php dart zig groovy');
assign('hash', 'py python sh bash zsh shell console shellsession fish yaml yml toml ruby rb r perl pl makefile make dockerfile docker ini conf nix elixir ex exs powershell ps1');
assign('sql', 'sql psql mysql sqlite lua haskell hs');
assign('css', 'css scss less');
assign('markup', 'html xml svg vue');
assign('diff', 'diff patch');
assign('json', 'json jsonc json5 jsonl');

const KEYWORDS = new Set(
  (
    'abstract and as async await break case catch class const continue def default defer del delete do elif else enum export extends ' +
    'extern final finally fn for foreach from func function go if impl implements import in instanceof interface is lambda let loop match ' +
    'mod module move mut namespace new not or override package pass private protected pub public raise readonly return select self ' +
    'static struct super switch this throw throws trait try type typeof union unsafe use using var virtual void volatile where while with ' +
    'yield fi then esac done echo local export function begin end elsif unless until module require declare keyof satisfies'
  ).split(' '),
);
const SQL_KEYWORDS = new Set(
  'select from where insert into values update set delete create table drop alter add join left right inner outer on group by order having limit offset as and or not null is in like distinct union all primary key foreign references index view begin commit rollback local function return end then if else elseif for do while repeat until let where case of'.split(
    ' ',
  ),
);
const LITERALS = new Set('true false null undefined none None True False nil NaN Infinity'.split(' '));

const C_LIKE = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\[\s\S])*`?)|(\b(?:0[xXbBoO][\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)\b)|([A-Za-z_$][\w$]*)/g;
const HASH = /(#[^\n]*)|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(\b\d[\d_]*(?:\.\d+)?\b)|([A-Za-z_][\w-]*)/g;
const SQL = /(--[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|'')*'?)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][\w]*)/g;
const CSS = /(\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(#[\da-fA-F]{3,8}\b|-?\b\d+(?:\.\d+)?(?:px|em|rem|%|vh|vw|s|ms|deg)?\b)|(@[\w-]+|!important)/g;
const MARKUP = /(<!--[\s\S]*?(?:-->|$))|("[^"\n]*"?|'[^'\n]*'?)|(&[#\w]+;)|(<\/?[A-Za-z][\w:-]*|\/?>)/g;
const JSON_RE = /(\/\/[^\n]*)|("(?:[^"\\\n]|\\.)*"?)|(-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|(\b(?:true|false|null)\b)/g;

function push(out: Token[], type: TokenType | null, text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.type === type) last.text += text;
  else out.push({ type, text });
}

function tokenize(code: string, re: RegExp, word: (w: string) => TokenType | null, fourth: TokenType | null): Token[] {
  const out: Token[] = [];
  let at = 0;
  re.lastIndex = 0;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    push(out, null, code.slice(at, m.index));
    if (m[1] !== undefined) push(out, 'comment', m[0]);
    else if (m[2] !== undefined) push(out, 'string', m[0]);
    else if (m[3] !== undefined) push(out, 'number', m[0]);
    else push(out, fourth ?? word(m[0]), m[0]);
    at = m.index + m[0].length;
  }
  push(out, null, code.slice(at));
  return out;
}

function diffTokens(code: string): Token[] {
  const out: Token[] = [];
  for (const line of code.split(/(?<=\n)/)) {
    if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@')) push(out, 'meta', line);
    else if (line.startsWith('+')) push(out, 'add', line);
    else if (line.startsWith('-')) push(out, 'del', line);
    else push(out, null, line);
  }
  return out;
}

const codeWord = (w: string): TokenType | null => (KEYWORDS.has(w) ? 'keyword' : LITERALS.has(w) ? 'literal' : null);
const sqlWord = (w: string): TokenType | null => (SQL_KEYWORDS.has(w.toLowerCase()) ? 'keyword' : LITERALS.has(w) || /^(true|false|null)$/i.test(w) ? 'literal' : null);

/** Tokens for `code` in language `lang`; one plain token when the language is unknown or the code too big. */
export function highlightCode(code: string, lang: string): Token[] {
  const family = FAMILY[lang.toLowerCase()];
  if (!family || code.length > MAX_HIGHLIGHT_CHARS) return code ? [{ type: null, text: code }] : [];
  switch (family) {
    case 'c':
      return tokenize(code, C_LIKE, codeWord, null);
    case 'hash':
      return tokenize(code, HASH, codeWord, null);
    case 'sql':
      return tokenize(code, SQL, sqlWord, null);
    case 'css':
      return tokenize(code, CSS, () => null, 'keyword');
    case 'markup':
      return tokenize(code, MARKUP, () => null, 'keyword');
    case 'json':
      return tokenize(code, JSON_RE, () => null, 'literal');
    case 'diff':
      return diffTokens(code);
  }
}
