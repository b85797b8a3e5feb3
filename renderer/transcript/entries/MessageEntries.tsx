import { memo } from 'react';
import type { AgentMessageEntry, ThoughtEntry, UserMessageEntry } from '../../../common/transcript/model';
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
    </EntryShell>
  );
});

export const AgentMessage = memo(function AgentMessage({ sessionId, entry }: Props<AgentMessageEntry>) {
  const streaming = useIsStreaming(sessionId, entry.id);
  return (
    <EntryShell entry={entry} className={streaming ? 'tx-streaming' : undefined}>
      <MessageContent content={entry.content} streaming={streaming} stateKey={`${sessionId}:${entry.id}`} />
    </EntryShell>
  );
});

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
