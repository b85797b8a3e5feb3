/** Types of layout-sources.mjs (for its test). */
export interface LayoutSource {
  source: string;
  count: number;
  ms: number;
  dirtyObjects: number;
}
export function layoutSources(events: readonly object[]): { frames: number; paints: number; layouts: number; sources: LayoutSource[] };
