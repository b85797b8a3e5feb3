/**
 * A tool call as a card: kind icon, title, status (incl. our local `cancelled`), the files it
 * touches, its content (text, inline diffs, live terminals), the permission requests about it, and
 * its raw input/output for QA. A card that mounts while its pane follows a stream too fast to read
 * shows its head (and any permission request) until the pane settles (stream-pace.ts).
 */
import { memo } from 'react';
import type { ToolCallContent, ToolCallLocation } from '../../../common/transcript/acp-types';
import type { ToolCallEntry } from '../../../common/transcript/model';
import { PermissionCard } from '../../permissions/PermissionCard';
import { InlineDiff } from '../diff/InlineDiff';
import { InlineDiffPreview } from '../diff/InlineDiffPreview';
import { isDiffPreview } from '../../../common/diff/large-diff-preview';
import { ToolTerminal } from '../terminal/TerminalView';
import { Disclosure, EntryShell, JsonBlock } from './common';
import { ContentBlockView } from './ContentBlocks';
import { diffLocations } from './diff-locations';
import { StatusIcon, ToolKindIcon } from './icons';
import { ToolLocation } from './ToolLocation';
import { UNSETTLED_LABEL, isRunningStatus, turnIsOver, unsettledTitle } from './tool-call-settled';
import { useSessions } from '../../state/sessions-store';
import { useBodyShown } from '../stream-pace-context';

const STATUS_LABEL: Record<string, string> = {
  pending: 'Pending',
  in_progress: 'Running',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function ContentItem({ sessionId, entry, item, index, location }: { sessionId: string; entry: ToolCallEntry; item: ToolCallContent; index: number; location: ToolCallLocation | undefined }) {
  const key = `${sessionId}:${entry.id}:c${index}`;
  switch (item.type) {
    case 'diff':
      return <InlineDiff content={item} title={entry.title} stateKey={key} location={location} />;
    case 'diff_preview':
      // A large diff the core sent without its texts (common/transcript/window-diffs.ts).
      return isDiffPreview(item) ? (
        <InlineDiffPreview sessionId={sessionId} entryId={entry.id} index={index} preview={item} title={entry.title} stateKey={key} location={location} />
      ) : (
        <JsonBlock value={item as never} testId="tool-call-content-unknown" />
      );
    case 'terminal':
      return <ToolTerminal sessionId={sessionId} entry={entry} terminalId={item.terminalId} />;
    case 'content':
      return (
        <div className="tx-tool-text" data-testid="tool-call-content">
          <ContentBlockView block={item.content} streaming={false} stateKey={key} />
        </div>
      );
    default:
      return <JsonBlock value={item as never} testId="tool-call-content-unknown" />;
  }
}

export const ToolCallCard = memo(function ToolCallCard({ sessionId, entry }: { sessionId: string; entry: ToolCallEntry }) {
  const status = String(entry.status);
  const running = isRunningStatus(status);
  // A call still "running" when its turn is over never got a final status from the agent.
  const unsettled = useSessions((s) => running && turnIsOver(s.views[sessionId]?.transcript.session, entry.turn));
  const title = entry.title || entry.name || entry.toolCallId;
  const hasRaw = entry.rawInput !== undefined || entry.rawOutput !== undefined || entry.meta !== undefined;
  const body = useBodyShown();
  const locations = body ? diffLocations(entry.locations, entry.content) : undefined;
  return (
    <EntryShell entry={entry}>
      <div
        className={`tx-tool tx-status-${status}`}
        data-testid="tool-call"
        data-status={status}
        data-tool-kind={entry.toolKind}
        data-tool-call-id={entry.toolCallId}
        data-body={body ? undefined : 'deferred'}
      >
        <div className="tx-tool-head">
          <span className="tx-tool-kind" title={String(entry.toolKind)}>
            <ToolKindIcon kind={String(entry.toolKind)} />
          </span>
          <span className="tx-tool-title" data-testid="tool-call-title" title={title}>
            {title}
          </span>
          {entry.name && entry.name !== title ? <span className="tx-tool-name">{entry.name}</span> : null}
          <span className="tx-spacer" />
          {unsettled ? (
            <span className="tx-status tx-status-badge-unsettled" data-testid="tool-call-status" data-status={status} data-unsettled="true" title={unsettledTitle(STATUS_LABEL[status] ?? status)}>
              <StatusIcon status="unsettled" />
              {UNSETTLED_LABEL}
            </span>
          ) : (
            <span className={`tx-status tx-status-badge-${status}`} data-testid="tool-call-status" data-status={status}>
              <StatusIcon status={status} />
              {STATUS_LABEL[status] ?? status}
            </span>
          )}
        </div>
        {locations && locations.apart.length > 0 ? (
          <div className="tx-locations" data-testid="tool-locations">
            {locations.apart.map((l, i) => (
              <ToolLocation key={i} location={l} />
            ))}
          </div>
        ) : null}
        {locations && entry.content.length > 0 ? (
          <div className="tx-tool-content">
            {entry.content.map((item, i) => (
              <ContentItem key={i} sessionId={sessionId} entry={entry} item={item} index={i} location={item.type === 'diff' || item.type === 'diff_preview' ? locations.inDiff.get(item.path) : undefined} />
            ))}
          </div>
        ) : null}
        {entry.permissions.map((p) => (
          <PermissionCard key={String(p.requestId)} sessionId={sessionId} entry={entry} permission={p} />
        ))}
        {body && hasRaw ? (
          <Disclosure stateKey={`${sessionId}:${entry.id}:raw`} testId="tool-call-raw-toggle" summary={<span className="tx-muted">Raw input / output</span>}>
            {() => (
              <div className="tx-tool-raw" data-testid="tool-call-raw">
                {entry.rawInput !== undefined ? (
                  <>
                    <div className="tx-raw-label">rawInput</div>
                    <JsonBlock value={entry.rawInput} testId="tool-call-raw-input" />
                  </>
                ) : null}
                {entry.rawOutput !== undefined ? (
                  <>
                    <div className="tx-raw-label">rawOutput</div>
                    <JsonBlock value={entry.rawOutput} testId="tool-call-raw-output" />
                  </>
                ) : null}
                {entry.meta !== undefined ? (
                  <>
                    <div className="tx-raw-label">_meta</div>
                    <JsonBlock value={entry.meta} testId="tool-call-raw-meta" />
                  </>
                ) : null}
              </div>
            )}
          </Disclosure>
        ) : null}
      </div>
    </EntryShell>
  );
});
