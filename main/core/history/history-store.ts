/**
 * History: every session ever recorded in the data folder, findable at once. The one entry point
 * for the UI's history browser, the web host and `acp-workbench sessions`:
 *
 *   const store = await HistoryStore.open(dataDir);   // loads the index, catches up with the traces
 *   await store.refresh();                            // catch up again (new sessions, grown traces)
 *   store.list({ agent, cwd, since, status, hasChanges, tag, limit });
 *   await store.search('flaky test', { limit: 20 });  // ranked hits with highlighted snippets
 *   await store.export(id, 'md');  await store.importTrace(file);
 *   await store.rename(id, 'title');  await store.tag(id, { add: ['x'] });  await store.delete(id);
 *
 * Ids are workbench session ids; `resolve` also takes a unique prefix. Safe to use from several
 * processes at once (see history-index.ts and lock.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Transcript } from '../../../common/transcript/model';
import { isProcessRunning } from '../acp/process-registry';
import { buildRows, entryFields, entryOf, filterIsEmpty, idsFor, lightFields, matchesFilter, needsDetail, type Filterable, type Resolved, type Row } from './entries';
import { exportPieces, importedFileName, inspectTrace, splitTraces, transcriptsOf, type ExportFormat, type ExportResult } from './export-import';
import { corpusStats, type CorpusStats } from './corpus-stats';
import { HistoryIndex, type DocRow, type HistoryIndexOptions } from './history-index';
import { historyPaths, type HistoryPaths } from './history-paths';
import type { HistoryEntry, HistoryFilter, ListOptions, RefreshReport, SearchOptions, SearchResult, Snippet } from './history-types';
import type { LockOptions } from './lock';
import { appendJournal, foldJournal, readJournal, type SessionMetaState } from './meta-journal';
import { META_BIT, parseQuery, scoreSessions, termMatches, wordsOf, type QueryTerm } from './search';
import { fieldsOfMask } from './search-text';
import { readSessionPieces, type SessionPiece } from './session-records';
import { mapLimited } from './map-limited';
import { TraceHints } from './line-hints';
import { SnippetCache, snippetKey } from './snippet-cache';
import { snippetsFor } from './snippets';

export type HistoryErrorCode = 'not-found' | 'ambiguous' | 'running' | 'invalid';

/**
 * Hits whose snippets are read at a time: enough to keep a core busy while another reading waits
 * for the disk, and as many as snippets.ts keeps read buffers for (so every reading reuses one).
 */
const SNIPPET_READINGS = 4;

/** A failure the user can act on; `message` says what and which session. */
export class HistoryError extends Error {
  constructor(
    readonly code: HistoryErrorCode,
    message: string,
    readonly candidates: HistoryEntry[] = [],
  ) {
    super(message);
    this.name = 'HistoryError';
  }
}

export interface OpenHistoryOptions {
  /** Catch up with the traces while opening (default true). */
  refresh?: boolean;
  lock?: LockOptions;
  /** Whether an agent process is alive (tests). */
  alive?: (pid: number) => boolean;
  now?: () => number;
  /** Parallel folding of big catch-ups (HistoryIndexOptions): the worker bundle, how many, from how many bytes. */
  fold?: Pick<HistoryIndexOptions, 'foldWorker' | 'foldWorkers' | 'parallelFoldBytes' | 'flushPostings'>;
  /** Told how far a long catch-up has come (a rebuild, or a big first look: index-progress.ts). */
  onProgress?: HistoryIndexOptions['onProgress'];
}

export interface ImportedSession {
  id: string;
  /** `added`: new to history; `present`: already here (duplicate); `restored`: had been deleted. */
  status: 'added' | 'present' | 'restored';
}

export interface ImportResult {
  source: string;
  traces: Array<{
    connectionId: string;
    /** Where it was copied (under traces/), absent for a duplicate. */
    file?: string;
    duplicate: boolean;
    sessions: ImportedSession[];
    corruptLines: number;
  }>;
}

export interface DeleteResult {
  id: string;
  /** Traces moved to the trash folder (those holding no other session). */
  trashed: string[];
  /** Traces kept because other sessions live in them too. */
  kept: string[];
}

