/**
 * Rendered markdown kept across row mounts: a virtualized transcript unmounts rows scrolled away
 * and mounts others, and each mount would otherwise parse its text again (remark → rehype → React
 * elements, the largest script cost of a scrolling frame, issue #11). React elements are immutable
 * descriptions, so one rendering can be mounted any number of times.
 *
 * Keyed by the text itself (a new version of an entry is new text: a miss, and the old rendering
 * ages out), least recently used first out, bounded both in renderings and in characters of text.
 */
export interface RenderCache<V> {
  /** The rendering of `text`, made by `render` on a miss. */
  get(text: string, render: (text: string) => V): V;
  readonly size: number;
  /** Characters of text of the renderings held. */
  readonly chars: number;
}

export function createRenderCache<V>(maxEntries: number, maxChars: number): RenderCache<V> {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  const held = new Map<string, V>();
  let chars = 0;
  return {
    get(text, render) {
      const hit = held.get(text);
      if (hit !== undefined) {
        held.delete(text);
        held.set(text, hit);
        return hit;
      }
      const value = render(text);
      if (text.length > maxChars) return value; // larger than the whole cache: not kept
      held.set(text, value);
      chars += text.length;
      for (const oldest of held.keys()) {
        if (held.size <= maxEntries && chars <= maxChars) break;
        held.delete(oldest);
        chars -= oldest.length;
      }
      return value;
    },
    get size() {
      return held.size;
    },
    get chars() {
      return chars;
    },
  };
}
