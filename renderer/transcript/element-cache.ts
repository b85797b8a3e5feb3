/**
 * Row elements kept from one render of a pane to the next. A pane that scrolls re-renders every
 * frame, and each render used to build a new element (new props, a new `style` object) for every row
 * it shows, ≈ 45 per pane: React then diffed the props of every row's DOM node in the commit
 * (`updateProperties`, `setValueForStyles`) although only the ≈ 14 rows entering and leaving had
 * changed (issue #11, scrolling long transcripts). Handing React the same element object as last
 * time makes it skip the row altogether (an element whose props are the same object bails out).
 * An element is kept while the inputs it was made from (`deps`, compared with `Object.is`) stay.
 */

type Key = string | number | bigint;

export interface ElementCache<E> {
  /** The element made for `key` at the last render if it was made from the same `deps`; else `make()`. */
  get(key: Key, deps: readonly unknown[], make: () => E): E;
  /** Ends a render: elements not asked for since the previous `endRender` are dropped. */
  endRender(): void;
}

interface Kept<E> {
  deps: readonly unknown[];
  element: E;
}

export function createElementCache<E>(): ElementCache<E> {
  let previous = new Map<Key, Kept<E>>();
  let current = new Map<Key, Kept<E>>();
  return {
    get(key, deps, make) {
      const kept = current.get(key) ?? previous.get(key);
      if (kept && sameDeps(kept.deps, deps)) {
        current.set(key, kept);
        return kept.element;
      }
      const made = { deps, element: make() };
      current.set(key, made);
      return made.element;
    },
    endRender() {
      previous = current;
      current = new Map();
    },
  };
}

function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
