/**
 * A static unified diff of one file inside a tool card, computed once per oldText/newText pair,
 * with a button to open the full Monaco diff editor.
 */
import { memo, useMemo, type ReactNode } from 'react';
import type { DiffContent } from '../../../common/transcript/acp-types';
import { useDiffDialog } from '../../monaco/diff-store';
import { useDisclosure } from '../ui-state';
import { hunkHeader, lineDiff, type InlineDiff as Diff } from './line-diff';

/** Lines shown before "show all": keeps a big edit from flooding the transcript's DOM. */
const COLLAPSED_LINES = 80;
const EXPANDED_LINES = 2000;

const cache = new WeakMap<DiffContent, Diff>();
/**
 * The same texts arrive again as new objects (a `tool_call` and its `tool_call_update` both carry
 * the diff; a reloaded transcript): the last few diffs are also kept by their texts.
 */
const byText = new Map<string, Diff>();
const BY_TEXT_MAX = 64;

function diffOf(content: DiffContent): Diff {
  let d = cache.get(content);
  if (d) return d;
  const key = `${content.oldText ?? '\u0000new'}\u0000${content.newText}`;
  d = byText.get(key);
  if (!d) {
    d = lineDiff(content.oldText, content.newText);
    byText.set(key, d);
    if (byText.size > BY_TEXT_MAX) byText.delete(byText.keys().next().value!);
  }
  cache.set(content, d);
  return d;
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

export const InlineDiff = memo(function InlineDiff({ content, title, stateKey }: { content: DiffContent; title: string; stateKey: string }) {
  const diff = useMemo(() => diffOf(content), [content]);
  const [expanded, toggle] = useDisclosure(`${stateKey}:diff-all`);
  const open = () =>
    useDiffDialog.getState().show({ title: title || baseName(content.path), path: content.path, oldText: content.oldText ?? null, newText: content.newText });
  const newFile = content.oldText === null || content.oldText === undefined;
  return (
    <div className="tx-diff" data-testid="diff-inline" data-path={content.path} data-kind={diff.kind}>
      <div className="tx-diff-head">
        <span className="tx-diff-path" title={content.path}>
          {content.path}
        </span>
        {newFile ? <span className="tx-badge tx-badge-ok">new file</span> : null}
        {diff.kind === 'diff' ? (
          <span className="tx-diff-stats" data-testid="diff-stats">
            <span className="tx-diff-added">+{diff.added}</span> <span className="tx-diff-removed">−{diff.removed}</span>
          </span>
        ) : null}
        <span className="tx-spacer" />
        <button type="button" className="tx-btn tx-btn-small" data-testid="open-diff" onClick={open}>
          Open in diff editor
        </button>
      </div>
      <DiffBody diff={diff} expanded={expanded} onToggle={toggle} />
    </div>
  );
});

function DiffBody({ diff, expanded, onToggle }: { diff: Diff; expanded: boolean; onToggle: () => void }) {
  if (diff.kind === 'identical') return <div className="tx-diff-note">No changes.</div>;
  if (diff.kind === 'too-large') {
    return (
      <div className="tx-diff-note" data-testid="diff-too-large">
        File too large to diff inline ({diff.oldLines} → {diff.newLines} lines). Open it in the diff editor.
      </div>
    );
  }
  const limit = expanded ? EXPANDED_LINES : COLLAPSED_LINES;
  const total = diff.hunks.reduce((n, h) => n + h.lines.length + 1, 0);
  let budget = limit;
  const rows: ReactNode[] = [];
  for (let hi = 0; hi < diff.hunks.length && budget > 0; hi++) {
    const h = diff.hunks[hi]!;
    rows.push(
      <div key={`h${hi}`} className="tx-diff-line tx-diff-hunk">
        <span className="tx-diff-no" />
        <span className="tx-diff-no" />
        <span className="tx-diff-text">{hunkHeader(h)}</span>
      </div>,
    );
    budget--;
    for (let li = 0; li < h.lines.length && budget > 0; li++, budget--) {
      const l = h.lines[li]!;
      rows.push(
        <div key={`${hi}:${li}`} className={`tx-diff-line tx-diff-${l.kind}`}>
          <span className="tx-diff-no">{l.oldNo ?? ''}</span>
          <span className="tx-diff-no">{l.newNo ?? ''}</span>
          <span className="tx-diff-text">
            <span className="tx-diff-sign">{l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' '}</span>
            {l.text}
          </span>
        </div>,
      );
    }
  }
  return (
    <>
      <div className="tx-diff-body">
        <div className="tx-diff-lines">{rows}</div>
      </div>
      {total > COLLAPSED_LINES ? (
        <button type="button" className="tx-link-btn" data-testid="diff-toggle-all" onClick={onToggle}>
          {expanded ? 'Show less' : `Show all ${total} lines`}
          {expanded && total > EXPANDED_LINES ? ` (first ${EXPANDED_LINES} shown — open the diff editor for the rest)` : ''}
        </button>
      ) : null}
    </>
  );
}
