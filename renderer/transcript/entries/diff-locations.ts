/**
 * A tool call that edits a file usually names it twice: as a location ("the files it touches") and
 * as the path of the diff it carries. Shown both ways, the card said the same path three times (its
 * title, the locations line, the diff's head). A location without a line number whose path a diff
 * of the call also has is shown once, as that diff's head (copyable like any location), and the
 * locations line keeps only the others — a card with nothing else there has no locations line.
 */
import type { ToolCallContent, ToolCallLocation } from '../../../common/transcript/acp-types';

export interface DiffLocations {
  /** Locations for the card's own line. */
  apart: ToolCallLocation[];
  /** Diff path → the location its head shows. */
  inDiff: Map<string, ToolCallLocation>;
}

export function diffLocations(locations: readonly ToolCallLocation[], content: readonly ToolCallContent[]): DiffLocations {
  const diffPaths = new Set<string>();
  for (const c of content) if ((c.type === 'diff' || c.type === 'diff_preview') && typeof c.path === 'string') diffPaths.add(c.path);
  const apart: ToolCallLocation[] = [];
  const inDiff = new Map<string, ToolCallLocation>();
  for (const l of locations) {
    if (diffPaths.has(l.path) && !l.line && !inDiff.has(l.path)) inDiff.set(l.path, l);
    else if (!(inDiff.has(l.path) && !l.line)) apart.push(l);
  }
  return { apart, inDiff };
}