export class HistoryStore {
  /** Sessions as the cards know them; full entries are built on demand and kept. */
  private rows = new Map<string, Row>();
  private entries = new Map<string, HistoryEntry>();
  private deleted = new Set<string>();
  private journal = new Map<string, SessionMetaState>();
  private journalStat: string | undefined;
  /** For search: sessions grouped by agent with the agent's words, and those with titles or tags. */
  private metaGroups: { byAgent: Array<{ words: Set<string>; ids: string[] }>; detailed: Row[] } | undefined;
  /** What the rows were built from: the snapshot object and its generation, and the journal's stamp. */
  private materializedFor: { snapshot: object; generation: number; journal: string | undefined } | undefined;
  /** Snippets of recent hits (keyed by what they depend on: see snippet-cache.ts). */
  private readonly snippetCache = new SnippetCache();
  /** The corpus statistics and what they were computed from (see corpus()). */
  private corpusFor: { docs: readonly DocRow[]; length: number; rows: Map<string, Row>; epoch: number; stats: CorpusStats } | undefined;
  /** Counts catch-ups that changed the index (documents' lengths change in place). */
  private indexEpoch = 0;
  /** The last refresh's report. */
  lastRefresh: RefreshReport = { tracesRead: 0, bytesRead: 0, tracesRemoved: 0 };
  /**
   * One operation at a time: a refresh replaces the open segments a search is reading, and the
   * app may ask for both at once.
   */
  private queue: Promise<unknown> = Promise.resolve();

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private constructor(
    readonly paths: HistoryPaths,
    private readonly index: HistoryIndex,
    private readonly options: OpenHistoryOptions,
  ) {}

