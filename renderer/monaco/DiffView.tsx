import { useEffect, useMemo, useRef, useState } from 'react';
import { countLines, describeHugeDiff, hugeDiffReason } from './diff-policy';
import type { Lease } from './lease-pool';
import { diffEditorPool, loadMonaco } from './load-monaco';
import type { DiffEditorHandle } from './monaco-setup';
import { UnifiedDiffView } from './UnifiedDiffView';
import './monaco.css';

export interface DiffViewProps {
  /** null / undefined: the file did not exist (everything is added). */
  oldText: string | null | undefined;
  newText: string;
  /** The change deletes the file: its old text alone, every line removed. */
  deleted?: boolean;
  /** For the language (by extension). */
  path: string;
  /** Pixels, or 'fill' to take the parent's height. With `fit`, the most it grows to. */
  height: number | 'fill';
  /** Shrink to the diff's own height (up to `height`): a two-line change does not take 240 px. */
  fit?: boolean;
  /** Inline in a card: no overview ruler, smaller font. */
  compact?: boolean;
  /** The full-size dialog: never evicted from the pool. */
  pinned?: boolean;
  testId?: string;
}

type Status = 'waiting' | 'loading' | 'live' | 'parked' | 'error';

/**
 * A read-only Monaco diff editor, created when the view first comes on screen, with a lease from
 * the window's small pool (a newer view may take it back: the view then shows a plain diff and a
 * button to bring the editor back), disposed on unmount. Huge files get the plain unified view.
 * Until the editor is ready the plain diff shows, so the content is never blank.
 */
export function DiffView({ oldText, newText, deleted = false, path, height, fit = false, compact = false, pinned = false, testId = 'diff-view' }: DiffViewProps) {
  const huge = useMemo(() => hugeDiffReason(oldText, newText), [oldText, newText]);
  /** The change creates or deletes the file: that side alone, every line marked (no empty other side). */
  const whole: 'added' | 'removed' | null = oldText === null || oldText === undefined ? 'added' : deleted ? 'removed' : null;
  const estimate = useMemo(() => (fit && !huge ? estimateDiffHeight(oldText, newText) : 0), [fit, huge, oldText, newText]);
  const [contentHeight, setContentHeight] = useState<number | null>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<DiffEditorHandle | null>(null);
  const leaseRef = useRef<Lease | null>(null);
  const visibleRef = useRef(false);
  const [status, setStatus] = useState<Status>('waiting');
  const [error, setError] = useState<string | null>(null);
  /** Bumped to (re)create the editor: first time on screen, back on screen after eviction, or on request. */
  const [generation, setGeneration] = useState(0);
  const texts = useRef({ oldText, newText });
  texts.current = { oldText, newText };

  // Create the editor only once the view is on screen (cards scrolled past never pay for one).
  useEffect(() => {
    const wrapper = wrapperRef.current;
    if (huge || !wrapper) return;
    if (typeof IntersectionObserver !== 'function') {
      setGeneration((g) => (g === 0 ? 1 : g));
      return;
    }
    const observer = new IntersectionObserver(
      (records) => {
        const visible = records.some((r) => r.isIntersecting);
        const was = visibleRef.current;
        visibleRef.current = visible;
        leaseRef.current?.setVisible(visible);
        if (visible && !was && !leaseRef.current?.live) setGeneration((g) => g + 1);
      },
      { rootMargin: '200px' },
    );
    observer.observe(wrapper);
    return () => observer.disconnect();
  }, [huge]);

  useEffect(() => {
    if (huge || generation === 0) return;
    let cancelled = false;
    setStatus('loading');
    loadMonaco()
      .then((setup) => {
        const container = containerRef.current;
        if (cancelled || !container) return;
        const lease = diffEditorPool.acquire({
          pinned,
          evict: () => {
            handleRef.current?.dispose();
            handleRef.current = null;
            leaseRef.current = null;
            setStatus('parked');
          },
        });
        if (!lease) {
          setStatus('parked');
          return;
        }
        lease.setVisible(visibleRef.current || pinned);
        leaseRef.current = lease;
        const handle = whole
          ? setup.createWholeFileEditor(container, { text: whole === 'added' ? texts.current.newText : (texts.current.oldText ?? ''), path, compact, change: whole })
          : setup.createDiffEditor(container, { oldText: texts.current.oldText ?? '', newText: texts.current.newText, path, compact });
        handleRef.current = handle;
        if (fit) handle.onContentHeight((h) => handleRef.current === handle && setContentHeight(h));
        setStatus('live');
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        setError(err instanceof Error ? err.message : String(err));
        setStatus('error');
      });
    return () => {
      cancelled = true;
      handleRef.current?.dispose();
      handleRef.current = null;
      leaseRef.current?.release();
      leaseRef.current = null;
    };
    // The editor is created once per generation; text changes go through `update` below.
  }, [huge, generation, pinned, path, compact, fit, whole]);

  useEffect(() => {
    handleRef.current?.update(oldText ?? '', newText);
  }, [oldText, newText]);

  const live = status === 'live';
  const style = { height: height === 'fill' ? '100%' : `${fit && !huge ? fitHeight(live && contentHeight !== null ? contentHeight : estimate, height) : height}px` };
  if (huge) {
    return (
      <div className={`diff-view diff-view-plain${compact ? ' diff-view-compact' : ''}`} style={style} data-testid={testId} data-state="plain">
        <UnifiedDiffView oldText={oldText} newText={newText} note={describeHugeDiff(huge)} />
      </div>
    );
  }
  return (
    <div
      ref={wrapperRef}
      className={`diff-view${compact ? ' diff-view-compact' : ''}`}
      style={style}
      data-testid={testId}
      data-state={status}
      data-whole-file={whole ?? undefined}
      onPointerDown={() => leaseRef.current?.touch()}
      onFocus={() => leaseRef.current?.touch()}
    >
      {/* inert (out of the focus order and hidden from assistive technology) rather than aria-hidden: on its way to live it already holds Monaco's focusable text boxes */}
      <div ref={containerRef} className="diff-view-editor" inert={!live} />
      {!live && (
        <div className="diff-view-static">
          {status === 'parked' && (
            <div className="diff-view-banner">
              <span>Showing a plain diff: other diff editors are open.</span>
              <button type="button" data-testid="diff-view-revive" onClick={() => setGeneration((g) => g + 1)}>
                Open diff editor here
              </button>
            </div>
          )}
          {status === 'error' && <div className="diff-view-banner error">The diff editor failed to load: {error}</div>}
          <UnifiedDiffView oldText={oldText} newText={newText} />
        </div>
      )}
    </div>
  );
}

/** Smallest height of a fitted view: room for the "open diff editor" banner and a line or two. */
const MIN_FIT_HEIGHT = 64;
const LINE_HEIGHT = 18;

function fitHeight(content: number, max: number): number {
  // +2 for the border, +8 for the editor's padding.
  return Math.round(Math.min(max, Math.max(MIN_FIT_HEIGHT, content + 10)));
}

/** Before Monaco measures: the taller side, in lines (unchanged regions folded only once it runs). */
function estimateDiffHeight(oldText: string | null | undefined, newText: string): number {
  return (Math.max(countLines(oldText ?? ''), countLines(newText)) + 1) * LINE_HEIGHT;
}
