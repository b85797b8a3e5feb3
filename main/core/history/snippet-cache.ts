/**
 * The snippets of recent search hits, kept so that a search repeated (search as you type, the same
 * query again, paging back) does not read the traces again. A hit's snippets depend only on what
 * `snippetsFor` reads: the query words, how many snippets, the session's titles and the byte
 * ranges of its traces. All of that is in the key, so nothing has to be invalidated by hand:
 *
 * - a trace the session is still being written to grows: its range (last line, last offset) in the
 *   entry changes with the next catch-up, and so does the file's stamp (its modification time as
 *   the index last saw it), so the key does; a file rewritten under the same name changes its stamp;
 * - a rename changes the titles in the key; a deleted session is no hit.
 *
 * Bounded: at most `maxEntries` results (least recently used dropped first), and a result whose
 * snippets are long is not kept. The first search of a query is not made faster by this.
 */
import type { HistoryEntry, Snippet } from './history-types';
import type { QueryTerm } from './search';

const MAX_ENTRIES = 400;
/** A result with more characters of snippet text than this is not kept (many snippets asked for). */
const MAX_RESULT_CHARS = 4_096;

/**
 * Everything of `entry` and the query that the snippets depend on, as one string. `fileStamp`
 * identifies the version of a trace file as the index saw it (inode and modification time): a file
 * rewritten under the same name gets another key even if the session's range came out the same.
 */
export function snippetKey(entry: HistoryEntry, query: readonly QueryTerm[], count: number, fileStamp: (path: string) => string): string {
  const traces = entry.traces.map((t) => [t.path, fileStamp(t.path), t.firstOffset, t.firstLine, t.lastOffset, t.lastLine]);
  return JSON.stringify([
    entry.id,
    entry.agentSessionId ?? null,
    entry.title,
    entry.userTitle ?? null,
    entry.agentTitle ?? null,
    traces,
    query.map((q) => [q.term, q.prefix]),
    count,
  ]);
}

const copy = (snippets: readonly Snippet[]): Snippet[] => snippets.map((s) => ({ ...s, highlights: s.highlights.map(([a, b]) => [a, b] as [number, number]) }));

export class SnippetCache {
  private readonly results = new Map<string, Snippet[]>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  get size(): number {
    return this.results.size;
  }

  /** The snippets kept for `key` (a copy: callers may change what they get), or undefined. */
  get(key: string): Snippet[] | undefined {
    const found = this.results.get(key);
    if (!found) return undefined;
    // Most recently used last.
    this.results.delete(key);
    this.results.set(key, found);
    return copy(found);
  }

  set(key: string, snippets: readonly Snippet[]): void {
    if (snippets.reduce((n, s) => n + s.text.length, 0) > MAX_RESULT_CHARS) return;
    this.results.delete(key);
    this.results.set(key, copy(snippets));
    while (this.results.size > this.maxEntries) this.results.delete(this.results.keys().next().value!);
  }

  clear(): void {
    this.results.clear();
  }
}
