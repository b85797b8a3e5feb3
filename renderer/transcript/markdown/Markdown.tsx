/**
 * Agent (and user) text as sanitized markdown, rendered incrementally: the text is split into
 * blocks (blocks.ts), settled blocks are memoized by identity, and only the tail block re-parses
 * while a message streams. Raw HTML is shown as text (never parsed), links never navigate (http(s)
 * opens after a confirmation, anything else stays text), images are not fetched.
 */
import { memo, useMemo, useRef, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import { advanceBlocks, type BlockSplit, type MarkdownBlock } from './blocks';
import { CodeBlock } from './CodeBlock';
import { externalUrl, openExternalLink } from './links';
import { plainParagraph } from './plain-paragraph';
import { createRenderCache } from './render-cache';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** remark plugin: raw HTML (block or inline) becomes literal text, so `<b>` shows as `<b>`. */
function htmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

const REMARK_PLUGINS = [htmlAsText] as unknown as NonNullable<Options['remarkPlugins']>;

/** Defence in depth: only what CommonMark itself produces. */
const ALLOWED = ['p', 'a', 'em', 'strong', 'code', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'hr', 'br', 'img', 'del', 'table', 'thead', 'tbody', 'tr', 'th', 'td'];

function Link({ href, children }: { href?: string; children?: ReactNode }) {
  const url = externalUrl(href);
  if (!url) {
    return (
      <span className="tx-md-link-text" data-testid="md-link-text">
        {children}
      </span>
    );
  }
  return (
    <button
      type="button"
      className="tx-md-link"
      data-testid="md-link"
      title={url}
      onClick={() => openExternalLink(url, { confirm: (m) => window.confirm(m), open: (u, t, f) => window.open(u, t, f) })}
    >
      {children}
    </button>
  );
}

/** Images in agent text are not loaded (no remote fetches): a placeholder says what was there. */
function Image({ alt, src }: { alt?: string; src?: string }) {
  const url = externalUrl(src);
  return (
    <span className="tx-md-image" data-testid="md-image" title={url ?? undefined}>
      [image{alt ? `: ${alt}` : ''}]
    </span>
  );
}

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

function hastText(node: HastNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(hastText).join('');
}

/** A fenced code block nested in a list or quote (top-level fences never reach the parser). */
function makePre(highlight: boolean) {
  return function Pre({ node }: { node?: unknown }) {
    const code = (node as HastNode | undefined)?.children?.find((c) => c.tagName === 'code');
    const cls = code?.properties?.className;
    const lang = Array.isArray(cls) ? (cls.map(String).find((c) => c.startsWith('language-'))?.slice(9) ?? '') : '';
    return <CodeBlock code={hastText(code).replace(/\n$/, '')} lang={lang} highlight={highlight} />;
  };
}

const baseComponents: Components = { a: Link, img: Image };
const settledComponents: Components = { ...baseComponents, pre: makePre(true) };
const liveComponents: Components = { ...baseComponents, pre: makePre(false) };

/** react-markdown's own pipeline, as a function (it uses no hooks): text → React elements. */
function render(text: string, settled: boolean): ReactNode {
  return ReactMarkdown({ remarkPlugins: REMARK_PLUGINS, components: settled ? settledComponents : liveComponents, allowedElements: ALLOWED, unwrapDisallowed: true, children: text });
}
const renderSettled = (text: string) => render(text, true);

/**
 * Settled blocks rendered once per text, whichever row mounts them (render-cache.ts): scrolling a
 * long transcript mounts rows by the dozen per frame. A block still streaming changes with every
 * chunk and is rendered as it comes.
 */
const settledRenderings = createRenderCache<ReactNode>(2000, 2_000_000);

/** One block through react-markdown (or straight to a code block for a top-level fence). */
const Block = memo(function Block({ block, settled }: { block: MarkdownBlock; settled: boolean }) {
  if (block.fence) return <CodeBlock code={block.fence.body} lang={block.fence.lang} highlight={settled || block.fence.closed} />;
  const plain = plainParagraph(block.text);
  if (plain !== null) return <p>{plain}</p>;
  return <>{settled ? settledRenderings.get(block.text, renderSettled) : render(block.text, false)}</>;
});

/** A run of settled blocks; off-screen groups of a long message skip layout (content-visibility). */
const SettledGroup = memo(function SettledGroup({ blocks }: { blocks: readonly MarkdownBlock[] }) {
  return (
    <div className="tx-md-group">
      {blocks.map((b) => (
        <Block key={b.key} block={b} settled />
      ))}
    </div>
  );
});

export interface MarkdownProps {
  text: string;
  /** The text may still grow: the last block is not settled (no highlighting of an open fence). */
  streaming?: boolean;
}

/** Markdown text; keeps its block split between renders so a streamed chunk costs O(tail). */
export const Markdown = memo(function Markdown({ text, streaming = false }: MarkdownProps) {
  const splitRef = useRef<BlockSplit | undefined>(undefined);
  const split = useMemo(() => advanceBlocks(splitRef.current, text), [text]);
  splitRef.current = split;
  return (
    <div className="tx-md" data-testid="markdown">
      {split.groups.map((g, i) => (
        <SettledGroup key={i} blocks={g} />
      ))}
      {split.tail ? <Block key={split.tail.key} block={split.tail} settled={!streaming} /> : null}
    </div>
  );
});
