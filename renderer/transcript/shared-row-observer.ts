/**
 * One ResizeObserver for the rows of every transcript pane, in place of the virtualizer's own one
 * per pane (issue #11, the end-to-end latency). With one observer per pane, the browser calls each
 * pane's observer on its own after the frame's layout: each pane took its rows' new sizes, rendered
 * in `flushSync`, and its layout effect's scroll to the end forced a layout of what the pane before
 * had just rendered — while four panes stream, a growing message in each, up to four forced layouts
 * and four React commits per frame before the paint.
 *
 * Here the single callback does, for every pane whose rows it reports, what the library's callback
 * does for one, in three steps: the sizes first (each pane's `resizeItem`s in a measuring batch of
 * its own, as the library batches them: the DOM is clean, nothing is laid out), then every pane's
 * notification inside one `commit` (React's `flushSync`: one render, one commit — the first pane's
 * scroll to the end lays the page out once, the others find it clean), then each pane's checks after
 * its render (clamps, holds, rows gone), as the library runs them after its notification.
 *
 * A row that mounts while the callback runs is observed from the next frame, as the library does
 * (observed at once, it would be reported in this frame's next round only if it were deeper in the
 * tree than the rows just reported — it is not — and the browser would signal a loop error).
 */

/** What this module uses of a virtualizer's public members. */
interface MeasuredPane {
  elementsCache: Map<unknown, Element>;
  indexFromElement(node: Element): number;
  options: { measureElement: (node: Element, entry: ResizeObserverEntry | undefined, instance: never) => number };
}

/** The library's private members the callback drives (virtual-core 3.19). */
interface PaneInternals {
  observer: { observe(target: Element): void; unobserve(target: Element): void; disconnect(): void };
  _resizeBatch: { sync: boolean; notify?: boolean } | null;
  isIndexInRange(index: number): boolean;
  shouldMeasureDuringScroll(index: number): boolean;
  resizeItem(index: number, size: number): void;
  notify(sync: boolean): void;
  _noteClampMax(): void;
  _flushHoldIfReady(force: boolean): void;
  _retryClampedAdjustment(): void;
  measureElement(node: Element | null): void;
}

interface ObserverLike {
  observe(target: Element, options?: ResizeObserverOptions): void;
  unobserve(target: Element): void;
}

export interface SharedRowObserver {
  /** Makes `pane` (a virtualizer, before it observes any row) use the shared observer. */
  attach(pane: object): void;
  /** True while the panes' notifications run inside `commit`: a render they ask for joins it. */
  readonly applying: boolean;
}

export function createSharedRowObserver(
  createObserver: (callback: (entries: readonly ResizeObserverEntry[]) => void) => ObserverLike,
  commit: (apply: () => void) => void,
  requestFrame: (run: () => void) => void,
): SharedRowObserver {
  const paneOf = new Map<Element, PaneInternals>();
  const later = new Set<Element>();
  let observer: ObserverLike | undefined;
  let delivering = false;
  let applying = false;
  let laterAsked = false;

  const observeLater = () => {
    laterAsked = false;
    for (const target of later) if (target.isConnected && paneOf.has(target)) observer?.observe(target, { box: 'border-box' });
    later.clear();
  };

  const measure = (pane: PaneInternals, entry: ResizeObserverEntry) => {
    const node = entry.target;
    const measured = pane as unknown as MeasuredPane & PaneInternals;
    if (!node.isConnected) {
      unobserve(node);
      for (const [key, cached] of measured.elementsCache) {
        if (cached === node) {
          measured.elementsCache.delete(key);
          break;
        }
      }
      return;
    }
    const index = measured.indexFromElement(node);
    if (!pane.isIndexInRange(index)) return;
    if (pane.shouldMeasureDuringScroll(index)) pane.resizeItem(index, measured.options.measureElement(node, entry, pane as never));
  };

  const deliver = (entries: readonly ResizeObserverEntry[]) => {
    const byPane = new Map<PaneInternals, ResizeObserverEntry[]>();
    for (const entry of entries) {
      const pane = paneOf.get(entry.target);
      if (!pane) continue;
      const list = byPane.get(pane);
      if (list) list.push(entry);
      else byPane.set(pane, [entry]);
    }
    delivering = true;
    try {
      const notified: Array<[PaneInternals, boolean]> = [];
      for (const [pane, list] of byPane) {
        const batch: { sync: boolean; notify?: boolean } = { sync: false };
        pane._resizeBatch = batch;
        try {
          for (const entry of list) measure(pane, entry);
        } finally {
          pane._resizeBatch = null;
        }
        if (batch.notify) notified.push([pane, batch.sync]);
      }
      if (notified.length === 0) return;
      applying = true;
      try {
        commit(() => {
          for (const [pane, sync] of notified) pane.notify(sync);
        });
      } finally {
        applying = false;
      }
      for (const [pane] of notified) {
        pane._noteClampMax();
        pane._flushHoldIfReady(true);
        pane._retryClampedAdjustment();
        pane.measureElement(null);
      }
    } finally {
      delivering = false;
    }
  };

  const unobserve = (target: Element) => {
    paneOf.delete(target);
    later.delete(target);
    observer?.unobserve(target);
  };

  return {
    attach(pane) {
      const internals = pane as unknown as PaneInternals;
      internals.observer = {
        observe(target) {
          observer ??= createObserver(deliver);
          paneOf.set(target, internals);
          if (!delivering) {
            observer.observe(target, { box: 'border-box' });
            return;
          }
          later.add(target);
          if (!laterAsked) {
            laterAsked = true;
            requestFrame(observeLater);
          }
        },
        unobserve,
        disconnect() {
          for (const [target, owner] of paneOf) if (owner === internals) unobserve(target);
        },
      };
    },
    get applying() {
      return applying;
    },
  };
}
