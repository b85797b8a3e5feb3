/**
 * A window's batch with each run of streamed text to one entry sent as one patch (issue #11): a
 * message streams in chunks of a few dozen characters, one `append-text` patch each, and a batch
 * of a flood holds runs of them for the same message. Serializing a patch costs the window's
 * `JSON.stringify` far more than its few characters (each small object's keys and structure), and the
 * window then parses and applies each one; one patch with the run's text joined gives the window
 * the same transcript from fewer objects.
 *
 * Why the transcript stays the same: appending `a` then `b` to an entry is appending `a + b`
 * (`TranscriptApplier`: text goes into the content's last block when it is text, else into a new
 * text block, which the next append then extends; an entry the window does not hold, or one without
 * content, skips both alike). Only adjacent patches of one entry are joined, so nothing between
 * them moves; every other patch is kept as it is, in order. A batch is applied whole before it is
 * shown (the renderer commits once per batch), so no in-between state is lost either.
 *
 * Inputs are never written: the patches are the core's own objects.
 */
import type { Patch } from './patches';

/** `patches` with each run of adjacent `append-text` patches to one entry joined into one; the same array when there is none. */
export function joinAppendedText(patches: Patch[]): Patch[] {
  let out: Patch[] | null = null;
  for (let i = 0; i < patches.length; i++) {
    const p = patches[i]!;
    if (p.op === 'append-text') {
      let end = i + 1;
      let text = p.text;
      for (; end < patches.length; end++) {
        const next = patches[end]!;
        if (next.op !== 'append-text' || next.id !== p.id) break;
        text += next.text;
      }
      if (end > i + 1) {
        out ??= patches.slice(0, i);
        out.push({ op: 'append-text', id: p.id, text });
        i = end - 1;
        continue;
      }
    }
    out?.push(p);
  }
  return out ?? patches;
}
