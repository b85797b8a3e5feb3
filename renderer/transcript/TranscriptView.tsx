/**
 * The transcript of one session: a virtualized list of entry rows keyed by entry id, with measured
 * (dynamic) heights. It follows the output while the user is at the bottom; scrolling up stops
 * following and offers "jump to latest". Each row selects its own entry, so a streamed chunk
 * re-renders one row, and this component re-renders only when the entry count changes or the
 * virtualizer moves.
 *
 * The parent must give the view a height (a flex child with `min-height: 0`, or a sized box).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactElement } from 'react';
import type { VirtualItem } from '@tanstack/react-virtual';
import type { Entry } from '../../common/transcript/model';
import { useSessions } from '../state/sessions-store';
import { EntryRow, estimateHeight } from './EntryRow';
import { createElementCache } from './element-cache';
import { createLightRows, lightChars, lightText } from './light-rows';
import { FIRST_ROWS, NO_BUDGET, nextBudget, rowsWithinBudget } from './mount-budget';
import { transcriptSelectors } from './transcript-selectors';
import { createRowEstimates } from './row-estimates';
import { rowSize } from './row-size';
import { styledHeight } from './known-scroll-extent';
import { headingOffset, scrollingToEnd } from './heading-offset';
import { usePaneVirtualizer } from './use-pane-virtualizer';
import { onUserScrollIntent } from './user-scroll-intent';
import { createReaderFollow } from './reader-follow';
import { createStreamPace } from './stream-pace';
import { StreamPaceContext } from './stream-pace-context';
import { FindBar } from './FindBar';
import { useFind } from './find-store';
import { useReveal } from './reveal-store';
import './transcript.css';

/** Within this many pixels of the bottom counts as "at the latest": follow, no button. */
const END_THRESHOLD = 32;
/** A reader's wheel, key or press that no scroll event followed within this long no longer counts (reader-follow.ts). */
const INTENT_EXPIRES_MS = 1000;
/**
 * Rows mounted beyond the viewport on each side. A pane that follows the stream has nothing below
 * and only needs a couple above (a reader scrolling up brings the larger overscan back on the next
 * render): every row mounted off-screen is layout and paint work on each streamed frame (issue #11).
 */
const OVERSCAN = 6;
const FOLLOWING_OVERSCAN = 2;
const PADDING_START = 8;
const PADDING_END = 16;

