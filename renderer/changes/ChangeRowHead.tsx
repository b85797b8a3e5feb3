import { useMemo, type ReactNode } from 'react';
import { unifiedDiff } from '../../common/diff/unified-diff';
import { hugeDiffReason } from '../monaco/diff-policy';

export interface ChangeRowHeadProps {
  path: string;
  /** The path as shown (relative to the session's folder). */
  label: string;
  open: boolean;
  onToggle(): void;
  /** The diff's sides, for the +/− counts (none for a file too large to diff here). */
  oldText: string | null;
  newText: string;
  created: boolean;
  undone?: boolean;
  writes: number;
  failed: number;
  statsTestId: string;
  /** The row's buttons (Open, Undo…). */
  children?: ReactNode;
}

/** The head of one file's row in a list of changes (the live changes panel, History's): toggle, badges, +/− and its buttons. */
export function ChangeRowHead({ path, label, open, onToggle, oldText, newText, created, undone = false, writes, failed, statsTestId, children }: ChangeRowHeadProps) {
  const stats = useMemo(() => (hugeDiffReason(oldText, newText) ? null : unifiedDiff(oldText ?? '', newText, { maxLines: 0 })), [oldText, newText]);
  return (
    <div className="change-row-head">
      <button type="button" className="change-toggle" aria-expanded={open} onClick={onToggle} title={path}>
        <span className="change-chevron" aria-hidden>
          {open ? '▾' : '▸'}
        </span>
        <span className="change-path">{label}</span>
      </button>
      {created && <span className="change-badge change-badge-new">new</span>}
      {undone && <span className="change-badge">undone</span>}
      {writes > 1 && <span className="change-badge">{writes} writes</span>}
      {failed > 0 && (
        <span className="change-badge change-badge-error" title="Our answer to these writes was an error: the file may not have changed">
          {failed} failed
        </span>
      )}
      {stats && (
        <span className="change-stats" data-testid={statsTestId}>
          <span className="change-added">+{stats.added}</span> <span className="change-removed">−{stats.removed}</span>
        </span>
      )}
      {children}
    </div>
  );
}
