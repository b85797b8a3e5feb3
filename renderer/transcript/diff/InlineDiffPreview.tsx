/**
 * A large diff as the core sent it, a preview (common/transcript/window-diffs.ts): the head (path,
 * "new file", +/− counts) and the collapsed rows, drawn as InlineDiff draws a diff it has whole.
 * "Show all N lines" and "Open in diff editor" fetch the texts first (state/diff-texts.ts): once
 * here they replace the preview in the transcript, and the card shows an InlineDiff — expanded, if
 * that is what was asked. While they load, and when they cannot be had, the card says so.
 */
import { memo, useEffect, useId, type ReactNode } from 'react';
import type { DiffPreviewContent, ToolCallLocation } from '../../../common/transcript/acp-types';
import { useDiffDialog, type DiffRequest } from '../../monaco/diff-store';
import { fetchDiffTexts, fetchError, useDiffFetch } from '../../state/diff-texts';
import { DiffHead } from './DiffHead';
import { useDisclosure } from '../ui-state';
import { baseName } from '../../../common/text/base-name';
import { lineRows, runRows } from './InlineDiff';

interface InlineDiffPreviewProps {
  sessionId: string;
  entryId: string;
  /** The preview's place in the tool call's content. */
  index: number;
  preview: DiffPreviewContent;
  title: string;
  /** The same key InlineDiff gets for this item: what the user expanded stays expanded once the texts are here. */
  stateKey: string;
  location?: ToolCallLocation | undefined;
}

export const InlineDiffPreview = memo(function InlineDiffPreview({ sessionId, entryId, index, preview, title, stateKey, location }: InlineDiffPreviewProps) {
  const [expanded, toggle] = useDisclosure(`${stateKey}:diff-all`);
  const fetch = useDiffFetch(sessionId, entryId, index);
  // Expanded (now, or before the row was last mounted): the texts are needed.
  useEffect(() => {
    if (expanded) void fetchDiffTexts(sessionId, entryId, index, preview);
  }, [expanded, sessionId, entryId, index, preview]);
  const open = async () => {
    const dialog = useDiffDialog.getState();
    const request: DiffRequest = { title: title || baseName(preview.path), path: preview.path, oldText: preview.old === 'text' ? '' : null, newText: '', loading: true };
    dialog.show(request);
    const diff = await fetchDiffTexts(sessionId, entryId, index, preview);
    if (useDiffDialog.getState().open !== request) return; // closed, or another diff opened meanwhile
    const failed = fetchError(sessionId, entryId, index);
    dialog.show(diff ? { title: request.title, path: diff.path, oldText: diff.oldText ?? null, newText: diff.newText } : { ...request, loading: false, error: failed ?? 'The texts of this diff could not be had.' });
  };
  const view = preview.view;
  const newFile = preview.old !== 'text';
  return (
    <div className="tx-diff" data-testid="diff-inline" data-path={preview.path} data-kind={view.kind} data-preview="true">
      <DiffHead path={preview.path} location={location} newFile={newFile} stats={view.kind === 'diff' ? view : null} onOpen={() => void open()} />
      <PreviewBody preview={preview} expanded={expanded} onExpand={toggle} fetch={fetch} retry={() => void fetchDiffTexts(sessionId, entryId, index, preview)} />
    </div>
  );
});

function PreviewBody({ preview, expanded, onExpand, fetch, retry }: { preview: DiffPreviewContent; expanded: boolean; onExpand: () => void; fetch: ReturnType<typeof useDiffFetch>; retry: () => void }) {
  const linesId = useId();
  const view = preview.view;
  if (view.kind === 'identical') return <div className="tx-diff-note">No changes.</div>;
  if (view.kind === 'too-large') {
    return (
      <div className="tx-diff-note" data-testid="diff-too-large">
        File too large to diff inline ({view.oldLines} → {view.newLines} lines). Open it in the diff editor.
      </div>
    );
  }
  const rows = view.rows;
  const clipped = rows.collapsible;
  const drawn: ReactNode[] = clipped ? runRows(rows, view.digits) : lineRows(rows);
  return (
    <>
      <div className={clipped ? 'tx-diff-lines tx-diff-clipped' : 'tx-diff-lines'} id={linesId} data-testid="diff-lines" data-shown={rows.shown} data-total={rows.total} style={{ ['--tx-diff-no-w' as string]: `${view.digits}ch` }}>
        {drawn}
      </div>
      {fetch?.status === 'error' ? (
        <div className="tx-diff-note tx-diff-error" data-testid="diff-texts-error" role="alert">
          Could not load the whole diff: {fetch.message}{' '}
          <button type="button" className="tx-link-btn" data-testid="diff-texts-retry" onClick={retry}>
            Try again
          </button>
        </div>
      ) : null}
      {rows.collapsible ? (
        <button
          type="button"
          className="tx-link-btn tx-diff-toggle"
          data-testid="diff-toggle-all"
          data-expanded="false"
          data-loading={expanded && fetch?.status === 'loading' ? 'true' : undefined}
          aria-expanded={false}
          aria-controls={linesId}
          disabled={expanded && fetch?.status === 'loading'}
          onClick={() => (expanded ? retry() : onExpand())}
        >
          {expanded && fetch?.status === 'loading' ? `Loading all ${rows.total} lines…` : `Show all ${rows.total} lines`}
        </button>
      ) : null}
    </>
  );
}