  static async open(dataDir: string, options: OpenHistoryOptions = {}): Promise<HistoryStore> {
    const paths = historyPaths(dataDir);
    const index = new HistoryIndex(paths, {
      ...(options.lock ? { lock: options.lock } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...options.fold,
    });
    const store = new HistoryStore(paths, index, options);
    if (options.refresh ?? true) await store.refresh();
    else {
      await index.reload();
      await store.syncJournal(true);
    }
    return store;
  }

  /** Catches up with traces written and metadata changed since the last look (by any process). */
  refresh(): Promise<RefreshReport> {
    return this.exclusive(() => this.catchUp());
  }

  private async catchUp(): Promise<RefreshReport> {
    this.lastRefresh = await this.index.catchUp();
    this.noteChanges(this.lastRefresh);
    // A trace gone (deleted, or replaced by another file of the same name): nothing kept survives it.
    if (this.lastRefresh.tracesRemoved > 0) this.snippetCache.clear();
    await this.syncJournal(false);
    return this.lastRefresh;
  }

  /** Reads every trace again and rewrites the index. */
  rebuild(reason = 'asked for'): Promise<RefreshReport> {
    return this.exclusive(async () => {
      this.lastRefresh = await this.index.catchUp({ rebuild: reason });
      this.noteChanges(this.lastRefresh);
      await this.syncJournal(true);
      return this.lastRefresh;
    });
  }

  private noteChanges(report: RefreshReport): void {
    if (report.tracesRead > 0 || report.tracesRemoved > 0 || report.rebuilt !== undefined || report.converted !== undefined) this.indexEpoch++;
  }

  close(): Promise<void> {
    return this.exclusive(() => this.index.close());
  }

  private async syncJournal(force: boolean): Promise<void> {
    const st = await stat(this.paths.journal).catch(() => undefined);
    const key = st ? `${st.size}:${st.mtimeMs}:${st.ino}` : 'none';
    if (force || key !== this.journalStat) {
      this.journal = foldJournal((await readJournal(this.paths.journal)).entries).sessions;
      this.journalStat = key;
      this.materializedFor = undefined;
    }
    this.materialize();
  }

  private materialize(): void {
    // A snapshot's files change only with its generation (a catch-up), or it is replaced whole (a
    // reload, a rebuild, a damaged index dropped).
    const snap = this.index.snapshot;
    const m0 = this.materializedFor;
    if (m0 && m0.snapshot === snap && m0.generation === snap.generation && m0.journal === this.journalStat) return;
    const key = { snapshot: snap, generation: snap.generation, journal: this.journalStat };
    const m = buildRows(snap.files, this.journal);
    this.rows = m.rows;
    this.deleted = m.deleted;
    this.entries.clear();
    this.metaGroups = undefined;
    this.materializedFor = key;
  }

  private alive(pid: number): boolean {
    return (this.options.alive ?? isProcessRunning)(pid);
  }

  private entryOfRow(row: Row): HistoryEntry {
    let e = this.entries.get(row.id);
    if (!e) {
      e = entryOf(row, this.paths.traces, this.journal.get(row.id), (pid) => this.alive(pid), (f) => this.index.detailOf(f));
      this.entries.set(row.id, e);
    }
    return e;
  }

  /** What filters look at, from the cards when the details are not needed. */
  private fields(row: Row): Filterable {
    return needsDetail(row, this.journal.get(row.id)) ? entryFields(this.entryOfRow(row)) : lightFields(row, (pid) => this.alive(pid));
  }

  /** Sessions, newest first unless asked otherwise. */
  list(options: ListOptions = {}): HistoryEntry[] {
    const all = filterIsEmpty(options) ? [...this.rows.values()] : [...this.rows.values()].filter((r) => matchesFilter(this.fields(r), options));
    const dir = options.order === 'oldest' ? 1 : -1;
    all.sort((a, b) => dir * (a.updatedMs - b.updatedMs) || (a.id < b.id ? dir : -dir));
    const start = options.offset ?? 0;
    return all.slice(start, options.limit !== undefined ? start + options.limit : undefined).map((r) => this.entryOfRow(r));
  }

  /** How many sessions `list` would give for these filters (without building their entries). */
  count(filter: HistoryFilter = {}): number {
    return filterIsEmpty(filter) ? this.rows.size : [...this.rows.values()].filter((r) => matchesFilter(this.fields(r), filter)).length;
  }

  get size(): number {
    return this.rows.size;
  }

  /** Every session id in history. */
  ids(): string[] {
    return [...this.rows.keys()];
  }

  get(id: string): HistoryEntry | undefined {
    const row = this.rows.get(id);
    return row ? this.entryOfRow(row) : undefined;
  }

  resolve(idOrPrefix: string): Resolved {
    const ids = idsFor(this.rows.keys(), idOrPrefix);
    if (ids.length === 1) return { entry: this.get(ids[0]!)! };
    if (ids.length === 0) return { error: 'not-found' };
    return { error: 'ambiguous', candidates: ids.map((id) => this.get(id)!) };
  }

  /** The entry for an id or unique prefix; a HistoryError that lists the candidates otherwise. */
  require(idOrPrefix: string): HistoryEntry {
    const r = this.resolve(idOrPrefix);
    if ('entry' in r) return r.entry;
    if (r.error === 'ambiguous') {
      throw new HistoryError('ambiguous', `"${idOrPrefix}" matches ${r.candidates.length} sessions: ${r.candidates.slice(0, 5).map((c) => c.id).join(', ')}${r.candidates.length > 5 ? ', …' : ''}; give more of the id`, r.candidates);
    }
    throw new HistoryError('not-found', `no session "${idOrPrefix}" in history (${this.paths.dataDir})`);
  }

  /** Sessions whose title, tags or agent name hold a query word. */
  private *metaMatches(q: QueryTerm): Iterable<string> {
    if (!this.metaGroups) {
      const agents = new Map<string, { words: Set<string>; ids: string[] }>();
      const detailed: Row[] = [];
      for (const row of this.rows.values()) {
        if (needsDetail(row, this.journal.get(row.id))) {
          detailed.push(row);
          continue;
        }
        const a = row.pieces[row.pieces.length - 1]!.agent;
        const key = `${a.id ?? ''}\u0000${a.label}\u0000${a.name ?? ''}`;
        let group = agents.get(key);
        if (!group) agents.set(key, (group = { words: wordsOf([a.label, a.name, a.id]), ids: [] }));
        group.ids.push(row.id);
      }
      this.metaGroups = { byAgent: [...agents.values()], detailed };
    }
    for (const g of this.metaGroups.byAgent) if (termMatches(q, g.words)) yield* g.ids;
    for (const row of this.metaGroups.detailed) {
      const e = this.entryOfRow(row);
      if (termMatches(q, wordsOf([e.userTitle, e.agentTitle, ...e.tags, e.agent.label, e.agent.name, e.agent.id]))) yield row.id;
    }
  }

  /**
   * Full-text search; catches up first (unless `refresh: false`), so a session written a moment ago
   * is found. Every word must match; a word ending in `*` is a prefix.
   */
  search(query: string, options: SearchOptions & { refresh?: boolean; prefixLast?: boolean } = {}): Promise<SearchResult> {
    return this.exclusive(() => this.searchNow(query, options));
  }

  private async searchNow(query: string, options: SearchOptions & { refresh?: boolean; prefixLast?: boolean }): Promise<SearchResult> {
    if (options.refresh ?? true) await this.catchUp();
    const terms = parseQuery(query, options.prefixLast);
    const plain = filterIsEmpty(options);
    const scored = await scoreSessions({
      query: terms,
      segments: this.index.segmentReaders,
      corpus: this.corpus(),
      metaMatches: (q) => this.metaMatches(q),
      filter: (id) => plain || matchesFilter(this.fields(this.rows.get(id)!), options),
      updatedMs: (id) => this.rows.get(id)!.updatedMs,
    });
    const start = options.offset ?? 0;
    const page = scored.slice(start, start + (options.limit ?? 20));
    const hits = await mapLimited(
      page,
      SNIPPET_READINGS,
      async (s) => {
        const entry = this.get(s.id)!;
        return {
          entry,
          score: Math.round(s.score * 1000) / 1000,
          fields: [...(s.mask & META_BIT ? (['title'] as const) : []), ...fieldsOfMask(s.mask)],
          snippets: await this.snippetsOf(entry, terms, options.snippets ?? 2),
        };
      },
    );
    return { query, terms: terms.map((t) => (t.prefix ? `${t.term}*` : t.term)), total: scored.length, hits };
  }

  /** The corpus statistics of the current index and journal, computed once per state of both. */
  private corpus(): CorpusStats {
    const docs = this.index.snapshot.docs;
    const c = this.corpusFor;
    if (c && c.docs === docs && c.length === docs.length && c.rows === this.rows && c.epoch === this.indexEpoch) return c.stats;
    const stats = corpusStats(docs, (id) => this.rows.has(id), this.rows.size);
    this.corpusFor = { docs, length: docs.length, rows: this.rows, epoch: this.indexEpoch, stats };
    return stats;
  }

  private async snippetsOf(entry: HistoryEntry, terms: QueryTerm[], count: number): Promise<Snippet[]> {
    const key = snippetKey(entry, terms, count, (path) => {
      const f = this.index.snapshot.files.get(basename(path));
      return f ? `${f.ino}:${f.mtimeMs}` : '';
    });
    const kept = this.snippetCache.get(key);
    if (kept) return kept;
    const snippets = await snippetsFor(entry, terms, count, { hints: (path) => this.traceHints(path) });
    this.snippetCache.set(key, snippets);
    return snippets;
  }

  /** The index's hints of a trace's long lines, for the file version it last read (line-hints.ts); what a search's snippets read through. */
  traceHints(path: string): TraceHints | undefined {
    const f = this.index.snapshot.files.get(basename(path));
    const hints = f && this.index.detailOf(f).hints;
    return hints ? new TraceHints(f, hints) : undefined;
  }

  async pieces(idOrPrefix: string): Promise<SessionPiece[]> {
    return readSessionPieces(this.require(idOrPrefix));
  }

  /** The session's transcript, one per trace it spans (usually one). */
  async transcripts(idOrPrefix: string): Promise<Transcript[]> {
    return transcriptsOf(await this.pieces(idOrPrefix));
  }

  async export(idOrPrefix: string, format: ExportFormat): Promise<ExportResult> {
    const entry = this.require(idOrPrefix);
    return exportPieces(entry, await readSessionPieces(entry), format);
  }

  /** Adds the sessions of a trace file (or a bundle of traces) to history; duplicates are recognised. */
  importTrace(path: string): Promise<ImportResult> {
    return this.exclusive(() => this.importTraceNow(path));
  }

  private async importTraceNow(path: string): Promise<ImportResult> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      throw new HistoryError('invalid', `cannot read ${path}: ${(err as Error).message}`);
    }
    const parts = splitTraces(text);
    if (parts.length === 0) throw new HistoryError('invalid', `${path} is empty`);
    let traces;
    try {
      traces = parts.map((p) => inspectTrace(p, path));
    } catch (err) {
      throw new HistoryError('invalid', (err as Error).message);
    }
    await this.catchUp();
    const result: ImportResult = { source: path, traces: [] };
    for (const t of traces) {
      const sessions: ImportedSession[] = t.sessionIds.map((id) => {
        const e = this.get(id);
        if (e?.traces.some((l) => l.connectionId === t.connectionId)) return { id, status: 'present' };
        return { id, status: this.deleted.has(id) ? 'restored' : 'added' };
      });
      const name = importedFileName(t);
      const target = join(this.paths.traces, name);
      if (sessions.every((s) => s.status === 'present') || existsSync(target)) {
        result.traces.push({ connectionId: t.connectionId, duplicate: true, sessions: sessions.map((s) => ({ ...s, status: 'present' })), corruptLines: t.corruptLines });
        continue;
      }
      await mkdir(this.paths.traces, { recursive: true });
      const tmp = join(this.paths.traces, `.${name}.tmp-${process.pid}`);
      await writeFile(tmp, t.text);
      await rename(tmp, target);
      const atMs = Date.now();
      await appendJournal(this.paths.journal, { kind: 'trace-imported', atMs, file: name, sha256: t.sha256, source: path });
      for (const s of sessions) if (s.status === 'restored') await appendJournal(this.paths.journal, { kind: 'session-restored', atMs, sessionId: s.id });
      result.traces.push({ connectionId: t.connectionId, file: target, duplicate: false, sessions, corruptLines: t.corruptLines });
    }
    await this.catchUp();
    return result;
  }

  /** Sets the user's title (null clears it). */
  rename(idOrPrefix: string, title: string | null): Promise<HistoryEntry> {
    return this.exclusive(() => this.renameNow(idOrPrefix, title));
  }

  private async renameNow(idOrPrefix: string, title: string | null): Promise<HistoryEntry> {
    const entry = this.require(idOrPrefix);
    await appendJournal(this.paths.journal, { kind: 'session-meta', atMs: Date.now(), sessionId: entry.id, title });
    await this.syncJournal(true);
    return this.get(entry.id)!;
  }

  tag(idOrPrefix: string, change: { add?: string[]; remove?: string[] }): Promise<HistoryEntry> {
    return this.exclusive(() => this.tagNow(idOrPrefix, change));
  }

  private async tagNow(idOrPrefix: string, change: { add?: string[]; remove?: string[] }): Promise<HistoryEntry> {
    const entry = this.require(idOrPrefix);
    const clean = (tags: string[] | undefined) => (tags ?? []).map((t) => t.trim()).filter(Boolean);
    const add = clean(change.add);
    const remove = clean(change.remove);
    if (add.length === 0 && remove.length === 0) throw new HistoryError('invalid', 'no tag given');
    await appendJournal(this.paths.journal, {
      kind: 'session-meta',
      atMs: Date.now(),
      sessionId: entry.id,
      ...(add.length ? { addTags: add } : {}),
      ...(remove.length ? { removeTags: remove } : {}),
    });
    await this.syncJournal(true);
    return this.get(entry.id)!;
  }

  /**
   * Removes a session from history. Its traces move to the trash folder only when no other
   * session lives in them and no agent is still writing them; otherwise they stay, and the session
   * is only hidden. A running session is refused unless `force`.
   */
  delete(idOrPrefix: string, options: { force?: boolean } = {}): Promise<DeleteResult> {
    return this.exclusive(() => this.deleteNow(idOrPrefix, options));
  }

  private async deleteNow(idOrPrefix: string, options: { force?: boolean }): Promise<DeleteResult> {
    const entry = this.require(idOrPrefix);
    if (entry.status === 'running' && !options.force) {
      throw new HistoryError('running', `session ${entry.id} is still running (${entry.agent.label}); stop it first, or force the deletion`);
    }
    const gone = new Set([...this.deleted, entry.id]);
    const trashed: string[] = [];
    const kept: string[] = [];
    const moves: Array<[string, string]> = [];
    for (const loc of entry.traces) {
      const name = basename(loc.path);
      const f = this.index.snapshot.files.get(name);
      const alone = f !== undefined && f.card.sessions.every((s) => gone.has(s.id));
      const writing = f !== undefined && f.card.ended === undefined && !f.imported && entry.status === 'running';
      if (!alone || writing) {
        kept.push(loc.path);
        continue;
      }
      let target = join(this.paths.trash, name);
      for (let i = 1; existsSync(target); i++) target = join(this.paths.trash, name.replace(/\.jsonl$/, `.${i}.jsonl`));
      moves.push([loc.path, target]);
    }
    await appendJournal(this.paths.journal, {
      kind: 'session-deleted',
      atMs: Date.now(),
      sessionId: entry.id,
      ...(moves.length ? { movedTo: moves.map(([, to]) => to).join('\n') } : {}),
    });
    if (moves.length) await mkdir(this.paths.trash, { recursive: true });
    for (const [from, to] of moves) {
      try {
        await rename(from, to);
        trashed.push(to);
      } catch {
        // Still hidden by the journal; the trace just stays where it is.
        kept.push(from);
      }
    }
    await this.catchUp();
    await this.syncJournal(true);
    return { id: entry.id, trashed, kept };
  }
}
