/**
 * "Find in the transcript" for a live session: the entries whose visible text holds the words, in
 * order, read in windows (cold entries come back from the spill file) with the event loop let go
 * between windows, so a long session does not hold up the other sessions' streams.
 */
import type { FindResult } from '../../../common/api/session-api-types';
import { entryMatches } from '../../../common/transcript/entry-find-text';
import type { Entry } from '../../../common/transcript/model';

/** What is searched: a transcript read by windows of entries. */
export interface FindSource {
  readonly entryCount: number;
  window(offset: number, limit: number): Entry[];
}

/** Entries read per window; matches listed at most (the count goes on). */
const WINDOW = 256;
export const MAX_FIND_IDS = 5000;

export async function findInTranscript(source: FindSource, query: string, options: { yieldEvery?: number } = {}): Promise<FindResult> {
  const needle = query.trim().toLowerCase();
  const ids: string[] = [];
  let total = 0;
  const count = source.entryCount;
  if (needle.length === 0) return { ids, total, searched: count };
  const every = options.yieldEvery ?? WINDOW;
  for (let offset = 0; offset < count; offset += every) {
    for (const entry of source.window(offset, Math.min(every, count - offset))) {
      if (!entryMatches(entry, needle)) continue;
      total++;
      if (ids.length < MAX_FIND_IDS) ids.push(entry.id);
    }
    if (offset + every < count) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { ids, total, searched: count };
}
