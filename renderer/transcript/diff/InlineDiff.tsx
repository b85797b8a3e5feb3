/**
 * A static unified diff of one file inside a tool card, computed once per oldText/newText pair,
 * with a button to open the full Monaco diff editor.
 *
 * The diff does not scroll inside the card (issue #11: every nested scroller was a composited layer,
 * and four streaming panes mount a dozen diff cards a second): a long diff shows its first lines
 * and a "Show all N lines" / "Show less" button that expands it inline, in the transcript's own
 * scroll. Nothing scrolls sideways: in the collapsed preview (drawn as runs of rows, diff-runs.ts)
 * long lines are clipped with an ellipsis; shown whole, they wrap. Every diff starts collapsed, including
 * the diff of a tool call still in progress; what the user expanded stays expanded (`ui-state`).
 */
import { baseName } from '../../../common/text/base-name';
import { memo, useId, useMemo, useRef, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { DiffContent, ToolCallLocation } from '../../../common/transcript/acp-types';
import { useDiffDialog } from '../../monaco/diff-store';
import { DiffHead } from './DiffHead';
import { useDisclosure } from '../ui-state';
import { diffPreview, type DiffPreview } from '../../../common/diff/collapsed-diff';
import { diffRuns, SIGN } from './diff-runs';
import { hunkHeader, lineDiff, type InlineDiff as Diff } from '../../../common/diff/line-diff';

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


/**
 * `location`: the tool call's own location for this diff's path (entries/diff-locations.ts): the head
 * shows it (copyable, like any location) instead of the plain path, so the path is shown once. An
 * object, not an element, so that the memo still skips a card's re-render that changed nothing here.
 */
export const InlineDiff = memo(function InlineDiff({ content, title, stateKey, location }: { content: DiffContent; title: string; stateKey: string; location?: ToolCallLocation | undefined }) {
  const diff = useMemo(() => diffOf(content), [content]);
  const [expanded, toggle] = useDisclosure(`${stateKey}:diff-all`);
  const open = () =>
    useDiffDialog.getState().show({ title: title || baseName(content.path), path: content.path, oldText: content.oldText ?? null, newText: content.newText });
  const newFile = content.oldText === null || content.oldText === undefined;
  return (
    <div className="tx-diff" data-testid="diff-inline" data-path={content.path} data-kind={diff.kind}>
      <DiffHead path={content.path} location={location} newFile={newFile} stats={diff.kind === 'diff' ? diff : null} onOpen={open} />
      <DiffBody diff={diff} expanded={expanded} onToggle={toggle} />
    </div>
  );
});

/**
 * Collapsing a diff the reader scrolled through removes most of its height above the toggle; the
 * transcript's virtualizer keeps the scroll offset for a row that spans the viewport, so the card
 * would vanish above it. The toggle stays where it was on screen instead: the transcript scrolls
 * by the height it lost.
 */
export function collapseInPlace(button: HTMLElement | null, collapse: () => void): void {
  const scroller = button?.closest('.tx-scroll');
  if (!button || !scroller) return collapse();
  const before = button.getBoundingClientRect().top;
  flushSync(collapse);
  scroller.scrollTop += button.getBoundingClientRect().top - before;
}

function DiffBody({ diff, expanded, onToggle }: { diff: Diff; expanded: boolean; onToggle: () => void }) {
  const linesId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  if (diff.kind === 'identical') return <div className="tx-diff-note">No changes.</div>;
  if (diff.kind === 'too-large') {
    return (
      <div className="tx-diff-note" data-testid="diff-too-large">
        File too large to diff inline ({diff.oldLines} → {diff.newLines} lines). Open it in the diff editor.
      </div>
    );
  }
  const preview = diffPreview(diff.hunks, expanded);
  // Number columns as wide as the diff's largest line number (at least 3 digits), collapsed or not.
  const last = diff.hunks[diff.hunks.length - 1];
  const maxNo = last ? Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines) : 0;
  const digits = Math.max(3, String(maxNo).length);
  const noWidth = `${digits}ch`;
  // A collapsed preview is drawn as runs of rows of one kind (diff-runs.ts): a few boxes per card
  // instead of 4 per row (issue #11); its rows do not wrap (long lines are clipped). A diff shown
  // whole keeps one row per line, and long lines wrap.
  const clipped = preview.collapsible && !expanded;
  const rows = clipped ? runRows(preview, digits) : lineRows(preview);
  return (
    <>
      <div className={clipped ? 'tx-diff-lines tx-diff-clipped' : 'tx-diff-lines'} id={linesId} data-testid="diff-lines" data-shown={preview.shown} data-total={preview.total} style={{ ['--tx-diff-no-w' as string]: noWidth }}>
        {rows}
      </div>
      {preview.collapsible ? (
        <button
          type="button"
          className="tx-link-btn tx-diff-toggle"
          data-testid="diff-toggle-all"
          data-expanded={expanded ? 'true' : 'false'}
          aria-expanded={expanded}
          aria-controls={linesId}
          ref={toggleRef}
          onClick={() => (expanded ? collapseInPlace(toggleRef.current, onToggle) : onToggle())}
        >
          {expanded ? 'Show less' : `Show all ${preview.total} lines`}
        </button>
      ) : null}
    </>
  );
}

/** A collapsed preview: one box per run of rows of one kind, three unwrapped text cells each. */
export function runRows(preview: DiffPreview, digits: number): ReactNode[] {
  return diffRuns(preview, digits).map((r, i) => (
    <div key={i} className={`tx-diff-run tx-diff-run-${r.kind}`} data-rows={r.rows}>
      <span className="tx-diff-run-nos">{r.numbers}</span>
      <span className="tx-diff-run-signs">{r.signs}</span>
      <span className="tx-diff-run-code">{r.code}</span>
    </div>
  ));
}

/** A diff shown whole: one row per line (numbers, sign, text that wraps). */
export function lineRows(preview: DiffPreview): ReactNode[] {
  const rows: ReactNode[] = [];
  for (let hi = 0; hi < preview.hunks.length; hi++) {
    const { hunk: h, lines } = preview.hunks[hi]!;
    rows.push(
      <div key={`h${hi}`} className="tx-diff-line tx-diff-hunk">
        <span className="tx-diff-no" />
        <span className="tx-diff-no" />
        <span className="tx-diff-sign" />
        <span className="tx-diff-text">{hunkHeader(h)}</span>
      </div>,
    );
    for (let li = 0; li < lines; li++) {
      const l = h.lines[li]!;
      rows.push(
        <div key={`${hi}:${li}`} className={`tx-diff-line tx-diff-${l.kind}`}>
          <span className="tx-diff-no">{l.oldNo ?? ''}</span>
          <span className="tx-diff-no">{l.newNo ?? ''}</span>
          <span className="tx-diff-sign">{SIGN[l.kind]}</span>
          <span className="tx-diff-text">{l.text}</span>
        </div>,
      );
    }
  }
  return rows;
}
