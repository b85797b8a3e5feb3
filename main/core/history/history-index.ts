/**
 * The persisted history index: a JSON snapshot (per trace file: how far it was read, its fold state
 * and session summaries; the document table; the list of search segments) plus the segments
 * themselves. Any process that wants a current view calls `catchUp()`: it lists the traces, stats
 * the ones still being written, and reads only what was appended since the snapshot recorded them
 * — under the inter-process lock, re-checking against the newest snapshot once it holds it, then
 * writing a new segment and a new snapshot (temp file + rename, so readers see the old or the new,
 * never half). A missing, unreadable or foreign snapshot, or a damaged segment, is rebuilt from the
 * traces. The per-file details live in a side file beside the snapshot (detail-file.ts), read by
 * offset when needed. See README.md beside this file.
 */
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cardOf, emptyDetail, type FileDetail } from './cards';
import { DETAIL_FILE, DetailFile, detailFileName, extendDetailFile, writeDetailFile } from './detail-file';
import { checkDocs, docsOnDemand, encodeDocs, type DocColumns, type DocRow } from './doc-columns';
import { ColumnReader, type FileColumns } from './file-columns';
import { FileTable } from './file-table';
import { shouldSettle, type FoldInput } from './fold-file';
import type { IndexedFile } from './indexed-file';
import { defaultFoldWorkerPath, foldInOrder, FoldPool, foldWorkerCount } from './fold-pool';
import { IndexProgressReporter, type HistoryIndexProgress } from './index-progress';
import { IMPORTED_NAME, type HistoryPaths } from './history-paths';
import type { RefreshReport } from './history-types';
import { acquireLock, LockTimeout, type HeldLock, type LockOptions } from './lock';
import { mergeSegments, SegmentBuilder, SegmentReader } from './segment';

export const INDEX_FORMAT = 'acp-workbench-history-index';
export const INDEX_VERSION = 4;
/** The version before the files' table became columns (file-columns.ts): converted on open. */
const OBJECT_FILES_VERSION = 3;
/** The version before the details moved to the side file: converted on open (its details were inline). */
const INLINE_DETAILS_VERSION = 2;

/** Catch-ups that read at least this much are folded in worker threads (fold-pool.ts). */
const PARALLEL_FOLD_BYTES = 8 * 1024 * 1024;
/** Postings held in memory before they are written out as a segment. */
const FLUSH_POSTINGS = 2_000_000;
/** More segments than this are merged into one. */
const MAX_SEGMENTS = 6;
/** Orphaned temp and private segment files older than this are removed. */
const ORPHAN_MS = 3600_000;
/**
 * A side file is extended (the previous one copied, the changed details appended) while at most this
 * share of it would be details no file refers to any more; beyond, it is written whole, compacted.
 */
export const DETAIL_DEAD_SHARE = 0.25;

export type { IndexedFile } from './indexed-file';

export type { DocRow } from './doc-columns';

export interface SegmentRef {
  name: string;
  bytes: number;
  docs: number;
  terms: number;
}

export interface IndexSnapshot {
  format: typeof INDEX_FORMAT;
  version: number;
  generation: number;
  writtenAt: string;
  /** In index.json: columns (version 4, file-columns.ts; an object per file before). */
  files: FileTable;
  docs: DocRow[];
  segments: SegmentRef[];
  /** The side file of the files' details (detail-file.ts); null while there are none. */
  details: { name: string; bytes: number } | null;
}

export function emptySnapshot(generation = 0): IndexSnapshot {
  return { format: INDEX_FORMAT, version: INDEX_VERSION, generation, writtenAt: new Date(0).toISOString(), files: FileTable.empty(), docs: [], segments: [], details: null };
}

export class IndexCorrupt extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'IndexCorrupt';
  }
}

interface FileChange {
  name: string;
  /** Read from the start (new, or rewritten: shorter or another inode). */
  fresh: boolean;
  stat: { size: number; mtimeMs: number; ino: number };
}

