import type { Entry } from '../../common/transcript/model';
import { MessageContent } from '../transcript/entries/ContentBlocks';

/** One entry of a recorded session, read-only: messages as the transcript renders them (markdown), tool calls and turn ends as one line. */
export function PreviewEntry({ sessionId, entry }: { sessionId: string; entry: Entry }) {
  const stateKey = `history:${sessionId}:${entry.id}`;
  switch (entry.kind) {
    case 'user_message':
      return (
        <div className="pv-md pv-user" data-testid="history-entry" data-kind={entry.kind}>
          <strong>You:</strong>
          <MessageContent content={entry.content} streaming={false} stateKey={stateKey} />
        </div>
      );
    case 'agent_message':
      return (
        <div className="pv-md pv-agent" data-testid="history-entry" data-kind={entry.kind}>
          <MessageContent content={entry.content} streaming={false} stateKey={stateKey} />
        </div>
      );
    case 'tool_call':
      return (
        <div className="pv pv-tool muted" data-testid="history-entry" data-kind={entry.kind}>
          ⚙ {entry.title} — {entry.status}
        </div>
      );
    case 'turn_end':
      return <div className="pv pv-end muted small">— turn ended: {entry.stopReason ?? 'no stop reason'}</div>;
    case 'notice':
      return <div className="pv pv-notice small">{entry.title}</div>;
    case 'error':
      return <div className="pv error small">{entry.message}</div>;
    default:
      return null;
  }
}
