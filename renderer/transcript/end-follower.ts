/**
 * Follow mode of a transcript: while the reader is at the end, the scroll container is kept there
 * as entries are appended or the last one grows; scrolling away stops following; `follow()`
 * (Jump to latest) resumes it.
 *
 * Why not the virtualizer's own end anchoring (`anchorTo: 'end'`, `followOnAppend`): it issues a
 * scroll command on every append and then reads `scrollHeight` while React commits (in
 * `_willUpdate`, `reconcileScroll`), after the rows changed — a forced synchronous layout of the
 * pane, several per frame with four streaming panes: ≈ 30 % of the renderer's time (issue #11).
 * Here the only read is in the scroll event, just before the virtualizer's own listener reads
 * `scrollTop` (one layout for both, usually already clean), and the only write is `pin()`, once per commit that
 * changed the height, after every pane's rows are in the DOM.
 */

/** What the follower needs of the scroll container (an HTMLElement; a plain object in tests). */
export interface ScrollBox {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  addEventListener(type: 'scroll', listener: () => void, options?: AddEventListenerOptions): void;
  removeEventListener(type: 'scroll', listener: () => void, options?: EventListenerOptions): void;
}

export class EndFollower {
  private box: ScrollBox | null = null;
  private following = true;
  /** Where the container was at the last scroll event or pin. */
  private lastTop = 0;

  /**
   * @param threshold within this many pixels of the end counts as "at the end"
   * @param onChange called when following starts or stops (not for repeated values)
   */
  constructor(
    private readonly threshold: number,
    private readonly onChange: (following: boolean) => void,
  ) {}

  get isFollowing(): boolean {
    return this.following;
  }

  /** Watches the container's scroll events; returns the detach function. */
  attach(box: ScrollBox): () => void {
    this.box = box;
    // Capture: before the virtualizer's listener, whose synchronous re-render would change the
    // rows between its `scrollTop` read and ours (two layouts instead of one).
    box.addEventListener('scroll', this.onScroll, { passive: true, capture: true });
    return () => {
      box.removeEventListener('scroll', this.onScroll, { capture: true });
      if (this.box === box) this.box = null;
    };
  }

  /** While following, scrolls to the end (the browser clamps the offset to the real end). */
  pin(): void {
    const box = this.box;
    if (!this.following || !box) return;
    box.scrollTop = box.scrollHeight;
    this.lastTop = box.scrollTop;
  }

  /** Starts following (Jump to latest, a newly opened transcript) and scrolls to the end. */
  follow(): void {
    this.set(true);
    this.pin();
  }

  /**
   * At the end (within the threshold) starts following, wherever the scroll came from. Away from
   * the end stops it only if the container moved up: the reader scrolled. Rows that grew after
   * the last pin leave the container short of the end without moving it, and a pin moves it down.
   */
  private readonly onScroll = () => {
    const box = this.box;
    if (!box) return;
    const top = box.scrollTop;
    if (box.scrollHeight - box.clientHeight - top <= this.threshold) this.set(true);
    else if (top < this.lastTop) this.set(false);
    this.lastTop = top;
  };

  private set(following: boolean): void {
    if (following === this.following) return;
    this.following = following;
    this.onChange(following);
  }
}