/** One catch-up's state shared by its steps: the progress reporter, when it is big enough to report. */
interface CatchUpRun {
  progress?: IndexProgressReporter;
}

interface Plan {
  changed: FileChange[];
  removed: string[];
  settle: string[];
}

const planIsEmpty = (p: Plan) => p.changed.length === 0 && p.removed.length === 0 && p.settle.length === 0;

export interface HistoryIndexOptions {
  lock?: LockOptions;
  /** Clock for settling decisions (tests). */
  now?: () => number;
  /**
   * The fold worker bundle for big catch-ups (fold-pool.ts); null folds inline. Default: the
   * bundle beside the running one, when there is one.
   */
  foldWorker?: string | null;
  /** Workers for a parallel fold (default: foldWorkerCount()). */
  foldWorkers?: number;
  /** A catch-up reading at least this many bytes folds in parallel (default 8 MiB). */
  parallelFoldBytes?: number;
  /** Postings held in memory before a segment is written (default 2 M; tests set it low to get many segments). */
  flushPostings?: number;
  /** Told how far a long catch-up has come (a rebuild, or one reading ≥ 8 MiB: index-progress.ts). */
  onProgress?: (progress: HistoryIndexProgress) => void;
}

/**
 * The snapshot read from index.json, checked. A version-3 snapshot (an object per file) comes back
 * as version 4; a version-2 one (an object per file, details inline as JSON text) too, with those
 * texts beside it, to be written to a side file. `from`: the version converted.
 */
function validate(value: unknown): { snapshot: IndexSnapshot; inlineDetails?: Map<IndexedFile, string>; from?: number } {
  const s = value as Omit<IndexSnapshot, 'files'> & { files: unknown };
  if (!s || typeof s !== 'object' || s.format !== INDEX_FORMAT) throw new IndexCorrupt('not a history index');
  const version = s.version;
  if (version !== INDEX_VERSION && version !== OBJECT_FILES_VERSION && version !== INLINE_DETAILS_VERSION) throw new IndexCorrupt(`index version ${String(version)}, this build uses ${INDEX_VERSION}`);
  if (typeof s.generation !== 'number' || !s.files || typeof s.files !== 'object' || !Array.isArray(s.docs) || !Array.isArray(s.segments)) {
    throw new IndexCorrupt('index fields missing');
  }
  if (version !== INLINE_DETAILS_VERSION && s.details !== null && (typeof s.details !== 'object' || typeof s.details.name !== 'string' || !DETAIL_FILE.test(s.details.name) || typeof s.details.bytes !== 'number')) {
    throw new IndexCorrupt('index fields missing');
  }
  if (version === INDEX_VERSION) {
    let reader: ColumnReader;
    try {
      reader = new ColumnReader(s.files as FileColumns);
      checkDocs(s.docs as unknown as DocColumns, reader);
    } catch (err) {
      throw new IndexCorrupt(`index fields missing: ${(err as Error).message}`);
    }
    const files = FileTable.fromReader(reader);
    // Every file's detail is in the side file (a snapshot is written with all of them; the columns hold an offset and length for each).
    if (!s.details && files.size > 0) throw new IndexCorrupt('index fields missing');
    const snapshot: IndexSnapshot = { ...s, files };
    // The documents are built when first needed (a search, a catch-up), not by a warm start.
    docsOnDemand(snapshot, s.docs as unknown as DocColumns, reader);
    return { snapshot };
  }
  const objects = s.files as Record<string, IndexedFile>;
  if (version === OBJECT_FILES_VERSION) {
    for (const f of Object.values(objects)) if (!Array.isArray(f.detailAt) || !s.details) throw new IndexCorrupt('index fields missing');
    return { snapshot: { ...s, version: INDEX_VERSION, files: FileTable.fromObjects(objects) }, from: version };
  }
  const inlineDetails = new Map<IndexedFile, string>();
  for (const f of Object.values(objects)) {
    const old = f as IndexedFile & { detail?: unknown };
    if (typeof old.detail !== 'string') throw new IndexCorrupt('index fields missing');
    inlineDetails.set(f, old.detail);
    delete old.detail;
    f.detailAt = null;
  }
  return { snapshot: { ...s, version: INDEX_VERSION, details: null, files: FileTable.fromObjects(objects) }, inlineDetails, from: version };
}

