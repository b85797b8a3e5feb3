import { memo, useMemo } from 'react';
import { CopyButton } from '../CopyButton';
import { highlightCode } from './highlight';

export interface CodeBlockProps {
  code: string;
  lang: string;
  /** Highlight now (the block has settled); plain text while it still streams. */
  highlight: boolean;
}

/** A monospace, horizontally scrollable code block; highlighted once, when it has settled. */
export const CodeBlock = memo(function CodeBlock({ code, lang, highlight }: CodeBlockProps) {
  const tokens = useMemo(() => (highlight ? highlightCode(code, lang) : null), [code, lang, highlight]);
  return (
    <div className="tx-code" data-testid="code-block" data-lang={lang || undefined} data-highlighted={tokens ? 'true' : 'false'}>
      <div className="tx-code-head">
        <span className="tx-code-lang">{lang || 'text'}</span>
        <CopyButton text={code} testId="code-copy" label="Copy" />
      </div>
      <pre className="tx-code-pre">
        <code>
          {tokens
            ? tokens.map((t, i) =>
                t.type ? (
                  <span key={i} className={`tx-tok-${t.type}`}>
                    {t.text}
                  </span>
                ) : (
                  t.text
                ),
              )
            : code}
        </code>
      </pre>
    </div>
  );
});
