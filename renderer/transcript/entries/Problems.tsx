/** Notices, errors (with their real cause), turn ends and unknown updates. */
import { memo } from 'react';
import { isJsonObject, type JsonValue } from '../../../common/trace/json';
import type { ErrorEntry, NoticeEntry, TurnEndEntry, UnknownUpdateEntry } from '../../../common/transcript/model';
import { Disclosure, EntryShell, formatDuration, JsonBlock } from './common';
import { formatTokens } from '../../../common/text/tokens';

export const Notice = memo(function Notice({ entry }: { entry: NoticeEntry }) {
  const severity = String(entry.severity);
  return (
    <EntryShell entry={entry}>
      <div className={`tx-notice tx-severity-${severity}`} data-testid="notice" data-severity={severity}>
        <div className="tx-notice-title">
          <span className="tx-badge">{severity}</span> {entry.title}
          <span className="tx-muted"> · {entry.source === 'agent' ? 'from the agent' : 'workbench'}</span>
        </div>
        {entry.description ? <div className="tx-notice-desc">{entry.description}</div> : null}
      </div>
    </EntryShell>
  );
});

/** What the user can do about an error, from where it came from. */
function advice(e: ErrorEntry): string | null {
  if (e.source === 'spawn') return 'The agent could not be started: check its command, arguments and environment in the agent settings.';
  if (e.source === 'exit') return 'The agent process ended. Restart the session to continue; its last stderr lines (above) usually say why.';
  if (e.code === -32000) return 'The agent needs authentication: sign in (or set its API key) and retry.';
  if (e.code === -32601) return 'The agent does not implement this method.';
  if (e.code === -32602) return 'The agent rejected the parameters of this request.';
  if (e.code === -32002) return 'The agent does not know this session or resource any more.';
  if (e.code === -32603) return 'The agent failed internally: its details and stderr above usually say why. The protocol inspector shows the full exchange.';
  if (e.code === -32800) return 'The request was cancelled.';
  return null;
}

/** `error.data` as agents send it: often `{details: "..."}` or a string. */
function DataView({ data }: { data: JsonValue }) {
  if (typeof data === 'string') return <pre className="tx-error-data" data-testid="error-data">{data}</pre>;
  if (isJsonObject(data) && typeof data.details === 'string' && Object.keys(data).length === 1)
    return (
      <pre className="tx-error-data" data-testid="error-data">
        {data.details}
      </pre>
    );
  return <JsonBlock value={data} testId="error-data" />;
}

export const ErrorCard = memo(function ErrorCard({ entry }: { entry: ErrorEntry }) {
  const hint = advice(entry);
  return (
    <EntryShell entry={entry}>
      <div className="tx-error" data-testid="error" data-source={entry.source} data-code={entry.code}>
        <div className="tx-error-title">
          <span className="tx-badge tx-badge-error">error{entry.code !== undefined ? ` ${entry.code}` : ''}</span> <span data-testid="error-message">{entry.message}</span>
          {entry.method ? <span className="tx-muted"> · {entry.method}</span> : null}
        </div>
        {entry.data !== undefined && entry.data !== null ? <DataView data={entry.data} /> : null}
        {entry.stderrTail && entry.stderrTail.length > 0 ? (
          <div className="tx-stderr">
            <div className="tx-raw-label">Agent stderr (last {entry.stderrTail.length} lines)</div>
            <pre className="tx-stderr-tail" data-testid="error-stderr">
              {entry.stderrTail.join('\n')}
            </pre>
          </div>
        ) : null}
        {hint ? (
          <div className="tx-error-hint" data-testid="error-hint">
            {hint}
          </div>
        ) : null}
      </div>
    </EntryShell>
  );
});

const STOP_LABEL: Record<string, string> = {
  end_turn: 'Turn ended',
  cancelled: 'Cancelled',
  refusal: 'The agent refused',
  max_tokens: 'Stopped: token limit reached',
  max_turn_requests: 'Stopped: too many model requests in one turn',
};

function usageText(usage: Record<string, JsonValue>): string | null {
  const n = (k: string) => (typeof usage[k] === 'number' ? (usage[k] as number) : undefined);
  const input = n('inputTokens') ?? n('input_tokens');
  const output = n('outputTokens') ?? n('output_tokens');
  const total = n('totalTokens') ?? n('total_tokens');
  const parts: string[] = [];
  if (input !== undefined) parts.push(`${formatTokens(input)} in`);
  if (output !== undefined) parts.push(`${formatTokens(output)} out`);
  if (total !== undefined && parts.length === 0) parts.push(`${formatTokens(total)} tokens`);
  return parts.length ? parts.join(' / ') : null;
}

export const TurnEnd = memo(function TurnEnd({ entry }: { entry: TurnEndEntry }) {
  const reason = entry.stopReason ?? 'none';
  const tone = reason === 'refusal' || entry.error ? 'bad' : reason === 'max_tokens' || reason === 'max_turn_requests' ? 'warn' : 'neutral';
  const usage = entry.usage ? usageText(entry.usage) : null;
  return (
    <EntryShell entry={entry}>
      <div className={`tx-turn-end tx-tone-${tone}`} data-testid="turn-end" data-stop-reason={reason}>
        <span className="tx-turn-end-label">
          {entry.stopReason ? (STOP_LABEL[entry.stopReason] ?? `Stopped: ${entry.stopReason}`) : 'Turn ended without a stop reason'}
        </span>
        {entry.error ? (
          <span className="tx-turn-end-error" data-testid="turn-end-error">
            {' '}
            — {entry.error.code !== undefined ? `${entry.error.code} ` : ''}
            {entry.error.message}
          </span>
        ) : null}
        {entry.durationMs !== undefined ? <span className="tx-muted"> · {formatDuration(entry.durationMs)}</span> : null}
        {usage ? <span className="tx-muted"> · {usage}</span> : null}
        {reason === 'refusal' ? (
          <div className="tx-refusal-note">This prompt and everything after it will not be part of the agent's next context.</div>
        ) : null}
      </div>
    </EntryShell>
  );
});

export const UnknownUpdate = memo(function UnknownUpdate({ sessionId, entry }: { sessionId: string; entry: UnknownUpdateEntry }) {
  return (
    <EntryShell entry={entry}>
      <Disclosure
        stateKey={`${sessionId}:${entry.id}:raw`}
        testId="unknown-update-toggle"
        summary={
          <span className="tx-note">
            Unknown update <code>{entry.sessionUpdate ?? '(no sessionUpdate)'}</code>
          </span>
        }
      >
        {() => <JsonBlock value={entry.raw} testId="unknown-update-raw" />}
      </Disclosure>
    </EntryShell>
  );
});
