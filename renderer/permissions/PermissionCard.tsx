import { useEffect, useMemo, useState } from 'react';
import { previewsIn, retryFullTexts, useFullTexts } from '../state/diff-texts';
import type { ToolCallContent } from '../../common/transcript/acp-types';
import type { PermissionRecord, ToolCallEntry } from '../../common/transcript/model';
import { api, errorText } from '../api/api-context';
import { DiffView } from '../monaco/DiffView';
import { baseName } from '../../common/text/base-name';
import { useDiffDialog } from '../monaco/diff-store';
import { answerKey, answerPermission, outcomeMessage, usePermissionAnswers } from './answer';
import { decisionSummary, needsDiskText, optionLook, proposedDiffs, resolveProposedDiff, type ProposedDiff } from './permission-logic';
import './permissions.css';

export interface PermissionCardProps {
  sessionId: string;
  entry: ToolCallEntry;
  permission: PermissionRecord;
}

/** Inline diffs per card; further files of a multi-file edit get an "open" button only. */
const MAX_INLINE_DIFFS = 2;
const INLINE_DIFF_HEIGHT = 240;

/**
 * One permission request on its tool call card. Pending: what the agent wants to do (its reason,
 * a Monaco diff of an edit) and its options as buttons. Resolved: one line saying what was chosen
 * and by whom.
 */
export function PermissionCard({ sessionId, entry, permission }: PermissionCardProps) {
  const outcome = usePermissionAnswers((s) => s.outcomes[answerKey(sessionId, permission.requestId)]);
  const pending = permission.status === 'pending';
  const message = outcomeMessage(outcome);
  return (
    <div
      className={`permission-card permission-${permission.status}`}
      data-testid="permission-card"
      data-status={permission.status}
      data-request-id={String(permission.requestId)}
      role={pending ? 'group' : undefined}
      aria-label={pending ? `Permission request: ${entry.title}` : undefined}
    >
      {pending ? (
        <>
          <div className="permission-head">
            <span className="permission-icon" aria-hidden>
              ⚠
            </span>
            <span>
              The agent asks permission: <strong>{entry.title || entry.toolCallId}</strong>
            </span>
          </div>
          <ContextText items={permission.context} />
          <ProposedDiffs sessionId={sessionId} entry={entry} permission={permission} />
          <div className="permission-options" role="toolbar" aria-label="Answers">
            {permission.options.map((option) => {
              const look = optionLook(option.kind);
              return (
                <button
                  key={option.optionId}
                  type="button"
                  className={`perm-btn perm-${look.tone}${look.outlined ? ' perm-outlined' : ''}`}
                  data-testid="permission-option"
                  data-kind={option.kind}
                  data-option-id={option.optionId}
                  disabled={outcome?.status === 'sending'}
                  onClick={() => void answerPermission(sessionId, permission.requestId, option.optionId)}
                >
                  {option.name}
                </button>
              );
            })}
            {permission.options.length === 0 && <span className="muted">The agent offered no options.</span>}
          </div>
          {message && (
            <div className="permission-message" data-testid="permission-answer-result" data-result={outcome?.status} role="status">
              {message}
            </div>
          )}
        </>
      ) : (
        <div className="permission-summary" data-testid="permission-summary">
          <span className="permission-icon" aria-hidden>
            {summaryIcon(permission)}
          </span>
          <span>{decisionSummary(permission)}</span>
          {outcome?.status === 'already_resolved' && (
            <span className="muted" data-testid="permission-answer-result" data-result="already_resolved">
              {' '}
              · {outcomeMessage(outcome)}
            </span>
          )}
        </div>
      )}
    </div>
  );
}

function summaryIcon(permission: PermissionRecord): string {
  if (permission.status === 'failed') return '!';
  if (permission.status === 'cancelled') return '⊘';
  const kind = permission.optionKind ?? permission.options.find((o) => o.optionId === permission.optionId)?.kind ?? '';
  return kind.startsWith('reject') ? '✕' : '✓';
}