export class HistoryIndex {
  snapshot: IndexSnapshot = emptySnapshot();
  /** Open segments of the snapshot (and private ones written without the lock). */
  private readers = new Map<string, SegmentReader>();
  private privateSegments: SegmentRef[] = [];
  /** Caught up without the lock: the next look drops that and tries to catch up for everyone. */
  private privateCatchUp = false;
  private loadedStat: { mtimeMs: number; size: number; ino: number } | undefined;
  private readonly now: () => number;
  /** Parsed details, by the file object they belong to (a reload brings new objects). */
  private details = new WeakMap<IndexedFile, FileDetail>();
  /** The snapshot's side file of details (null: none yet). */
  private detailFile: DetailFile | undefined;
  /** Details (JSON) changed in memory since the side file was written. */
  private unwrittenDetails = new Map<IndexedFile, string>();
  /** The snapshot in memory must be written even if no trace changed (converted from version 2). */
  private converted: string | undefined;

  constructor(
    readonly paths: HistoryPaths,
    private readonly options: HistoryIndexOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The detail of a file of the snapshot as JSON ('' = none yet): changed in memory, else from the side file. */
  private detailText(f: IndexedFile): string {
    const unwritten = this.unwrittenDetails.get(f);
    if (unwritten !== undefined) return unwritten;
    if (!f.detailAt) return '';
    if (!this.detailFile) throw new IndexCorrupt('a detail without a side file');
    return this.detailFile.read(f.detailAt);
  }

  /** The detail of a file of the snapshot, parsed on first use. */
  detailOf(f: IndexedFile): FileDetail {
    let d = this.details.get(f);
    if (!d) {
      const text = this.detailText(f);
      d = text ? (JSON.parse(text) as FileDetail) : emptyDetail();
      this.details.set(f, d);
    }
    return d;
  }

  private storeDetail(f: IndexedFile, name: string, d: FileDetail): void {
    this.unwrittenDetails.set(f, JSON.stringify(d));
    f.card = cardOf(d, name);
    f.corruptLines = d.corruptLines;
    this.details.set(f, d);
  }

  /** Segment readers to search (the snapshot's and this process's private ones). */
  get segmentReaders(): SegmentReader[] {
    return [...this.readers.values()];
  }

  /**
   * Loads the snapshot written last (by any process) unless the one in memory is it. Returns why
   * it had to be dropped when it is missing or corrupt (the caller rebuilds).
   */
  async reload(): Promise<'missing' | IndexCorrupt | undefined> {
    for (let attempt = 0; ; attempt++) {
      let st;
      try {
        st = await stat(this.paths.index);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await this.replace(emptySnapshot(this.snapshot.generation), undefined);
        return 'missing';
      }
      const key = { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino };
      const same = this.loadedStat && key.mtimeMs === this.loadedStat.mtimeMs && key.size === this.loadedStat.size && key.ino === this.loadedStat.ino;
      if (same && !this.privateCatchUp) return undefined;
      try {
        const { snapshot, inlineDetails, from } = validate(JSON.parse(await readFile(this.paths.index, 'utf8')));
        await this.replace(snapshot, key);
        // Version 2: the details move to a side file at the next write (catchUp writes at once).
        if (inlineDetails) this.unwrittenDetails = inlineDetails;
        if (from !== undefined) this.converted = `index version ${from} converted to version ${INDEX_VERSION}`;
        return undefined;
      } catch (err) {
        // A segment may have been merged away between reading the snapshot and opening it.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 3) continue;
        const why = err instanceof IndexCorrupt ? err : new IndexCorrupt(`the index could not be read: ${(err as Error).message}`);
        await this.replace(emptySnapshot(this.snapshot.generation), undefined);
        return why;
      }
    }
  }

  private async replace(snapshot: IndexSnapshot, key: typeof this.loadedStat): Promise<void> {
    const readers = new Map<string, SegmentReader>();
    let detailFile = this.detailFile;
    try {
      for (const seg of snapshot.segments) readers.set(seg.name, this.readers.get(seg.name) ?? (await SegmentReader.open(join(this.paths.segments, seg.name), seg.bytes)));
      const d = snapshot.details;
      if (!d) detailFile = undefined;
      else if (detailFile?.path !== join(this.paths.dir, d.name) || detailFile.bytes !== d.bytes) detailFile = await DetailFile.open(join(this.paths.dir, d.name), d.bytes);
    } catch (err) {
      await Promise.all([...readers].filter(([name]) => !this.readers.has(name)).map(([, r]) => r.close()));
      throw err;
    }
    for (const [name, r] of this.readers) if (!readers.has(name)) await r.close();
    if (detailFile !== this.detailFile) this.detailFile?.close();
    this.detailFile = detailFile;
    this.unwrittenDetails = new Map();
    this.converted = undefined;
    this.readers = readers;
    this.privateSegments = [];
    this.privateCatchUp = false;
    this.snapshot = snapshot;
    this.loadedStat = key;
  }

  async close(): Promise<void> {
    await Promise.all([...this.readers.values()].map((r) => r.close()));
    this.readers.clear();
    this.detailFile?.close();
    this.detailFile = undefined;
    for (const p of this.privateSegments) await unlink(join(this.paths.segments, p.name)).catch(() => undefined);
  }

  /** What changed in `traces/` since the snapshot. */
  private async plan(): Promise<Plan> {
    let names: string[];
    try {
      names = (await readdir(this.paths.traces)).filter((n) => n.endsWith('.jsonl'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      names = [];
    }
    const files = this.snapshot.files;
    // Every file the snapshot knows still listed (the usual case): nothing removed, no set to build.
    let listedKnown = 0;
    for (const name of names) if (files.has(name)) listedKnown++;
    const present = listedKnown === files.size ? undefined : new Set(names);
    const plan: Plan = { changed: [], removed: present ? files.names().filter((n) => !present.has(n)) : [], settle: [] };
    const now = this.now();
    // Settled files are not looked at: no stat, no promise, their objects not built.
    const unsettled = names.filter((name) => files.settled(name) !== true);
    await Promise.all(
      unsettled.map(async (name) => {
        const f = files.get(name);
        let st;
        try {
          st = await stat(join(this.paths.traces, name));
        } catch {
          return; // Gone between the listing and now: the next look sees it removed.
        }
        const s = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
        if (!f) plan.changed.push({ name, fresh: true, stat: s });
        else if (s.ino !== f.ino || s.size < f.position) plan.changed.push({ name, fresh: true, stat: s });
        else if (s.size !== f.size || s.mtimeMs !== f.mtimeMs) plan.changed.push({ name, fresh: false, stat: s });
        else if (this.shouldSettle(f, s.mtimeMs, now)) plan.settle.push(name);
      }),
    );
    plan.changed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return plan;
  }

  private shouldSettle(f: IndexedFile, mtimeMs: number, now: number): boolean {
    return shouldSettle(f, mtimeMs, now);
  }

  private get flushPostings(): number {
    return this.options.flushPostings ?? FLUSH_POSTINGS;
  }

  /** Worker threads for a catch-up that reads a lot (a rebuild); undefined = fold inline. */
  private foldPool(changed: readonly FileChange[], segmentName: (worker: number) => string): FoldPool | undefined {
    const workerPath = this.options.foldWorker === undefined ? defaultFoldWorkerPath() : this.options.foldWorker;
    const workers = this.options.foldWorkers ?? foldWorkerCount();
    if (!workerPath || workers < 1 || changed.length < 2) return undefined;
    let bytes = 0;
    for (const c of changed) bytes += c.fresh ? c.stat.size : Math.max(0, c.stat.size - (this.snapshot.files.get(c.name)?.position ?? 0));
    if (bytes < (this.options.parallelFoldBytes ?? PARALLEL_FOLD_BYTES)) return undefined;
    // Each worker holds its share of the postings an inline build would flush at, and merges its
    // segments itself (in parallel with the other) when they are more than its share of the limit.
    return new FoldPool(workerPath, workers, (i) => ({
      segmentsDir: this.paths.segments,
      prefix: segmentName(i),
      flushPostings: Math.ceil(this.flushPostings / workers),
      keepSegments: Math.floor(MAX_SEGMENTS / workers),
    }));
  }

  /**
   * Brings the snapshot up to date with the traces, writing it for everyone when the lock can be
   * had. `rebuild` starts from nothing (every trace is read again).
   */
  async catchUp(opts: { rebuild?: string } = {}): Promise<RefreshReport> {
    const why = (dropped: 'missing' | IndexCorrupt | undefined) => opts.rebuild ?? (dropped === undefined ? undefined : dropped === 'missing' ? 'the index is missing' : dropped.message);
    let rebuild = why(await this.reload());
    if (rebuild === undefined && this.converted === undefined && planIsEmpty(await this.plan())) return { tracesRead: 0, bytesRead: 0, tracesRemoved: 0 };

    // Its progress (when big enough to show) ends once the index is saved, not when the traces are read.
    const run: CatchUpRun = {};
    try {
      return await this.catchUpLocked(rebuild, why, run);
    } finally {
      run.progress?.finish();
    }
  }

  private async catchUpLocked(rebuild: string | undefined, why: (dropped: 'missing' | IndexCorrupt | undefined) => string | undefined, run: CatchUpRun): Promise<RefreshReport> {
    let lock: HeldLock | undefined;
    try {
      await mkdir(this.paths.dir, { recursive: true });
      lock = await acquireLock(this.paths.lock, this.options.lock);
    } catch (err) {
      if (!(err instanceof LockTimeout)) throw err;
      // Someone holds the index for long (a big rebuild): catch up for ourselves, privately.
      const converted = this.converted;
      const { report } = await this.apply(rebuild, 'private', run);
      return { ...report, ...(rebuild ? { rebuilt: rebuild } : {}), ...(converted && !rebuild ? { converted } : {}), notPersisted: err.message };
    }
    try {
      // Whoever held the lock before may have done the work already (even the rebuild).
      rebuild = why(await this.reload());
      const converted = rebuild === undefined ? this.converted : undefined;
      const { changed, report } = await this.apply(rebuild, 'shared', run);
      if (changed || converted !== undefined) {
        if (!(await lock.stillHeld())) {
          // Our lock was taken over (we were too slow): our work is not written; the next look redoes it.
          this.loadedStat = undefined;
          return { ...report, notPersisted: 'the index lock was taken over by another process' };
        }
        await this.write();
        await this.collectGarbage();
      }
      return { ...report, ...(rebuild ? { rebuilt: rebuild } : {}), ...(converted ? { converted } : {}) };
    } catch (err) {
      // The snapshot in memory may be half-updated: drop it, the next look reloads from disk.
      this.loadedStat = undefined;
      throw err;
    } finally {
      await lock.release();
    }
  }

  /** Reads what changed into the snapshot in memory and writes the new segments. */
  private async apply(rebuild: string | undefined, mode: 'shared' | 'private', run: CatchUpRun): Promise<{ changed: boolean; report: RefreshReport }> {
    if (rebuild !== undefined) {
      for (const r of this.readers.values()) await r.close();
      this.readers.clear();
      this.snapshot = emptySnapshot(this.snapshot.generation);
      this.unwrittenDetails = new Map();
      this.converted = undefined;
    }
    const plan = await this.plan();
    const report: RefreshReport = { tracesRead: 0, bytesRead: 0, tracesRemoved: plan.removed.length };
    if (planIsEmpty(plan) && rebuild === undefined) return { changed: false, report };
    const snap = this.snapshot;
    const generation = snap.generation + 1;
    await mkdir(this.paths.segments, { recursive: true });
    let builder = new SegmentBuilder();
    let written = 0;
    const newSegments: SegmentRef[] = [];
    const flush = async () => {
      if (builder.empty) return;
      const name = mode === 'shared' ? `seg-${generation}-${written++}.idx` : `private-${process.pid}-${Date.now()}-${written++}.idx`;
      const info = await builder.write(join(this.paths.segments, name));
      builder = new SegmentBuilder();
      newSegments.push({ name, bytes: info.bytes, docs: info.docs, terms: info.terms });
    };

    for (const name of plan.removed) this.forget(name);
    for (const name of plan.settle) this.settle(snap.files.get(name)!, name);
    const now = this.now();
    // What each file is read from: its own state only (a file re-read from the start is forgotten first).
    const inputs: FoldInput[] = plan.changed.map((change) => {
      const existing = change.fresh ? undefined : snap.files.get(change.name);
      return {
        path: join(this.paths.traces, change.name),
        name: change.name,
        position: existing?.position ?? 0,
        lines: existing?.lines ?? 0,
        detailJson: existing ? this.detailText(existing) : '',
        imported: existing?.imported ?? IMPORTED_NAME.test(change.name),
        mtimeMs: change.stat.mtimeMs,
        now,
      };
    });
    const progress = (run.progress = IndexProgressReporter.maybe(
      this.options.onProgress,
      { traces: inputs.length, bytes: plan.changed.reduce((sum, c, i) => sum + Math.max(0, c.stat.size - inputs[i]!.position), 0) },
      rebuild !== undefined,
    ));
    const stamp = `${process.pid}-${Date.now()}`;
    const pool = this.foldPool(plan.changed, (i) => (mode === 'shared' ? `seg-${generation}-w${i}-` : `private-${stamp}-w${i}-`));
    try {
      let k = 0;
      for (const pending of foldInOrder(inputs, pool, () => builder)) {
        const change = plan.changed[k++]!;
        if (change.fresh && snap.files.has(change.name)) this.forget(change.name);
        const existing = snap.files.get(change.name);
        let folded;
        try {
          folded = await pending;
        } catch (err) {
          // Gone (deleted, moved to trash) between the listing and the read.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
            this.forget(change.name);
            progress?.file(0);
            continue;
          }
          throw err;
        }
        const { tail: result, detail } = folded;
        const f: IndexedFile = existing ?? {
          size: 0,
          mtimeMs: 0,
          ino: change.stat.ino,
          position: 0,
          lines: 0,
          torn: false,
          settled: false,
          imported: IMPORTED_NAME.test(change.name),
          corruptLines: 0,
          card: folded.card,
          detailAt: null,
        };
        const before = f.position;
        snap.files.set(change.name, f);
        report.tracesRead++;
        report.bytesRead += result.position - before;
        progress?.file(result.position - before);
        Object.assign(f, { position: result.position, lines: result.lines, size: result.size, torn: result.torn, mtimeMs: change.stat.mtimeMs, ino: change.stat.ino });
        f.card = folded.card;
        if (folded.settled) f.settled = true;
        const ids = folded.docs.map((doc) => {
          let id = detail.docs[doc.sessionId];
          if (id === undefined || !snap.docs[id]) {
            id = detail.docs[doc.sessionId] = snap.docs.length;
            snap.docs.push([change.name, doc.sessionId, 0]);
          }
          snap.docs[id]![2] += doc.length;
          return id;
        });
        // A document goes in one builder once: a file is read once per pass.
        folded.index(ids);
        this.storeDetail(f, change.name, detail);
        if (builder.size > this.flushPostings) await flush();
      }
      progress?.writing();
      if (pool) newSegments.push(...(await pool.finish()));
    } finally {
      await pool?.close();
    }
    await flush();

    if (mode === 'private') {
      for (const seg of newSegments) {
        this.readers.set(seg.name, await SegmentReader.open(join(this.paths.segments, seg.name), seg.bytes));
        this.privateSegments.push(seg);
      }
      this.snapshot.generation = generation;
      this.privateCatchUp = true;
      return { changed: true, report };
    }
    snap.segments.push(...newSegments);
    snap.generation = generation;
    await this.maybeMerge(generation);
    for (const seg of snap.segments) if (!this.readers.has(seg.name)) this.readers.set(seg.name, await SegmentReader.open(join(this.paths.segments, seg.name), seg.bytes));
    for (const [name, r] of this.readers) {
      if (!snap.segments.some((s) => s.name === name)) {
        await r.close();
        this.readers.delete(name);
      }
    }
    return { changed: true, report };
  }

  /** A trace that is gone or re-read from the start: its documents die, its summary goes. */
  private forget(name: string): void {
    const f = this.snapshot.files.get(name);
    if (!f) return;
    for (const id of Object.values(this.detailOf(f).docs)) this.snapshot.docs[id] = null;
    this.snapshot.files.delete(name);
  }

  private settle(f: IndexedFile, name: string): void {
    const d = this.detailOf(f);
    f.settled = true;
    delete d.fold;
    delete d.carry;
    this.storeDetail(f, name, d);
  }

  /** Merges segments when there are too many or too many dead documents in them. */
  private async maybeMerge(generation: number): Promise<void> {
    const snap = this.snapshot;
    const dead = snap.docs.filter((d) => d === null).length;
    const tooDead = snap.docs.length > 100 && dead / snap.docs.length > 0.3;
    if (snap.segments.length <= MAX_SEGMENTS && !tooDead) return;
    const sorted = [...snap.segments].sort((a, b) => b.bytes - a.bytes);
    const rest = sorted.slice(1).reduce((s, x) => s + x.bytes, 0);
    // Leave a big segment alone while the small ones are still small beside it.
    const inputs = !tooDead && sorted[0]!.bytes > 4 * rest ? sorted.slice(1) : sorted;
    const name = `seg-${generation}-merged.idx`;
    const info = await mergeSegments(
      inputs.map((s) => ({ path: join(this.paths.segments, s.name), bytes: s.bytes })),
      (doc) => snap.docs[doc] !== null && snap.docs[doc] !== undefined,
      join(this.paths.segments, name),
    );
    const merged = new Set(inputs.map((s) => s.name));
    snap.segments = [...snap.segments.filter((s) => !merged.has(s.name)), { name, bytes: info.bytes, docs: info.docs, terms: info.terms }];
  }

  /**
   * Writes the side file of details (the changed ones from memory, the others copied from the
   * previous side file as they are), then the snapshot that refers to it. When the previous side
   * file holds every unchanged detail and would stay mostly referenced, the new one is a copy of it
   * with the changed details appended (`extendDetailFile`: a catch-up of a few sessions then neither
   * reads nor writes the other details); otherwise it is written whole, compacted.
   */
  private async write(): Promise<void> {
    const snap = this.snapshot;
    const name = detailFileName(snap.generation);
    const path = join(this.paths.dir, name);
    const written = (await this.extendDetails(snap.files, path)) ?? (await this.writeDetailsWhole(snap.files.values(), path));
    snap.details = { name, bytes: written.bytes };
    snap.writtenAt = new Date(this.now()).toISOString();
    const tmp = `${this.paths.index}.tmp-${process.pid}`;
    await writeFile(tmp, JSON.stringify({ ...snap, files: snap.files.toColumns(), docs: encodeDocs(snap.docs, snap.files) }));
    await rename(tmp, this.paths.index);
    const st = await stat(this.paths.index);
    this.loadedStat = { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino };
    const detailFile = await DetailFile.open(join(this.paths.dir, name), written.bytes);
    this.detailFile?.close();
    this.detailFile = detailFile;
    this.unwrittenDetails = new Map();
    this.converted = undefined;
  }

  /**
   * The previous side file extended with the changed details, when it holds every other one and at
   * most `DETAIL_DEAD_SHARE` of the result would be details no file refers to any more (replaced or
   * removed); undefined otherwise (or when the copy fails: then it is written whole).
   */
  private async extendDetails(table: FileTable, path: string): Promise<{ bytes: number } | undefined> {
    const previous = this.detailFile;
    if (!previous || previous.path === path) return undefined;
    const changed: IndexedFile[] = [];
    // Files never built are as the previous side file has them.
    let kept = table.unbuiltDetailBytes();
    for (const f of table.built()) {
      if (this.unwrittenDetails.has(f)) changed.push(f);
      else if (f.detailAt) kept += f.detailAt[1] + 1;
      else return undefined;
    }
    const texts = changed.map((f) => this.unwrittenDetails.get(f)!);
    const appendedBytes = texts.reduce((n, t) => n + Buffer.byteLength(t) + 1, 0);
    const total = previous.bytes + appendedBytes;
    if (total - kept - appendedBytes > DETAIL_DEAD_SHARE * total) return undefined;
    try {
      const written = await extendDetailFile(previous.path, previous.bytes, path, texts);
      changed.forEach((f, i) => (f.detailAt = written.at[i]!));
      return written;
    } catch {
      await unlink(path).catch(() => undefined);
      return undefined;
    }
  }

  private async writeDetailsWhole(files: IndexedFile[], path: string): Promise<{ bytes: number }> {
    const previous = files.some((f) => !this.unwrittenDetails.has(f)) ? await this.detailFile?.readAll() : undefined;
    const texts = files.map((f) => {
      const text = this.unwrittenDetails.get(f);
      if (text !== undefined) return text;
      if (!f.detailAt || !previous) throw new IndexCorrupt('a detail is missing from the side file');
      return previous.subarray(f.detailAt[0], f.detailAt[0] + f.detailAt[1]);
    });
    const written = await writeDetailFile(path, texts);
    files.forEach((f, i) => (f.detailAt = written.at[i]!));
    return written;
  }

  /** Removes segment and side files no snapshot refers to (under the lock, after writing the snapshot). */
  private async collectGarbage(): Promise<void> {
    const detailName = this.snapshot.details?.name;
    for (const name of await readdir(this.paths.dir).catch(() => [] as string[])) {
      // Fails on Windows while another process has it open: tried again next time.
      if (DETAIL_FILE.test(name) && name !== detailName) await unlink(join(this.paths.dir, name)).catch(() => undefined);
    }
    const keep = new Set(this.snapshot.segments.map((s) => s.name));
    let names: string[];
    try {
      names = await readdir(this.paths.segments);
    } catch {
      return;
    }
    const now = this.now();
    for (const name of names) {
      if (keep.has(name)) continue;
      const path = join(this.paths.segments, name);
      if (name.startsWith('private-') || name.includes('.tmp-')) {
        const st = await stat(path).catch(() => undefined);
        if (!st || now - st.mtimeMs < ORPHAN_MS) continue;
      }
      // Fails on Windows while another process has it open: tried again next time.
      await unlink(path).catch(() => undefined);
    }
  }
}
