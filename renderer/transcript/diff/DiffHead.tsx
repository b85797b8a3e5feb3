/**
 * The head of an inline diff, whole or previewed (InlineDiff, InlineDiffPreview): the tool call's
 * location for the path (or the path itself), a "new file" badge, the +/− counts when there is a
 * diff to count, and "Open in diff editor".
 */
import type { ToolCallLocation } from '../../../common/transcript/acp-types';
import { ToolLocation } from '../entries/ToolLocation';

interface DiffHeadProps {
  path: string;
  /** Shown instead of the plain path, so the path is shown once (entries/diff-locations.ts). */
  location?: ToolCallLocation | undefined;
  newFile: boolean;
  /** Lines added and removed; null when the diff is identical or too large to count. */
  stats: { added: number; removed: number } | null;
  onOpen: () => void;
}

export function DiffHead({ path, location, newFile, stats, onOpen }: DiffHeadProps) {
  return (
    <div className="tx-diff-head">
      {location ? (
        <ToolLocation location={location} />
      ) : (
        <span className="tx-diff-path" title={path}>
          {path}
        </span>
      )}
      {newFile ? <span className="tx-badge tx-badge-ok">new file</span> : null}
      {stats ? (
        <span className="tx-diff-stats" data-testid="diff-stats">
          <span className="tx-diff-added">+{stats.added}</span> <span className="tx-diff-removed">−{stats.removed}</span>
        </span>
      ) : null}
      <span className="tx-spacer" />
      <button type="button" className="tx-btn tx-btn-small" data-testid="open-diff" onClick={onOpen}>
        Open in diff editor
      </button>
    </div>
  );
}
