import { useEffect, useState } from 'react';
import type { FileDiff } from '../../common/transcript/file-diffs';
import { api, errorText } from '../api/api-context';
import { DiffView } from '../monaco/DiffView';
import { displayPath } from '../monaco/diff-policy';
import { useDiffDialog } from '../monaco/diff-store';
import { counted } from '../../common/text/counted';
import { sessionPatch } from '../../common/diff/session-patch';
import { downloadText } from '../app/download-text';
// The rows' look is the changes panel's.
import '../changes/changes.css';
import { ChangeRowHead } from '../changes/ChangeRowHead';

const DIFF_HEIGHT = 260;

/**
 * What a recorded session did to each file, read from its trace (`history/changes`): one row per
 * file with its diff from before the agent's first write to after its last — to review a session
 * without resuming it (which starts its agent). Read-only: the files may have changed since, so
 * there is no undo here (the live pane's changes panel has it).
 */
export function HistoryChanges({ id, cwd, version }: { id: string; cwd: string | undefined; version: number }) {
  const [files, setFiles] = useState<FileDiff[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Record<string, boolean>>({});

  useEffect(() => {
    let stale = false;
    setError(null);
    setOpen({});
    api()
      .request('history/changes', { id })
      .then((r) => !stale && setFiles(r.files))
      .catch((err: unknown) => !stale && setError(errorText(err)));
    return () => {
      stale = true;
    };
  }, [id, version]);

  if (error) {
    return (
      <section className="history-changes" data-testid="history-changes" data-count={0}>
        <h4>Changes</h4>
        <p className="error small" role="alert" data-testid="history-changes-error">
          Could not read this session’s changes: {error}
        </p>
      </section>
    );
  }
  if (!files || files.length === 0) return null;
  return (
    <section className="history-changes" data-testid="history-changes" data-count={files.length}>
      <div className="row history-changes-head">
        <h4>Changes · {counted(files.length, 'file')}</h4>
        <span className="spacer" />
        <button
          type="button"
          className="change-btn"
          data-testid="history-changes-patch"
          title="Every file's diff as one patch: git apply in a copy of the session's folder as it was before applies it"
          onClick={() => downloadText(`session-${id.slice(0, 12)}.patch`, sessionPatch(files, cwd), 'text/x-diff')}
        >
          Download patch
        </button>
      </div>
      <ul className="changes-list">
        {files.map((file) => (
          <HistoryChangeRow
            key={file.path}
            file={file}
            label={displayPath(file.path, cwd)}
            open={open[file.path] ?? files.length === 1}
            onToggle={() => setOpen((o) => ({ ...o, [file.path]: !(o[file.path] ?? files.length === 1) }))}
          />
        ))}
      </ul>
    </section>
  );
}

function HistoryChangeRow({ file, label, open, onToggle }: { file: FileDiff; label: string; open: boolean; onToggle(): void }) {
  const show = useDiffDialog((s) => s.show);
  const created = file.oldText === null;
  return (
    <li className={`change-row change-${created ? 'new' : 'changed'}`} data-testid="history-change-row" data-path={file.path}>
      <ChangeRowHead
        path={file.path}
        label={label}
        open={open}
        onToggle={onToggle}
        oldText={file.oldText}
        newText={file.newText}
        created={created}
        writes={file.writes}
        failed={file.failed}
        statsTestId="history-change-stats"
      >
        <button type="button" className="change-btn" data-testid="history-change-open" onClick={() => show({ title: `Changes to ${label}`, path: file.path, oldText: file.oldText, newText: file.newText })}>
          Open
        </button>
      </ChangeRowHead>
      {!file.exact && <div className="change-note">The text before the agent's first write was not recorded: the diff starts at a later write, or from an empty file.</div>}
      {open && (
        <div className="change-diff" data-testid="history-change-diff">
          <DiffView oldText={file.oldText} newText={file.newText} path={file.path} height={DIFF_HEIGHT} fit compact testId="history-change-diff-view" />
        </div>
      )}
    </li>
  );
}
