/**
 * The transcript of one session: a virtualized list of entry rows keyed by entry id, with measured
 * (dynamic) heights. It follows the output while the user is at the bottom; scrolling up stops
 * following and offers "jump to latest". Each row selects its own entry, so a streamed chunk
 * re-renders one row, and this component re-renders only when the entry count changes or the
 * virtualizer moves.
 *
 * The parent must give the view a height (a flex child with `min-height: 0`, or a sized box).
 */
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { Transcript } from '../../common/transcript/model';
import { useEntryCount, useSessions } from '../state/sessions-store';
import { EndFollower } from './end-follower';
import { EntryRow, estimateHeight } from './EntryRow';
import { followRange } from './follow-range';
import { rowSize } from './row-size';
import './transcript.css';

/** Within this many pixels of the bottom counts as "at the latest": follow, no button. */
const END_THRESHOLD = 32;
/**
 * Rows mounted beyond the viewport on each side. A pane that follows the stream has nothing below
 * and only needs a couple above (a reader scrolling up brings the larger overscan back on the next
 * render): every row mounted off-screen is layout and paint work on each streamed frame (issue #11).
 */
const OVERSCAN = 6;
const FOLLOWING_OVERSCAN = 2;

export function TranscriptView({ sessionId }: { sessionId: string }) {
  const loaded = useSessions((s) => s.views[sessionId]?.loaded ?? false);
  const complete = useSessions((s) => s.views[sessionId]?.complete ?? false);
  const loadError = useSessions((s) => s.views[sessionId]?.loadError);
  const exists = useSessions((s) => s.views[sessionId] !== undefined);
  // The id list is shared across frames (appends are signalled by the count); its identity
  // changes only when the transcript is reloaded.
  const ids = useSessions((s) => s.views[sessionId]?.transcript.ids);
  const count = useEntryCount(sessionId);
  const prompted = useSessions((s) => hasUserMessage(s.views[sessionId]?.transcript));
  const scrollRef = useRef<HTMLDivElement>(null);
  // Follow mode is ours, not the virtualizer's end anchoring (see end-follower.ts): `following`
  // drives the render (button, data-following, overscan, range); the follower keeps the truth
  // between renders.
  const [following, setFollowing] = useState(true);
  const [follower] = useState(() => new EndFollower(END_THRESHOLD, setFollowing));

  const getItemKey = useCallback((index: number) => ids?.[index] ?? index, [ids]);
  const estimateSize = useCallback(
    (index: number) => {
      const id = ids?.[index];
      const entry = id === undefined ? undefined : useSessions.getState().views[sessionId]?.transcript.entries[id];
      return estimateHeight(entry?.kind);
    },
    [ids, sessionId],
  );

  const overscan = following ? FOLLOWING_OVERSCAN : OVERSCAN;
  const virtualizerRef = useRef<ReturnType<typeof useVirtualizer<HTMLDivElement, Element>> | null>(null);
  // While following, the rows that fill the viewport counted from the end, whatever offset the
  // virtualizer last heard of (the pin's scroll event comes a frame later).
  const rangeExtractor = useCallback(
    (range: Range) => {
      const v = virtualizerRef.current;
      if (!following || !v) return defaultRangeExtractor(range);
      return followRange(range.count, (i) => v.measurementsCache[i]?.end ?? 0, v.scrollRect?.height ?? 0, range.overscan);
    },
    [following],
  );

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    measureElement: rowSize,
    overscan,
    rangeExtractor,
    paddingStart: 8,
    paddingEnd: 16,
    // Reading further up, the viewport holds still while entries are appended or older ones are
    // loaded in front (the virtualizer keeps the row being read in place). While following, the
    // follower pins the end and the virtualizer does not anchor: its end anchoring forces layouts.
    anchorTo: following ? 'start' : 'end',
    followOnAppend: false,
    scrollEndThreshold: END_THRESHOLD,
  });
  virtualizerRef.current = virtualizer;

  useLayoutEffect(() => {
    const box = scrollRef.current;
    return box ? follower.attach(box) : undefined;
  }, [follower]);

  // Open at the latest entry (and again when a reload brings a new transcript).
  useLayoutEffect(() => {
    if (loaded && count > 0) follower.follow();
  }, [loaded, ids, sessionId]);

  const items = virtualizer.getVirtualItems();
  const totalSize = virtualizer.getTotalSize();
  const viewportHeight = virtualizer.scrollRect?.height ?? 0;
  // Pin after a commit that changed the list's height or the viewport's (appends, a growing last
  // row, a resized pane), not after the re-render a pin's own scroll event causes. The follower's
  // own flag decides (it is set in the scroll event, before this render's state catches up).
  const pinned = useRef('');
  useLayoutEffect(() => {
    const size = `${totalSize}:${viewportHeight}`;
    if (pinned.current === size) return;
    pinned.current = size;
    follower.pin();
  });

  return (
    <div className="tx-view transcript" data-testid="transcript" data-session-id={sessionId} data-count={count} data-complete={complete ? 'true' : 'false'} data-following={following ? 'true' : 'false'}>
      <div
        ref={scrollRef}
        className="tx-scroll"
        data-testid="transcript-scroll"
        tabIndex={0}
        role="log"
        aria-live="off"
        aria-label="Transcript"
      >
        <div className="tx-sizer" style={{ height: totalSize }}>
          {items.map((item) => (
            <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="tx-row" style={{ transform: `translateY(${item.start}px)` }}>
              <EntryRow sessionId={sessionId} entryId={String(item.key)} />
            </div>
          ))}
        </div>
        {count === 0 && !(exists && loaded && !loadError) ? (
          <div className="tx-empty" data-testid="transcript-empty">
            {loadError ? (
              <span className="tx-error-text">Could not load the transcript: {loadError}</span>
            ) : !exists || !loaded ? (
              'Loading transcript…'
            ) : null}
          </div>
        ) : null}
        {loaded && complete && !loadError && !prompted ? <EmptySessionHint /> : null}
      </div>
      {!following ? (
        <button type="button" className="tx-jump" data-testid="jump-to-latest" onClick={() => follower.follow()}>
          ↓ Jump to latest
        </button>
      ) : null}
    </div>
  );
}

/** Whether the user has prompted yet (stops at the first user message, usually near the start). */
function hasUserMessage(transcript: Transcript | undefined): boolean {
  if (!transcript) return false;
  return transcript.ids.some((id) => transcript.entries[id]?.kind === 'user_message');
}

/** A session nobody has prompted yet says what to do, briefly. */
function EmptySessionHint() {
  return (
    <p className="tx-hint" data-testid="transcript-hint">
      Type a prompt below and press <kbd>Enter</kbd> to send (<kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line). Type <kbd>/</kbd> for the agent’s commands.
    </p>
  );
}
