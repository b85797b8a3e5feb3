/**
 * The find bar of a transcript pane (Ctrl+F): the words, "3 of 12", previous / next (Shift+Enter /
 * Enter, or the arrows), Esc to close. The matching words in the rows on screen are highlighted
 * (find-highlight.ts); the current entry's row is outlined by the transcript view.
 */
import { useEffect, useRef } from 'react';
import { findUi, paneFind, useFind } from './find-store';
import { useFindHighlight } from './find-highlight';
import './find.css';

export function FindBar({ sessionId, scroller }: { sessionId: string; scroller: React.RefObject<HTMLDivElement | null> }) {
  const f = useFind(paneFind(sessionId));
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (f.open) input.current?.select();
  }, [f.open, f.focusSeq]);
  useFindHighlight(sessionId, scroller, f.open ? f.query : '', f.jump?.id ?? null);
  if (!f.open) return null;
  const status = f.error
    ? `Could not search: ${f.error}`
    : !f.query.trim()
      ? ''
      : f.searching && f.ids.length === 0
        ? 'Searching…'
        : f.total === 0
          ? 'No matches'
          : `${f.current + 1} of ${f.total}${f.total > f.ids.length ? ` (first ${f.ids.length} listed)` : ''}`;
  const close = () => {
    findUi.close(sessionId);
    scroller.current?.focus();
  };
  return (
    <div className="tx-find" role="search" data-testid="find-bar" data-total={f.total} data-current={f.current}>
      <input
        ref={input}
        type="text"
        value={f.query}
        placeholder="Find in transcript"
        aria-label="Find in transcript"
        data-testid="find-input"
        onChange={(e) => findUi.setQuery(sessionId, e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void findUi.step(sessionId, e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
        }}
      />
      <span className={`tx-find-status small${f.error ? ' error' : ''}`} data-testid="find-status" role="status">
        {status}
      </span>
      <button type="button" className="icon" onClick={() => void findUi.step(sessionId, -1)} disabled={f.total === 0} title="Previous match (Shift+Enter)" aria-label="Previous match" data-testid="find-prev">
        ↑
      </button>
      <button type="button" className="icon" onClick={() => void findUi.step(sessionId, 1)} disabled={f.total === 0} title="Next match (Enter)" aria-label="Next match" data-testid="find-next">
        ↓
      </button>
      <button type="button" className="icon" onClick={close} title="Close (Esc)" aria-label="Close find" data-testid="find-close">
        ×
      </button>
    </div>
  );
}
