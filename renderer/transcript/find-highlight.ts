/**
 * The words found in a transcript, highlighted in the rows on screen without touching their DOM:
 * ranges over the text nodes, registered with the CSS Custom Highlight API (`::highlight(...)` in
 * find.css) — React keeps owning the rows. Done again on the next frame after the rows change
 * (scrolling mounts others, a stream grows one), only while a pane's bar has words.
 */
import { useEffect, type RefObject } from 'react';

interface PaneRanges {
  all: Range[];
  current: Range[];
}

/** Every pane's ranges: the registry is the document's, one highlight per style. */
const panes = new Map<string, PaneRanges>();

function publish(): void {
  const registry = typeof CSS !== 'undefined' ? (CSS as { highlights?: Map<string, unknown> }).highlights : undefined;
  const HighlightClass = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  if (!registry || !HighlightClass) return;
  const all: Range[] = [];
  const current: Range[] = [];
  for (const p of panes.values()) {
    all.push(...p.all);
    current.push(...p.current);
  }
  registry.set('transcript-find', new HighlightClass(...all));
  registry.set('transcript-find-current', new HighlightClass(...current));
}

/** Ranges of `needle` (lower case) in the text under `root`; those in the current entry's row apart. */
export function findRanges(root: Node, needle: string): PaneRanges {
  const out: PaneRanges = { all: [], current: [] };
  if (!needle) return out;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const value = node.nodeValue ?? '';
    const text = value.toLowerCase();
    // Lower-casing changed the length (a few Unicode letters): offsets would not fit the node.
    if (text.length !== value.length) continue;
    let at = text.indexOf(needle);
    if (at < 0) continue;
    const list = node.parentElement?.closest('[data-find="current"]') ? out.current : out.all;
    while (at >= 0) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      list.push(range);
      at = text.indexOf(needle, at + needle.length);
    }
  }
  return out;
}

export function useFindHighlight(sessionId: string, scroller: RefObject<HTMLDivElement | null>, query: string, currentId: string | null): void {
  useEffect(() => {
    const root = scroller.current;
    const needle = query.trim().toLowerCase();
    if (!root || !needle) {
      if (panes.delete(sessionId)) publish();
      return undefined;
    }
    let frame = 0;
    const mark = () => {
      frame = 0;
      panes.set(sessionId, findRanges(root, needle));
      publish();
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(mark);
    };
    const observer = new MutationObserver(schedule);
    observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['data-find'] });
    schedule();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      if (panes.delete(sessionId)) publish();
    };
  }, [sessionId, scroller, query, currentId]);
}