/** The request's own explanation (e.g. codex's reason), as plain text: agent text is never HTML. */
function ContextText({ items }: { items: ToolCallContent[] | undefined }) {
  const texts = (items ?? []).flatMap((item) => (item.type === 'content' && item.content.type === 'text' ? [item.content.text] : []));
  if (texts.length === 0) return null;
  return (
    <div className="permission-context" data-testid="permission-context">
      {texts.join('\n')}
    </div>
  );
}

function ProposedDiffs({ sessionId, entry, permission }: PermissionCardProps) {
  // The core sends a waiting tool call's diffs whole, but one it sent earlier as a preview (a large
  // diff, before the request came) is fetched: a user sees in full what they approve.
  const previews = useMemo(() => previewsIn({ ids: [entry.id], entries: { [entry.id]: entry } }), [entry]);
  const texts = useFullTexts(sessionId, previews);
  const diffs = proposedDiffs(entry, permission);
  if (previews.length > 0) {
    return (
      <div className="permission-diffs">
        {texts.error !== null ? (
          <div className="permission-note error" data-testid="permission-diff-error" role="alert">
            Could not load the proposed change: {texts.error}{' '}
            <button type="button" className="perm-link" onClick={() => retryFullTexts(sessionId, previews)}>
              Try again
            </button>
          </div>
        ) : (
          <div className="permission-note" data-testid="permission-diff-loading" role="status">
            Loading the proposed change…
          </div>
        )}
      </div>
    );
  }
  if (diffs.length === 0) return null;
  return (
    <div className="permission-diffs">
      {diffs.map((diff, i) => (
        <ProposedDiffView key={`${diff.path}:${i}`} sessionId={sessionId} title={entry.title} diff={diff} inline={i < MAX_INLINE_DIFFS} />
      ))}
    </div>
  );
}

type DiskState = { state: 'idle' | 'loading' } | { state: 'done'; text: string | null } | { state: 'error'; message: string };

/** One proposed file change: its path, an "open" button, and (inline) a compact Monaco diff. */
function ProposedDiffView({ sessionId, title, diff, inline }: { sessionId: string; title: string; diff: ProposedDiff; inline: boolean }) {
  const disk = useDiskText(sessionId, needsDiskText(diff) ? diff.path : null);
  const show = useDiffDialog((s) => s.show);
  const ready = diff.kind === 'full' || disk.state === 'done' || disk.state === 'error';
  const resolved = ready ? resolveProposedDiff(diff, disk.state === 'done' ? disk.text : null) : null;
  const isNew = resolved?.oldText === null;
  return (
    <div className="permission-diff-block">
      <div className="permission-diff-head">
        <span className="permission-diff-path" title={diff.path}>
          {baseName(diff.path)}
          <span className="muted"> {diff.path}</span>
        </span>
        {isNew && <span className="permission-badge">new file</span>}
        <button
          type="button"
          className="perm-link"
          data-testid="permission-diff-open"
          disabled={!resolved}
          onClick={() => resolved && show({ title: title || baseName(diff.path), path: diff.path, oldText: resolved.oldText, newText: resolved.newText })}
        >
          Open full diff
        </button>
      </div>
      {disk.state === 'error' && <div className="permission-note error">Could not read the file on disk ({disk.message}): showing the proposed text alone.</div>}
      {resolved?.note && <div className="permission-note">{resolved.note}</div>}
      {inline && (
        <div className="permission-diff" data-testid="permission-diff" data-path={diff.path}>
          {resolved ? (
            <DiffView oldText={resolved.oldText} newText={resolved.newText} path={diff.path} height={INLINE_DIFF_HEIGHT} fit compact testId="permission-diff-view" />
          ) : (
            <div className="permission-note">
              Reading the file on disk…
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** The file's current text, read once through the core (which keeps reads inside the session's folders). */
function useDiskText(sessionId: string, path: string | null): DiskState {
  const [state, setState] = useState<DiskState>({ state: 'idle' });
  useEffect(() => {
    if (path === null) return;
    let cancelled = false;
    setState({ state: 'loading' });
    api()
      .request('session/file-text', { sessionId, path })
      .then((r) => !cancelled && setState({ state: 'done', text: r.text }))
      .catch((err: unknown) => !cancelled && setState({ state: 'error', message: errorText(err) }));
    return () => {
      cancelled = true;
    };
  }, [sessionId, path]);
  return state;
}
