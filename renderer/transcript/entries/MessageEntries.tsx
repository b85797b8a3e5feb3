import { memo } from 'react';
import type { ContentBlock } from '../../../common/transcript/acp-types';
import type { AgentMessageEntry, ThoughtEntry, UserMessageEntry } from '../../../common/transcript/model';
import { CopyButton } from '../CopyButton';
import { EntryShell, useIsStreaming } from './common';
import { MessageContent } from './ContentBlocks';
import { useDisclosure } from '../ui-state';

interface Props<E> {
  sessionId: string;
  entry: E;
}

export const UserMessage = memo(function UserMessage({ sessionId, entry }: Props<UserMessageEntry>) {
  return (
    <EntryShell entry={entry}>
      <div className="tx-role">You{entry.origin && entry.origin !== 'user' ? <span className="tx-muted"> · {entry.origin}</span> : null}</div>
      <MessageContent content={entry.content} streaming={false} stateKey={`${sessionId}:${entry.id}`} />
      <CopyMessage content={entry.content} what="prompt" />
    </EntryShell>
  );
});

export const AgentMessage = memo(function AgentMessage({ sessionId, entry }: Props<AgentMessageEntry>) {
  const streaming = useIsStreaming(sessionId, entry.id);
  return (
    <EntryShell entry={entry} className={streaming ? 'tx-streaming' : undefined}>
      <MessageContent content={entry.content} streaming={streaming} stateKey={`${sessionId}:${entry.id}`} />
      {streaming ? null : <CopyMessage content={entry.content} what="answer" />}
    </EntryShell>
  );
});

/** The message's text as the agent wrote it (Markdown), made when clicked; links and resources by their address. */
function messageText(content: readonly ContentBlock[]): string {
  return content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? b.uri : b.type === 'resource' ? (b.resource?.text ?? b.resource?.uri ?? '') : ''))
    .filter(Boolean)
    .join('\n\n');
}

/** Copy a message's Markdown: shown over the row's corner while the pointer or the focus is in it. */
function CopyMessage({ content, what }: { content: readonly ContentBlock[]; what: 'prompt' | 'answer' }) {
  return <CopyButton className="tx-copy-message" text={() => messageText(content)} label="Copy" testId="message-copy" title={`Copy this ${what} as Markdown`} />;
}

/** First line of a thought, for the collapsed header: bounded work whatever the thought's length. */
function preview(entry: ThoughtEntry): string {
  const first = entry.content.find((b) => b.type === 'text');
  const text = first && first.type === 'text' ? first.text.slice(0, 240) : '';
  const line = text.trimStart().split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

export const Thought = memo(function Thought({ sessionId, entry }: Props<ThoughtEntry>) {
  const streaming = useIsStreaming(sessionId, entry.id);
  const [open, toggle] = useDisclosure(`${sessionId}:${entry.id}:thought`);
  return (
    <EntryShell entry={entry}>
      {/* One line of inline text, its chevron drawn by CSS: no flex box, no SVG, one ellipsis for
          the whole line — thought rows are the bulk of what a long transcript mounts while it
          scrolls (issue #11). */}
      <button type="button" className="tx-thought-toggle" data-testid="thought-toggle" aria-expanded={open} onClick={toggle}>
        <span className="tx-thought-label">{streaming ? 'Thinking…' : 'Thought'}</span>
        {!open ? <span className="tx-thought-preview"> {preview(entry)}</span> : null}
      </button>
      {open ? (
        <div className="tx-thought-body" data-testid="thought-body">
          <MessageContent content={entry.content} streaming={streaming} stateKey={`${sessionId}:${entry.id}`} />
        </div>
      ) : null}
    </EntryShell>
  );
});
