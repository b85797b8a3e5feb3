/** The blocks of a message: text as markdown, the others (files, links, images) as compact chips. */
import type { ContentBlock } from '../../../common/transcript/acp-types';
import { Markdown } from '../markdown/Markdown';
import { Disclosure } from './common';

const SAFE_IMAGE = /^image\/(png|jpe?g|gif|webp|bmp|avif)$/i;
/** Past this, an inline image is not decoded in the transcript (base64 chars). */
const MAX_INLINE_IMAGE = 4_000_000;

export function MessageContent({ content, streaming, stateKey }: { content: readonly ContentBlock[]; streaming: boolean; stateKey: string }) {
  return (
    <div className="tx-message-body">
      {content.map((block, i) => (
        <ContentBlockView key={i} block={block} streaming={streaming && i === content.length - 1} stateKey={`${stateKey}:${i}`} />
      ))}
    </div>
  );
}

export function ContentBlockView({ block, streaming, stateKey }: { block: ContentBlock; streaming: boolean; stateKey: string }) {
  switch (block.type) {
    case 'text':
      return <Markdown text={typeof block.text === 'string' ? block.text : String(block.text)} streaming={streaming} />;
    case 'image': {
      const ok = SAFE_IMAGE.test(block.mimeType ?? '') && typeof block.data === 'string' && block.data.length <= MAX_INLINE_IMAGE;
      return ok ? (
        <img className="tx-image" data-testid="content-image" alt={block.uri ?? 'image'} src={`data:${block.mimeType};base64,${block.data}`} />
      ) : (
        <span className="tx-chip" data-testid="content-image">
          image {block.mimeType}
        </span>
      );
    }
    case 'audio':
      return (
        <span className="tx-chip" data-testid="content-audio">
          audio {block.mimeType}
        </span>
      );
    case 'resource_link':
      return (
        <span className="tx-chip" data-testid="content-resource-link" title={block.uri}>
          {block.title || block.name || block.uri}
          {block.name && block.name !== block.uri ? <span className="tx-muted"> {block.uri}</span> : null}
        </span>
      );
    case 'resource': {
      const r = block.resource ?? { uri: '' };
      if (typeof r.text !== 'string') {
        return (
          <span className="tx-chip" data-testid="content-resource" title={r.uri}>
            {r.uri} {r.mimeType ? <span className="tx-muted">{r.mimeType}</span> : null}
          </span>
        );
      }
      return (
        <Disclosure
          stateKey={`${stateKey}:resource`}
          testId="content-resource"
          summary={
            <span className="tx-chip-inline" title={r.uri}>
              {r.uri} <span className="tx-muted">({r.text.split('\n').length} lines)</span>
            </span>
          }
        >
          {() => <pre className="tx-pre-scroll">{r.text}</pre>}
        </Disclosure>
      );
    }
    default:
      return (
        <span className="tx-chip" data-testid="content-unknown">
          {(block as { type?: unknown }).type === undefined ? 'content' : String((block as { type: unknown }).type)}
        </span>
      );
  }
}
