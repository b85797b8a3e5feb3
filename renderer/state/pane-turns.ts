/**
 * Panes take turns while several stream (issue #11, end-to-end latency). Each pane whose transcript
 * changes in a frame costs the renderer's main thread its own few milliseconds (its grown rows laid
 * out and painted, its measure and scroll to the end, its render) on top of what the frame costs
 * anyway; with four panes following fast streams the frames are long and few. While `PACED_FROM`
 * sessions or more stream at once (patches queued now, or applied in the last `RECENT_FRAMES`
 * frames), each applies its patches every second frame, half of them in one frame and half in the
 * next, so a frame lays out half the panes. Below that every session applies in every frame.
 */

/** Sessions streaming at once from which they take turns. */
export const PACED_FROM = 3;
/** A session applied within this many frames still counts as streaming. */
export const RECENT_FRAMES = 3;

export interface PaneTurns {
  /**
   * Called once per frame with the sessions that have patches queued: the ones to apply in this
   * frame, or `null` for all of them (fewer than `PACED_FROM` streaming).
   */
  due(queued: readonly string[]): ReadonlySet<string> | null;
  /** Notes that a session's patches were applied in this frame. */
  applied(sessionId: string): void;
}

export function createPaneTurns(): PaneTurns {
  const lastApplied = new Map<string, number>();
  let frame = 0;
  return {
    due(queued) {
      frame++;
      const streaming = new Set(queued);
      for (const [id, at] of lastApplied) {
        if (frame - at <= RECENT_FRAMES) streaming.add(id);
        else lastApplied.delete(id);
      }
      if (streaming.size < PACED_FROM) return null;
      // A stable order (by id), so a session keeps its half while the set of streams stays the same.
      const order = [...streaming].sort();
      const waiting = new Set(queued);
      const due = new Set<string>();
      order.forEach((id, i) => {
        if ((frame + i) % 2 === 0 && waiting.has(id)) due.add(id);
      });
      return due;
    },
    applied(sessionId) {
      lastApplied.set(sessionId, frame);
    },
  };
}
