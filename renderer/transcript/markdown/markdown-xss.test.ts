import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

const render = (text: string, streaming = false) => renderToStaticMarkup(createElement(Markdown, { text, streaming }));

/** Inputs from the usual XSS cheat sheets, as an agent could send them (block and inline positions). */
const CORPUS = [
  '<script>alert(1)</script>',
  'before <script>alert(1)</script> after',
  '<img src=x onerror=alert(1)>',
  'text <img src="x" onerror="alert(1)"> inline',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  '<style>body{display:none}</style>',
  '<object data="x.swf"></object><embed src="x"><form action="https://evil"><input name=a></form>',
  '<a href="javascript:alert(1)">html link</a>',
  '<div onclick="alert(1)" style="position:fixed">click</div>',
  '<details open ontoggle=alert(1)>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '[md link](javascript:alert(1))',
  '[md link](JaVaScRiPt:alert(1))',
  '[md link](java\tscript:alert(1))',
  '[md link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[md link](vbscript:msgbox(1))',
  '[ref link][r]\n\n[r]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '![img](javascript:alert(1))',
  '![img](data:image/svg+xml,<svg onload=alert(1)>)',
  '![img](https://tracker.example/pixel.png)',
  '```html\n<script>alert(1)</script>\n```',
  '- item <img src=x onerror=alert(1)>\n\n  ```\n  <script>x</script>\n  ```',
  '> quote <iframe src=x>',
  '`<script>alert(1)</script>`',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
];

/** What must never appear as markup in the output. */
const FORBIDDEN_ELEMENTS = /<(script|iframe|style|svg|object|embed|form|input|math|details|div onclick|img|a\b|link|meta|base)/i;
const FORBIDDEN_ATTRIBUTES = /\s(on[a-z]+|srcdoc|href|src|style|xlink:href|formaction)\s*=/i;
const FORBIDDEN_URLS = /(href|src)\s*=\s*["']?\s*(javascript|data|vbscript):/i;

describe('markdown pipeline against XSS', () => {
  for (const input of CORPUS) {
    for (const streaming of [false, true]) {
      it(`renders ${JSON.stringify(input).slice(0, 60)}${streaming ? ' (streaming)' : ''} without active content`, () => {
        const html = render(input, streaming);
        // Strip text content in our own container before checking tags: only markup counts.
        const markup = html.replace(/>[^<]*</g, '><');
        expect(markup).not.toMatch(FORBIDDEN_ELEMENTS);
        expect(markup).not.toMatch(FORBIDDEN_ATTRIBUTES);
        expect(html).not.toMatch(FORBIDDEN_URLS);
      });
    }
  }

  it('shows raw HTML as literal text instead of dropping it', () => {
    const html = render('use <b>bold</b> here');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  it('renders http(s) links as non-navigating buttons and unsafe links as plain text', () => {
    const safe = render('[docs](https://example.com/docs)');
    expect(safe).toMatch(/<button[^>]*data-testid="md-link"[^>]*title="https:\/\/example.com\/docs"[^>]*>docs<\/button>/);
    const unsafe = render('[click](javascript:alert(1)) and [d](data:text/html,x)');
    expect(unsafe).toContain('<span class="tx-md-link-text" data-testid="md-link-text">click</span>');
    expect(unsafe).not.toContain('javascript:');
    expect(unsafe).not.toContain('data:text');
  });

  it('renders code monospace in a pre, highlighted only once settled', () => {
    const done = render('```js\nconst a = "x";\n```');
    expect(done).toContain('data-highlighted="true"');
    expect(done).toContain('<span class="tx-tok-keyword">const</span>');
    const open = render('```js\nconst a', true);
    expect(open).toContain('data-highlighted="false"');
    expect(open).toContain('<pre class="tx-code-pre"><code>const a</code></pre>');
  });

  it('renders ordinary markdown', () => {
    const html = render('# Title\n\nSome *em* and **strong** and `code`.\n\n- a\n- b\n\n1. one');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<strong>strong</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<ol>');
  });
});
