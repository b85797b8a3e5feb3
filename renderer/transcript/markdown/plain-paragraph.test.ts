import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';
import { plainParagraph } from './plain-paragraph';

const viaParser = (text: string) => renderToStaticMarkup(createElement(ReactMarkdown, null, text));
const viaView = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

const PLAIN = [
  '12 the quick brown fox jumps over a lazy dog while agents',
  'Hello, world.',
  'Done: 3 files changed (2 added), see src/app.ts line 40 - 50% faster!',
  'Déjà vu: naïve café, 東京 and Ελληνικά',
  'It costs $5 or 5 % @ 2x = 10 + tax; issue #11 is open?',
  'trailing spaces and blank lines   \n\n',
  '@reviewer please look at line 12',
  '@1764625789123.456;10 fox jumps over a lazy dog @1764625789127.001;11 the quick',
];
const NOT_PLAIN = [
  '**bold** text',
  'snake_case words',
  'a `code` span',
  'a [link](https://example.com)',
  'html <b>tag</b>',
  'an &amp; entity',
  'escaped \\* star',
  '1. first item',
  '3) third item',
  '# heading',
  '- item',
  '+ item',
  '> quote',
  '    indented code',
  'two\nlines',
  'Title\n===',
  '~~struck~~',
  'a | table',
  '',
  '   ',
  '@user **bold**',
  '@ # not a heading but has a hash then `code`',
];

describe('plain paragraphs', () => {
  it('recognizes one line of prose and nothing with markdown syntax', () => {
    for (const t of PLAIN) expect(plainParagraph(t), t).not.toBeNull();
    for (const t of NOT_PLAIN) expect(plainParagraph(t), t).toBeNull();
  });

  it('renders plain paragraphs exactly as the markdown parser does', () => {
    for (const t of PLAIN) {
      const html = viaView(t);
      expect(html).toBe(`<div class="tx-md" data-testid="markdown">${viaParser(t)}</div>`);
    }
  });
});
