import { useMemo, type CSSProperties } from 'react';
import { unifiedDiff } from '../../common/diff/unified-diff';

export interface UnifiedDiffViewProps {
  oldText: string | null | undefined;
  newText: string;
  /** Shown above the diff (why this is not the diff editor). */
  note?: string | undefined;
  maxLines?: number;
  testId?: string;
}

/** A plain, read-only unified diff: no Monaco, no worker; for huge files and views waiting for an editor. */
export function UnifiedDiffView({ oldText, newText, note, maxLines = 5000, testId = 'unified-diff' }: UnifiedDiffViewProps) {
  const diff = useMemo(() => unifiedDiff(oldText, newText, { maxLines }), [oldText, newText, maxLines]);
  // Line number columns as wide as the largest number shown.
  const digits = useMemo(() => String(diff.lines.reduce((max, l) => Math.max(max, l.oldNo ?? 0, l.newNo ?? 0), 0)).length, [diff]);
  return (
    <div className="unified-diff" data-testid={testId} data-added={diff.added} data-removed={diff.removed}>
      {note && <div className="unified-diff-note">{note}</div>}
      {diff.lines.length === 0 && <div className="unified-diff-note">No changes.</div>}
      <div className="unified-diff-scroll">
        <div className="unified-diff-lines" role="table" aria-label="Diff" style={{ '--udl-digits': `${digits + 1}ch` } as CSSProperties}>
          {diff.lines.map((line, i) => (
            <div key={i} className={`udl udl-${kindClass(line.kind)}`} role="row">
              <span className="udl-no" role="cell">{line.oldNo ?? ''}</span>
              <span className="udl-no" role="cell">{line.newNo ?? ''}</span>
              <span className="udl-mark" role="cell">{line.kind === '@' || line.kind === ' ' ? '' : line.kind}</span>
              <span className="udl-text" role="cell">{line.text}</span>
            </div>
          ))}
        </div>
      </div>
      {diff.omitted > 0 && <div className="unified-diff-note">{diff.omitted.toLocaleString('en-US')} more diff lines not shown.</div>}
    </div>
  );
}

function kindClass(kind: ' ' | '-' | '+' | '@'): string {
  switch (kind) {
    case '+':
      return 'add';
    case '-':
      return 'del';
    case '@':
      return 'hunk';
    default:
      return 'ctx';
  }
}
