/**
 * Whether a transcript pane follows its end: it does until the reader scrolls it away, and only the
 * reader's own scrolling (user-scroll-intent.ts: wheel, touch, keys, the scrollbar) can stop it.
 *
 * Before, a pane followed while its offset was within 32 px of its end, judged at every render.
 * Layout moved that verdict without the reader: rows measured smaller than their estimates, a pane
 * narrowed by another one opening, older entries joining — a render between such a change and the
 * scroll that keeps the pane at its end saw it short of the end. "Jump to latest" then showed, and
 * it sits below the scroller in the flow: the viewport shrank by its 35 px, more than the 32 px
 * threshold, with the offset unchanged, so the pane was now really 35 px from its end and never
 * followed again (docs/performance.md § 5, "a pane left not following").
 *
 * The states: `following`; `asked` — the reader acted (a wheel, a key…), the scroll it makes not
 * seen yet; `moved` — a scroll event came after the reader acted. A pane follows when its offset is
 * at the end, or when it is `following`: a pane the reader has not moved follows whatever its offset
 * says (the view then scrolls it to its end). Back at the end after the reader's scroll, it is
 * `following` again. An `asked` that no scroll event follows (a wheel down at the end) falls back
 * to `following` when the view says so (`expire`, a moment later). `held` — the reader opened
 * something in the pane (a diff's "Show all", a disclosure): what it opened grows below where they
 * are reading, and the pane must not follow it to its end; the reader's next scroll ends it, as
 * `moved`.
 */
export type ReaderFollowState = 'following' | 'asked' | 'moved' | 'held';

export interface ReaderFollow {
  readonly state: ReaderFollowState;
  /** The reader acted on the scroller (wheel, touch, key, scrollbar). */
  intent(): void;
  /** The scroller's scroll event. */
  scrolled(): void;
  /** No scroll event came of the reader's action. */
  expire(): void;
  /** The reader opened something in the pane: it stays where it is until they scroll. */
  hold(): void;
  /** Whether the pane follows, its offset at the end (`atEnd`) or not. */
  follows(atEnd: boolean): boolean;
  /** After a commit: a pane at its end (and still: not in the middle of the reader's scroll) follows again. */
  settle(atEnd: boolean): void;
}

export function createReaderFollow(): ReaderFollow {
  let state: ReaderFollowState = 'following';
  return {
    get state() {
      return state;
    },
    intent() {
      if (state === 'following') state = 'asked';
    },
    scrolled() {
      if (state === 'asked' || state === 'held') state = 'moved';
    },
    hold() {
      state = 'held';
    },
    expire() {
      if (state === 'asked') state = 'following';
    },
    follows(atEnd) {
      return atEnd || state === 'following';
    },
    settle(atEnd) {
      if (atEnd && state === 'moved') state = 'following';
    },
  };
}