export function TranscriptView({ sessionId }: { sessionId: string }) {
  // Selectors made once per session: a render with new ones has a passive effect to run (transcript-selectors.ts).
  const select = useMemo(() => transcriptSelectors(sessionId), [sessionId]);
  const loaded = useSessions(select.loaded);
  const complete = useSessions(select.complete);
  const loadError = useSessions(select.loadError);
  const exists = useSessions(select.exists);
  // The id list is shared across frames (appends are signalled by the count); its identity
  // changes only when the transcript is reloaded.
  const ids = useSessions(select.ids);
  const count = useSessions(select.count);
  const prompted = useSessions(select.prompted);
  const scrollRef = useRef<HTMLDivElement>(null);
  // Whether the pane followed its end at the last commit (set after each commit, read by the next render).
  const following = useRef(true);
  // Whether the reader moved this pane (wheel, touch, its scrollbar, a key) since it last was at the
  // latest entry: only their scrolling draws rows light, never the pane's own scroll to the end.
  const readerScrolled = useRef(false);
  // Whether the pane follows its end: until the reader scrolls it away; the layout cannot stop it (reader-follow.ts).
  const readerFollow = useMemo(() => createReaderFollow(), [sessionId]);
  const [, refresh] = useReducer((n: number) => n + 1, 0);

  const getItemKey = useCallback((index: number) => ids?.[index] ?? index, [ids]);
  // Unmeasured rows are guessed at the height measured rows of their kind have (row-estimates.ts).
  const estimates = useMemo(() => createRowEstimates(estimateHeight), [sessionId]);
  const kindAt = useCallback(
    (index: number) => {
      const id = ids?.[index];
      return id === undefined ? undefined : useSessions.getState().views[sessionId]?.transcript.entries[id]?.kind;
    },
    [ids, sessionId],
  );
  const estimateSize = useCallback((index: number) => estimates.estimate(kindAt(index)), [estimates, kindAt]);
  const measureElement = useCallback<typeof rowSize>(
    (element, entry, instance) => {
      const size = rowSize(element, entry, instance);
      if (entry) estimates.learn(kindAt(instance.indexFromElement(element)), size);
      return size;
    },
    [estimates, kindAt],
  );

  // What the pane knows of its scroller's layout (known-scroll-extent.ts): once there are entries and
  // the empty-session hint is gone (the render below) the scroller holds the rows' sizer alone, as
  // tall as the sizer's committed style says; the "Jump to latest" button below it shapes its
  // viewport. Both are this render's, which the commit that follows shows.
  const hint = loaded && complete && !loadError && !prompted;
  const onlyRows = useRef(false);
  onlyRows.current = count > 0 && !hint;
  const jumpShown = useRef(false);
  const sizerRef = useRef<HTMLDivElement>(null);
  const layout = useMemo(
    () => ({ contentHeight: () => (onlyRows.current ? styledHeight(sizerRef.current) : null), viewportKey: () => jumpShown.current }),
    [],
  );
  const virtualizer = usePaneVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    measureElement,
    overscan: following.current ? FOLLOWING_OVERSCAN : OVERSCAN,
    paddingStart: PADDING_START,
    paddingEnd: PADDING_END,
    // The pane opens at the end: its first render already asks for the last rows (at their
    // estimated place, in a viewport as tall as the window at most) instead of mounting the first
    // ones and replacing them once the scroll to the end lands (issue #11).
    initialOffset: () => Math.max(0, estimatedEnd(count, estimateSize) - window.innerHeight),
    initialRect: { width: 0, height: window.innerHeight },
    // Chat-style: stay at the end when entries are appended or the last one grows, but only
    // while the reader is there; anywhere else the viewport holds still.
    anchorTo: 'end',
    followOnAppend: true,
    // While the reader holds the pane (they opened something in it), nothing keeps it at its end:
    // neither a row growing there (what they opened) nor entries appended.
    scrollEndThreshold: readerFollow.state === 'held' ? -1 : END_THRESHOLD,
  }, layout);

  // Open at the latest entry. When the older entries of a long session join in front of the end
  // the pane opened with, a view at the end stays there by itself (the virtualizer keeps the row in
  // view in place and the end is what is in view): a second scroll to the end would only repeat its
  // forced layouts (issue #11). A reload (a reconnect) brings the whole transcript in one commit
  // (sessions-store.ts): a reader at the end is taken to the new end, one scrolled up stays put.
  const openedWith = useRef<{ sessionId: string; ids: readonly string[] } | undefined>(undefined);
  useLayoutEffect(() => {
    if (!loaded || !ids) return;
    const before = openedWith.current?.sessionId === sessionId ? openedWith.current.ids : undefined;
    openedWith.current = { sessionId, ids }; // also when empty: a new session's list grows in place
    if (count === 0) return;
    // Held by the reader (they opened something): the list changing under it is not a reason to move.
    if (before && (!following.current || readerFollow.state === 'held' || joinedInFront(before, ids))) return;
    virtualizer.scrollToEnd();
  }, [loaded, ids, sessionId]);
  // The reader scrolling themself ends a scroll-to-end still settling (user-scroll-intent.ts), and
  // the scroll it makes is the one that can stop the pane following (reader-follow.ts).
  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return undefined;
    let expiry: ReturnType<typeof setTimeout> | undefined;
    const expire = () => {
      const before = readerFollow.state;
      readerFollow.expire();
      if (readerFollow.state !== before) refresh();
    };
    const scrolled = () => readerFollow.scrolled();
    const reader = () => {
      readerFollow.intent();
      clearTimeout(expiry);
      expiry = setTimeout(expire, INTENT_EXPIRES_MS);
    };
    scroller.addEventListener('scroll', scrolled, { passive: true });
    // Any press or key in the pane may scroll it too (a selection dragged past its edge, a Tab to a
    // control out of view): the reader's, for following; not for ending a scroll to the end.
    scroller.addEventListener('pointerdown', reader, { passive: true });
    scroller.addEventListener('keydown', reader);
    // A click that opens something (a diff's "Show all", a disclosure: `aria-expanded="false"` until
    // React handles the click, after this listener): it grows below where the reader is reading, and
    // a pane at its end would follow it there (docs/decisions.md).
    const opens = (e: Event) => {
      const control = e.target instanceof Element ? e.target.closest('[aria-expanded="false"]') : null;
      if (!control || !scroller.contains(control)) return;
      clearTimeout(expiry);
      readerFollow.hold();
      // A scroll command to where the pane is: it ends a scroll under way and drops an adjustment the
      // virtualizer could not make yet (kept while the list was shorter than the pane, and made once
      // what was opened made it taller — a jump of the view the reader did not ask for).
      virtualizer.scrollToOffset(scroller.scrollTop);
      refresh();
    };
    scroller.addEventListener('click', opens);
    const off = onUserScrollIntent(scroller, () => {
      readerScrolled.current = true;
      reader();
      virtualizer.cancelScroll();
    });
    return () => {
      off();
      scroller.removeEventListener('scroll', scrolled);
      scroller.removeEventListener('pointerdown', reader);
      scroller.removeEventListener('keydown', reader);
      scroller.removeEventListener('click', opens);
      clearTimeout(expiry);
    };
  }, [virtualizer, readerFollow]);

  // Find in the transcript (find-store.ts): each step shows its entry, held where the reader asked
  // (a following pane would go back to its end). An entry this window has not loaded yet (older
  // entries still joining) is shown once the list has it.
  // The previous / next prompt keys (reveal-store.ts) bring a prompt to the top the same way.
  const findJump = useFind((s) => s.bySession[sessionId]?.jump ?? null);
  const revealed = useReveal((s) => s.bySession[sessionId] ?? null);
  const jumped = useRef({ find: 0, reveal: 0 });
  useEffect(() => {
    const show = (id: string, align: 'center' | 'start'): boolean => {
      const index = ids ? ids.indexOf(id) : -1;
      if (index < 0) return false;
      readerFollow.hold();
      virtualizer.scrollToIndex(index, { align });
      refresh();
      return true;
    };
    if (findJump && findJump.seq !== jumped.current.find && show(findJump.id, 'center')) jumped.current.find = findJump.seq;
    if (revealed && revealed.seq !== jumped.current.reveal && show(revealed.id, 'start')) jumped.current.reveal = revealed.seq;
  }, [findJump, revealed, ids, count, virtualizer, readerFollow]);
  const findCurrent = findJump?.id;

  const items = virtualizer.getVirtualItems();
  // A pane that opens mounts its rows a few per task, the last ones first (mount-budget.ts).
  const [budget, setBudget] = useState(FIRST_ROWS);
  const rows = rowsWithinBudget(items, budget);
  // The rows asked for when the step runs (a re-render meanwhile does not postpone the step).
  const asked = useRef(0);
  asked.current = items.length;
  const nothingAsked = items.length === 0;
  useEffect(() => {
    if (budget === NO_BUDGET || nothingAsked) return;
    // After the next frame (which lays out the rows mounted so far and reads back the scroll to
    // the end), in a task of its own: the next rows' render is not joined to that layout.
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (task = setTimeout(() => setBudget((b) => nextBudget(b, asked.current)), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [budget, nothingAsked]);
  // "At the latest" from the virtualizer's own figures: the height the DOM got at the last commit
  // (what `scrollHeight` is now) against the viewport and the offset its scroll heads to; a scroll to
  // the end still settling counts as at the end (heading-offset.ts: "Jump to latest" flashed while
  // following). `isAtEnd()` reads `scrollHeight`, which forces a layout in a render (issue #11).
  // Of the committed height and this render's, the smaller: rows measured smaller than their
  // estimates shrink the list and the virtualizer moves the offset up with it at once, so the
  // committed height against the new offset saw a pane at its end short of it.
  const renderedHeight = useRef(0);
  const totalSize = virtualizer.getTotalSize();
  const viewportHeight = virtualizer.scrollRect?.height ?? 0;
  const fromEnd = Math.min(renderedHeight.current, totalSize) - viewportHeight - headingOffset(virtualizer);
  const atEnd = count === 0 || scrollingToEnd(virtualizer) || fromEnd <= END_THRESHOLD;
  // Following: at the end, or not moved away by the reader (the layout alone cannot stop it).
  const follows = count === 0 || readerFollow.follows(atEnd);
  jumpShown.current = !follows;
  // Rows a fast scroll brings in are drawn light until the pane is still, then turned full a few
  // per task (light-rows.ts). Only a scroll of the reader's, away from the end: a pane following a
  // fast stream scrolls itself at every commit, and the entries it brings in — the last ones — are
  // the ones being read (they showed as one clipped line in an empty box until the stream paused).
  // "Away from the end" alone was not enough: on a loaded machine a render between a commit that
  // grew the list and the pane's scroll to the new end saw the pane short of the end, and the rows
  // that scroll then brought in were drawn light (an e2e run mounted 15).
  const lightRows = useMemo(() => createLightRows(), [sessionId]);
  // Away from the end by this render's offset, not the last commit's: a fling's first step already
  // draws the rows it brings in light.
  const scrolling = virtualizer.isScrolling && !atEnd && readerScrolled.current;
  const light = lightRows.pick(rows.map((item) => item.key), scrolling);
  const [, upgrade] = useReducer((n: number) => n + 1, 0);
  // The rows still light once the pane is still, else nothing: while it scrolls the effect has
  // nothing to do and does not run (an effect to run makes React post a task after the commit).
  const toUpgrade = light.size > 0 && !scrolling ? light : undefined;
  useEffect(() => {
    if (!toUpgrade) return;
    const task = setTimeout(upgrade, 0);
    return () => clearTimeout(task);
  }, [toUpgrade]);
  // Each row's element is the one of the last render while its place and kind stay: React skips
  // the rows that did not change instead of diffing their props (element-cache.ts).
  const elements = useMemo(() => createElementCache<ReactElement>(), [sessionId]);
  // Whether the pane follows a stream too fast to read: its tool cards then mount as their head
  // until it settles (stream-pace.ts). Appends are the count growing on the same id list (a new
  // list is a reload; older entries joining in front make a new list too).
  const pace = useMemo(() => createStreamPace(), [sessionId]);
  useEffect(() => () => pace.dispose(), [pace]);
  const noted = useRef<{ ids: readonly string[] | undefined; count: number }>({ ids: undefined, count: 0 });
  const chars = lightChars(virtualizer.scrollRect?.width);
  const rowElements = rows.map((item) => {
    if (light.has(item.key)) {
      const entry = useSessions.getState().views[sessionId]?.transcript.entries[String(item.key)];
      return elements.get(item.key, [true, entry, item.index, item.start, item.size, chars], () => lightRow(item, entry, chars));
    }
    const current = item.key === findCurrent;
    return elements.get(item.key, [false, item.index, item.start, current], () => (
      <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} data-find={current ? 'current' : undefined} className="tx-row" style={{ transform: `translateY(${item.start}px)` }}>
        <EntryRow sessionId={sessionId} entryId={String(item.key)} />
      </div>
    ));
  });
  elements.endRender();
  // A following pane the layout left short of its end goes back to it: moved away (rows measured, a
  // resize), or its viewport changed height (another pane opened, the window resized) and the end is
  // no longer in view. Once per layout (the same figures ask nothing again).
  const viewportFollowed = useRef(0);
  const corrected = useRef('');
  useLayoutEffect(() => {
    // This render judged the end by the smaller height; a list that grew under a pane not following
    // (something the reader opened) is judged again by the new one, or "Jump to latest" would not show.
    const grew = totalSize > renderedHeight.current && atEnd && readerFollow.state !== 'following';
    renderedHeight.current = totalSize;
    if (grew) refresh();
    following.current = follows;
    // Back at the end once the reader's scroll has stopped there: a smooth scroll's (a key's) first
    // steps are still within the threshold of the end it leaves.
    readerFollow.settle(atEnd && !virtualizer.isScrolling);
    const resized = viewportHeight !== viewportFollowed.current;
    viewportFollowed.current = viewportHeight;
    if (readerFollow.state === 'following' && loaded && count > 0 && !scrollingToEnd(virtualizer)) {
      const distance = totalSize - viewportHeight - headingOffset(virtualizer);
      const figures = `${totalSize} ${viewportHeight} ${headingOffset(virtualizer)}`;
      if ((distance > END_THRESHOLD || (resized && distance > 0.5)) && figures !== corrected.current) {
        corrected.current = figures;
        virtualizer.scrollToEnd();
      }
    }
    if (atEnd) readerScrolled.current = false;
    const appended = ids && noted.current.ids === ids ? count - noted.current.count : 0;
    noted.current = { ids, count };
    // Away from the end the pane settles: the rows the reader scrolls to are read. (Not "the reader
    // scrolled": a commit between the wheel event and the scroll it makes sees the pane at the end and
    // clears that flag, and the pane then stayed fast while the reader was up — an e2e run in 4.)
    pace.note(appended, follows);
  });

  return (
    <div className="tx-view transcript" data-testid="transcript" data-session-id={sessionId} data-count={count} data-complete={complete ? 'true' : 'false'} data-following={follows ? 'true' : 'false'}>
      <FindBar sessionId={sessionId} scroller={scrollRef} />
      <div
        ref={scrollRef}
        className="tx-scroll"
        data-testid="transcript-scroll"
        tabIndex={0}
        role="log"
        aria-live="off"
        aria-label="Transcript"
      >
        <div ref={sizerRef} className="tx-sizer" style={{ height: totalSize }}>
          <StreamPaceContext.Provider value={pace}>{rowElements}</StreamPaceContext.Provider>
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
        {hint ? <EmptySessionHint /> : null}
      </div>
      {!follows ? (
        <button type="button" className="tx-jump" data-testid="jump-to-latest" onClick={() => virtualizer.scrollToEnd()}>
          ↓ Jump to latest
        </button>
      ) : null}
    </div>
  );
}

/**
 * A row drawn light (light-rows.ts): one element, its plain text on one line, in a box of the height
 * the virtualizer knows for it (not measured: the full row is, once it replaces this one).
 */
function lightRow(item: VirtualItem, entry: Entry | undefined, chars: number) {
  return (
    <div key={item.key} data-index={item.index} className={`tx-row tx-row-light tx-light-${entry?.kind ?? 'unknown'}`} style={{ transform: `translateY(${item.start}px)`, height: item.size }}>
      {lightText(entry, chars)}
    </div>
  );
}

/** Where the end of the list is by the estimates (before any row is measured). */
function estimatedEnd(count: number, estimate: (index: number) => number): number {
  let end = PADDING_START + PADDING_END;
  for (let i = 0; i < count; i++) end += estimate(i);
  return end;
}

/** `next` is `before` with entries added in front (older entries joined): same last entry, longer. */
function joinedInFront(before: readonly string[], next: readonly string[]): boolean {
  return next !== before && next.length > before.length && before.length > 0 && next[next.length - 1] === before[before.length - 1];
}

/** A session nobody has prompted yet says what to do, briefly. */
function EmptySessionHint() {
  return (
    <p className="tx-hint" data-testid="transcript-hint">
      Type a prompt below and press <kbd>Enter</kbd> to send (<kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line). Type <kbd>/</kbd> for the agent’s commands.
    </p>
  );
}
