import { useEffect, useState } from 'react';
import type { InspectorMessage } from '../../common/api/qa-types';
import { api, errorText } from '../api/api-context';
import { CopyButton } from '../transcript/CopyButton';
import { DIR_ARROW, DIR_TITLE, formatId, formatLatency, formatSize, formatTime, methodLabel } from './format';
import { inspectorUi } from './inspector-ui';
import { JsonTree } from './JsonTree';

/** One message in full: what it is, its pretty JSON (collapsible), pin, copy, and its request or response. */
export function MessageDetail({ sessionId, index, pinned, version }: { sessionId: string; index: number | null; pinned: boolean; version: number }) {
  const [message, setMessage] = useState<InspectorMessage | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A request gets its response (peer, latency) later: look again while it has none.
  const waitingForPeer = message?.row.kind === 'request' && message.row.peer === undefined;
  useEffect(() => {
    if (index === null) {
      setMessage(null);
      return;
    }
    let cancelled = false;
    api()
      .request('inspector/message', { sessionId, index })
      .then(
        (m) => !cancelled && (setMessage(m), setError(null)),
        (err: unknown) => !cancelled && setError(errorText(err)),
      );
    return () => {
      cancelled = true;
    };
  }, [sessionId, index, waitingForPeer ? version : -1]);

  if (index === null) {
    return (
      <div className="insp-detail insp-detail-empty" data-testid="inspector-detail-empty">
        <p className="muted">Select a message to see it in full.</p>
      </div>
    );
  }
  if (error) {
    return (
      <div className="insp-detail" data-testid="inspector-detail" data-index={index}>
        <p className="error">{error}</p>
      </div>
    );
  }
  if (!message || message.row.index !== index) return <div className="insp-detail" data-testid="inspector-detail" data-index={index} data-loading="true" />;
  const { row, record } = message;
  const body: unknown = 'msg' in record ? record.msg : record;
  const text = typeof record.text === 'string' ? record.text : typeof record.head === 'string' ? record.head : undefined;
  const copyText = text !== undefined && !('msg' in record) ? text : JSON.stringify(body, null, 2);
  return (
    <div className="insp-detail" data-testid="inspector-detail" data-index={index} data-kind={row.kind}>
      <div className="insp-detail-head">
        <span className={`insp-dir dir-${row.dir}`} title={DIR_TITLE[row.dir]}>
          {DIR_ARROW[row.dir]}
        </span>
        <strong className="insp-detail-title">{methodLabel(row)}</strong>
        <span className={`insp-kind kind-${row.kind}`}>{row.kind}</span>
        {row.id !== undefined && <span className="muted">id {formatId(row.id)}</span>}
        {row.error && <span className="insp-err">error {row.error.code}</span>}
        {row.unchecked && <span className="insp-tag">unchecked</span>}
      </div>
      <div className="insp-detail-facts muted">
        <span>#{row.index}</span>
        <span>t {formatTime(row.t)} s</span>
        <span>{formatSize(row.size)}</span>
        <span>trace line {row.line}</span>
        {row.latency !== undefined && <span data-testid="inspector-detail-latency">{row.kind === 'response' ? 'answered in' : 'answer after'} {formatLatency(row.latency)}</span>}
        {row.sessionId === undefined && <span>whole connection</span>}
      </div>
      <div className="insp-detail-actions">
        <button type="button" data-testid="inspector-pin" aria-pressed={pinned} onClick={() => inspectorUi.togglePin(sessionId, row.index)}>
          {pinned ? '★ Pinned' : '☆ Pin'}
        </button>
        <CopyButton text={copyText} label="Copy" testId="inspector-copy" title="Copy the message as JSON" />
        {row.peer !== undefined && (
          <button type="button" data-testid="inspector-peer" onClick={() => inspectorUi.jumpTo(sessionId, row.peer!)}>
            {row.kind === 'response' ? 'Go to the request' : 'Go to the response'}
          </button>
        )}
      </div>
      {typeof record.problem === 'string' && <p className="insp-problem">Not valid JSON-RPC: {record.problem}</p>}
      {record.invalidUtf8 === true && <p className="insp-problem">Decoded with replacement characters: the line was not valid UTF-8.</p>}
      {'msg' in record ? (
        <JsonTree key={row.index} value={body} openDepth={3} testId="inspector-detail-json" />
      ) : (
        <pre className="insp-text" data-testid="inspector-detail-text">
          {text ?? (typeof record.base64 === 'string' ? `(not UTF-8, base64) ${record.base64}` : JSON.stringify(record, null, 2))}
        </pre>
      )}
    </div>
  );
}
