/**
 * The end of a fold worker's share (fold-worker.ts): the segments it wrote, merged into one when
 * there are more than its share of the index's segment limit (more would make the main thread
 * merge them all, serially, once both workers are done; fewer stay as they are, as before). Every
 * document in them is live — a pass gives each document its words once, in one builder, and the
 * documents that die during a pass are in older segments — so the merge keeps them all, and the
 * merged segment holds the same terms and postings as the segments it replaces (search reads any
 * number of segments the same way). The inputs are removed once the merged segment is written;
 * nothing refers to them yet (the snapshot that will is written after the pool finishes).
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { WrittenSegment } from './fold-pool';
import { mergeSegments } from './segment';

export async function mergeWritten(dir: string, name: string, written: readonly WrittenSegment[], keepUpTo: number): Promise<WrittenSegment[]> {
  if (written.length <= Math.max(1, keepUpTo)) return [...written];
  const info = await mergeSegments(
    written.map((s) => ({ path: join(dir, s.name), bytes: s.bytes })),
    () => true,
    join(dir, name),
  );
  for (const s of written) await unlink(join(dir, s.name));
  return [{ name, bytes: info.bytes, docs: info.docs, terms: info.terms }];
}
