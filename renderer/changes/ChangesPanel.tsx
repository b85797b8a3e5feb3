import { useMemo, useState } from 'react';
import { DiffView } from '../monaco/DiffView';
import { displayPath } from '../monaco/diff-policy';
import { useDiffDialog } from '../monaco/diff-store';
import { allFileChanges } from '../../common/transcript/file-changes';
import { fileDiffOf } from '../../common/transcript/file-diffs';
import { sessionPatch } from '../../common/diff/session-patch';
import { downloadText } from '../app/download-text';
import { useSessions } from '../state/sessions-store';
import { diffBase, groupFileChanges, isFullyUndone, undoPlan, type FileGroup } from '../../common/transcript/group-changes';
import { undoFile, undoResultText, useUndoneIds, useUndoResult } from './undo';
import { previewsIn, retryFullTexts, useFullTexts } from '../state/diff-texts';
import type { Entry } from '../../common/transcript/model';
import { ChangeRowHead } from './ChangeRowHead';
import './changes.css';

function isCompletedCall(e: Entry | undefined): boolean {
  return e?.kind === 'tool_call' && e.status === 'completed';
}

const DIFF_HEIGHT = 300;

/**
 * Every file the agent wrote in this session, one row per file (its writes folded together), the
 * diff from before the first write to after the last, and "undo this file".
 */
export function ChangesPanel({ sessionId }: { sessionId: string }) {
  // The transcript object changes once per frame at most: fs writes and completed tool diffs both count.
  const transcript = useSessions((s) => s.views[sessionId]?.transcript);
  const cwd = useSessions((s) => s.views[sessionId]?.summary.cwd);
  const groups = useMemo(() => groupFileChanges(transcript ? allFileChanges(transcript) : []), [transcript]);
  // Large diffs of completed tool calls came as previews: their texts are fetched, and each joins
  // the groups when here (state/diff-texts.ts).
  const previews = useMemo(() => (transcript ? previewsIn(transcript, (id) => isCompletedCall(transcript.entries[id])) : []), [transcript]);
  const texts = useFullTexts(sessionId, previews);
  const undone = useUndoneIds(sessionId);
  const undoneSet = useMemo(() => new Set(undone), [undone]);
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const patchable = groups.filter((g) => !isFullyUndone(g, undoneSet));
  const latest = groups.reduce<FileGroup | undefined>((best, g) => (!best || g.lastT >= best.lastT ? g : best), undefined);

  return (
    <div className="changes-panel" data-testid="changes-panel" data-session-id={sessionId} data-count={groups.length} data-loading={previews.length > 0 ? 'true' : undefined}>
      <header className="changes-header">
        <strong>Changes</strong>
        <span className="muted">{groups.length === 1 ? '1 file' : `${groups.length} files`}</span>
        <span className="spacer" />
        {patchable.length > 0 && (
          <button
            type="button"
            className="change-btn"
            data-testid="changes-patch"
            title="The agent's changes to these files as one patch (files you undid entirely are left out): git apply in a copy of the folder as it was applies it"
            onClick={() => downloadText(`session-${sessionId.slice(0, 12)}.patch`, sessionPatch(patchable.map(fileDiffOf), cwd), 'text/x-diff')}
          >
            Download patch
          </button>
        )}
      </header>
      {previews.length > 0 ? (
        <p className="muted changes-note" data-testid="changes-loading" role="status">
          {texts.error !== null ? `Could not load ${previews.length === 1 ? 'a diff' : 'some diffs'}: ${texts.error}` : `Loading ${texts.loading === 1 ? 'a diff' : `${texts.loading} diffs`}…`}
          {texts.error !== null ? (
            <button type="button" className="change-btn" data-testid="changes-retry" onClick={() => retryFullTexts(sessionId, previews)}>
              Try again
            </button>
          ) : null}
        </p>
      ) : null}
      {groups.length === 0 && previews.length === 0 ? (
        <p className="muted changes-empty" data-testid="changes-empty">
          The agent has not written any file in this session.
        </p>
      ) : (
        <ul className="changes-list">
          {groups.map((group) => (
            <ChangeRow
              key={group.path}
              sessionId={sessionId}
              group={group}
              label={displayPath(group.path, cwd)}
              undone={undoneSet}
              open={expanded[group.path] ?? group === latest}
              onToggle={() => setExpanded((e) => ({ ...e, [group.path]: !(e[group.path] ?? group === latest) }))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

interface ChangeRowProps {
  sessionId: string;
  group: FileGroup;
  label: string;
  undone: ReadonlySet<string>;
  open: boolean;
  onToggle(): void;
}

function ChangeRow({ sessionId, group, label, undone, open, onToggle }: ChangeRowProps) {
  const show = useDiffDialog((s) => s.show);
  const result = useUndoResult(sessionId, group.path);
  const base = diffBase(group);
  const fullyUndone = isFullyUndone(group, undone);
  const canUndo = undoPlan(group, undone).length > 0 && result?.status !== 'running';
  const isNew = group.original === null;
  const state = fullyUndone ? 'undone' : isNew ? 'new' : 'changed';
  const writes = group.changes.length;

  return (
    <li className={`change-row change-${state}`} data-testid="change-row" data-path={group.path} data-state={state} data-writes={writes}>
      <ChangeRowHead
        path={group.path}
        label={label}
        open={open}
        onToggle={onToggle}
        oldText={base.oldText}
        newText={group.current}
        created={isNew}
        undone={fullyUndone}
        writes={writes}
        failed={group.failed}
        statsTestId="change-stats"
      >
        <button
          type="button"
          className="change-btn"
          data-testid="change-open"
          onClick={() => show({ title: `Changes to ${label}`, path: group.path, oldText: base.oldText, newText: group.current })}
        >
          Open
        </button>
        <button
          type="button"
          className="change-btn"
          data-testid="change-undo"
          disabled={!canUndo}
          title={fullyUndone ? 'Already undone' : 'Put the file back as it was before the agent wrote it'}
          onClick={() => void undoFile(sessionId, group)}
        >
          Undo
        </button>
      </ChangeRowHead>
      {result && (
        <div className={`change-undo-result change-undo-${result.status}`} data-testid="change-undo-result" data-result={result.status} role="status">
          {undoResultText(result, writes)}
        </div>
      )}
      {!base.exact && <div className="change-note">The text before the agent's first write is not known: the diff starts {group.baseIndex >= 0 ? `at write ${group.baseIndex + 1}` : 'from an empty file'}.</div>}
      {open && (
        <div className="change-diff" data-testid="change-diff">
          <DiffView oldText={base.oldText} newText={group.current} path={group.path} height={DIFF_HEIGHT} fit compact testId="change-diff-view" />
        </div>
      )}
    </li>
  );
}
