/**
 * The protocol inspector of one connection: every message in both directions, every stdout-noise
 * and stderr line, as an append-only list of rows. A row is a few dozen bytes of metadata in
 * typed-array columns (line, time, direction, kind, method, update kind, session, size, where its
 * line is in the trace file); ids, latency pairs and errors of requests and responses sit in small
 * maps. No message text is kept: the detail view, the window's previews, a text search and the
 * export read the lines back from the trace file (TraceLines), so memory grows with the number of
 * rows only, a few dozen bytes each, and the list has no length limit.
 *
 * Filtered lists (4 bytes per matching row) are kept per query and extended as rows arrive, so a
 * window costs a slice, not a scan. A text search reads only the rows the other filters let
 * through, in bounded batches (the event loop turns between them), and rules most lines out from
 * their raw bytes without parsing them (see search-text.ts).
 */
import type { InspectorDir, InspectorFilter, InspectorKind, InspectorRow, InspectorWindowResult } from '../../../../common/api/qa-types';
import { INSPECTOR_KINDS } from '../../../../common/api/qa-types';
import { normalizeWindow } from '../../../../common/api/window';
import type { JsonRpcId, TraceRecord } from '../../../../common/trace/records';
import { Column, IndexList, StringTable, TimeColumn } from './columns';
import { hayOf, lineMayMatch, plainNeedle } from './search-text';
import type { Span, TraceLines } from './trace-lines';

type Json = Record<string, unknown>;

const PREVIEW = 160;
/** Filtered lists kept (the panel's current query, the pinned rows, an export...). */
const CACHED_QUERIES = 8;
/** A text search reads at most this many bytes (or rows) of the trace per batch. */
const SEARCH_BATCH_BYTES = 1024 * 1024;
const SEARCH_BATCH_ROWS = 2000;
/** An export reads the trace in batches of about this many bytes. */
const EXPORT_BATCH_BYTES = 4 * 1024 * 1024;

// Row flags (one byte): direction, kind, unchecked, session scope, session bound late.
const DIR_OUT = 1;
const KIND_SHIFT = 1; // 3 bits: index in INSPECTOR_KINDS
const KIND_MASK = 0b111 << KIND_SHIFT;
const UNCHECKED = 1 << 4;
const SCOPE_SHIFT = 5; // 2 bits
const SCOPE_MASK = 0b11 << SCOPE_SHIFT;
/** The record belongs to the whole connection (initialize, stderr, noise). */
const SCOPE_CONNECTION = 0;
/** The record belongs to the session in the session column. */
const SCOPE_SESSION = 1;
/** A record of an agent session not yet bound to a workbench session (see SessionRouter). */
const SCOPE_UNDECIDED = 2;
/** The session was bound after the line was written: the line on disk lacks `sessionId`. */
const LATE_SESSION = 1 << 7;

const KIND_INDEX = new Map<InspectorKind, number>(INSPECTOR_KINDS.map((k, i) => [k, i]));

interface Filtered {
  matched: IndexList;
  scanned: number;
  /** Rows of an agent session not yet bound to a workbench session: decided when they are. */
  undecided: number[];
  /** The extension under way (a text search reads the trace): calls of the same query wait for it. */
  busy?: Promise<void>;
}

interface Pairing {
  peer: number;
  latency: number;
}

type Verdict = boolean | 'undecided';

const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');
const idKey = (dir: InspectorDir, id: unknown) => `${dir}:${typeof id}:${String(id)}`;

export class InspectorStore {
  private count = 0;
  // The narrowest type each column's usual values fit; a column widens itself for a value that
  // does not (columns.ts), e.g. a line over 64 KiB or a 256th method name. What a flood's row
  // costs: 16 bytes (docs/performance.md § 1, fifteenth pass).
  /** The row's trace line less its index: the lines of other records (workbench events) before it. */
  private readonly lineCol = new Column(Uint8Array, { relative: true });
  private readonly tCol = new TimeColumn();
  private readonly offsetCol = new Column(Uint32Array, { relative: true });
  /**
   * Bytes of the row's trace line less the row's size (the record's head and `}\n` around the
   * message's own bytes, usually): 0 for a row not in the trace (the record is in `inMemory`).
   */
  private readonly lengthCol = new Column(Uint8Array);
  private readonly sizeCol = new Column(Uint16Array);
  private readonly flagsCol = new Column(Uint8Array);
  private readonly methodCol = new Column(Uint8Array);
  private readonly updateKindCol = new Column(Uint8Array);
  private readonly sessionCol = new Column(Uint8Array);
  /** Methods and update kinds. */
  private readonly names = new StringTable();
  private readonly sessions = new StringTable();
  private readonly ids = new Map<number, JsonRpcId>();
  private readonly pairs = new Map<number, Pairing>();
  private readonly errors = new Map<number, { code?: number; message?: string }>();
  /** Rows whose record was not written to the trace (it was closed): the few records kept whole. */
  private readonly inMemory = new Map<number, TraceRecord>();
  /** Records held by the router until their session is bound; it tags them in place then. */
  private readonly pendingSession = new Map<number, TraceRecord>();
  /** Requests waiting for their answer: direction + id → row index. */
  private readonly open = new Map<string, number>();
  /** The facets: methods of requests and notifications, and update kinds, that some row has. */
  private readonly methods = new Set<string>();
  private readonly updateKinds = new Set<string>();
  /** Which ids of `names` are in `methods` / `updateKinds` already (looked at for every row). */
  private readonly methodFacet: boolean[] = [];
  private readonly updateKindFacet: boolean[] = [];
  private readonly cache = new Map<string, Filtered>();
  /**
   * The last method and the last update kind a row had, with their ids in `names`: a flood
   * repeats them row after row, and comparing a freshly parsed string with the last one is
   * cheaper than hashing it for the table's map (measured in the path: docs/performance.md § 1,
   * fourteenth pass). Undefined before the first: any string, "" too, is a name of its own.
   */
  private lastMethod: string | undefined;
  private lastMethodId = 0;
  private lastUpdateKind: string | undefined;
  private lastUpdateKindId = 0;

  constructor(private readonly lines: TraceLines) {}

  get size(): number {
    return this.count;
  }

  /**
   * Take a record of the connection (in order). Workbench events are not messages and are left
   * out; returns whether a row was added. `bytes`: the line's length when known (incoming lines);
   * `span`: where the record's line is in the trace file (absent: not written, kept in memory).
   */
  add(record: TraceRecord, line: number, bytes?: number, span?: Span): boolean {
    const index = this.count;
    let kind: InspectorKind;
    let size: number;
    let dir: InspectorDir;
    // The row's method and update kind (ids in `names`; 0: none).
    let methodId = 0;
    let updateKindId = 0;
    switch (record.kind) {
      case 'wire': {
        const msg = record.msg as Json;
        dir = record.dir;
        kind = 'other';
        size = bytes ?? utf8Length(JSON.stringify(msg));
        const hasId = 'id' in msg;
        if (hasId) this.ids.set(index, msg.id as JsonRpcId);
        if (typeof msg.method === 'string') {
          kind = hasId ? 'request' : 'notification';
          methodId = msg.method === this.lastMethod ? this.lastMethodId : this.methodId(msg.method);
          this.methodCol.set(index, methodId);
          if (msg.method === 'session/update') {
            const updateKind = obj(obj(msg.params)?.update)?.sessionUpdate;
            if (typeof updateKind === 'string') {
              updateKindId = updateKind === this.lastUpdateKind ? this.lastUpdateKindId : this.updateKindId(updateKind);
              this.updateKindCol.set(index, updateKindId);
            }
          }
          if (hasId) this.open.set(idKey(dir, msg.id), index);
        } else if ('result' in msg || 'error' in msg) {
          kind = 'response';
          const error = obj(msg.error);
          if (error) this.errors.set(index, { ...(typeof error.code === 'number' ? { code: error.code } : {}), ...(typeof error.message === 'string' ? { message: error.message } : {}) });
          // A response in answers our request (out), a response out answers the agent's (in).
          const key = idKey(dir === 'in' ? 'out' : 'in', msg.id);
          const requestIndex = hasId ? this.open.get(key) : undefined;
          if (requestIndex !== undefined) {
            this.open.delete(key);
            const latency = round(record.t - this.tCol.get(requestIndex));
            this.pairs.set(index, { peer: requestIndex, latency });
            this.pairs.set(requestIndex, { peer: index, latency });
            methodId = this.methodCol.get(requestIndex);
            this.methodCol.set(index, methodId);
          }
        }
        break;
      }
      case 'noise':
        dir = record.dir;
        kind = 'noise';
        size = 'text' in record ? utf8Length(record.text) : Math.floor((record.base64.length * 3) / 4);
        break;
      case 'oversize':
        dir = record.dir;
        kind = 'other';
        size = record.length;
        break;
      case 'stderr':
        dir = 'in';
        kind = 'stderr';
        size = utf8Length(record.text);
        break;
      default:
        return false;
    }
    let flags = (dir === 'out' ? DIR_OUT : 0) | (KIND_INDEX.get(kind)! << KIND_SHIFT);
    if (record.kind === 'wire' && record.unchecked) flags |= UNCHECKED;
    if (record.sessionId !== undefined) {
      flags |= SCOPE_SESSION << SCOPE_SHIFT;
      this.sessionCol.set(index, this.sessions.id(record.sessionId));
    } else if (record.agentSessionId !== undefined) {
      flags |= SCOPE_UNDECIDED << SCOPE_SHIFT;
      this.pendingSession.set(index, record);
    }
    this.flagsCol.set(index, flags);
    this.lineCol.set(index, line - index);
    this.tCol.set(index, record.t);
    this.sizeCol.set(index, size);
    if (span && span.length > 0) {
      this.offsetCol.set(index, span.offset);
      this.lengthCol.set(index, span.length - size);
    } else {
      this.lengthCol.set(index, 0);
      this.inMemory.set(index, record);
    }
    this.count++;
    // Held records are bound by the router later; let go of them soon after, queried or not.
    if (this.pendingSession.size && (this.count & 1023) === 0) this.settleSessions();
    if (methodId !== 0 && kind !== 'response' && this.methodFacet[methodId] !== true) {
      this.methodFacet[methodId] = true;
      this.methods.add(this.names.value(methodId)!);
    }
    if (updateKindId !== 0 && this.updateKindFacet[updateKindId] !== true) {
      this.updateKindFacet[updateKindId] = true;
      this.updateKinds.add(this.names.value(updateKindId)!);
    }
    return true;
  }

  private methodId(method: string): number {
    this.lastMethod = method;
    return (this.lastMethodId = this.names.id(method));
  }

  private updateKindId(kind: string): number {
    this.lastUpdateKind = kind;
    return (this.lastUpdateKindId = this.names.id(kind));
  }

  /** A window of the rows that pass the filter (`sessionId`: whose session the `session` scope means). */
  async window(sessionId: string, filter: InspectorFilter, query: { offset?: number; limit: number; locate?: number }): Promise<InspectorWindowResult> {
    const { offset, limit } = normalizeWindow(query);
    const matched = await this.matching(sessionId, filter);
    const indexes = matched.slice(offset, offset + limit);
    const records = await this.records(indexes);
    const result: InspectorWindowResult = {
      items: indexes.map((i, k) => this.row(i, records[k]!)),
      offset,
      total: matched.length,
      all: this.count,
      facets: { methods: [...this.methods].sort(), updateKinds: [...this.updateKinds].sort() },
    };
    if (typeof query.locate === 'number') {
      const at = Number.isInteger(query.locate) ? matched.indexOf(query.locate) : -1;
      result.located = at < 0 ? null : at;
    }
    return result;
  }

  /** One row with its whole record (read back from the trace), or undefined for an index out of range. */
  async message(index: number): Promise<{ row: InspectorRow; record: TraceRecord } | undefined> {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    const [record] = await this.records([index]);
    return { row: this.row(index, record!), record: record! };
  }

  /** The records of the rows that pass the filter, as JSONL (one trace record per line: the trace's own lines). */
  async exportJsonl(sessionId: string, filter: InspectorFilter): Promise<{ text: string; count: number }> {
    const matched = await this.matching(sessionId, filter);
    const parts: string[] = [];
    let k = 0;
    while (k < matched.length) {
      const batch: number[] = [];
      let bytes = 0;
      while (k < matched.length && bytes < EXPORT_BATCH_BYTES) {
        const i = matched.at(k++);
        batch.push(i);
        bytes += this.traceLength(i);
      }
      const raw = await this.rawLines(batch);
      batch.forEach((i, b) => {
        const line = raw[b];
        const flags = this.flagsCol.get(i);
        if (line !== undefined && !(flags & LATE_SESSION)) parts.push(line.endsWith('\n') ? line : `${line}\n`);
        else parts.push(`${JSON.stringify(this.patched(i, line !== undefined ? (JSON.parse(line) as TraceRecord) : this.inMemory.get(i)!))}\n`);
      });
    }
    return { text: parts.join(''), count: matched.length };
  }

  /** The row of a trace line (conformance evidence), or undefined when that line is no message. */
  rowOfLine(line: number): number | undefined {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const l = this.lineOf(mid);
      if (l === line) return mid;
      if (l < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Indexes of the rows that pass the filter, in order. */
  async matching(sessionId: string, filter: InspectorFilter): Promise<IndexList> {
    this.settleSessions();
    const needle = filter.search?.trim().toLowerCase() || undefined;
    if (filter.indexes) {
      const picked = [...new Set(filter.indexes)].filter((i) => Number.isInteger(i) && i >= 0 && i < this.count).sort((a, b) => a - b);
      const test = this.predicate(sessionId, filter);
      const passed = picked.filter((i) => test(i) === true);
      const list = new IndexList();
      for (const i of needle ? await this.withText(passed, needle) : passed) list.push(i);
      return list;
    }
    const key = queryKey(sessionId, filter);
    let kept = this.cache.get(key);
    if (kept) this.cache.delete(key); // re-inserted below: most recently used last
    else kept = { matched: new IndexList(), scanned: 0, undecided: [] };
    this.cache.set(key, kept);
    while (this.cache.size > CACHED_QUERIES) this.cache.delete(this.cache.keys().next().value!);

    const extending = (kept.busy ?? Promise.resolve()).then(() => this.extend(kept, this.predicate(sessionId, filter), needle));
    kept.busy = extending.catch(() => undefined);
    await extending;
    return kept.matched;
  }

  /** The trace line of row `i`. */
  private lineOf(i: number): number {
    return this.lineCol.get(i) + i;
  }

  /** Bytes of row `i`'s line in the trace; 0: not in the trace (kept in `inMemory`). */
  private traceLength(i: number): number {
    return this.inMemory.has(i) ? 0 : this.lengthCol.get(i) + this.sizeCol.get(i);
  }

  /** What the store holds, in bytes of its columns (for the memory test: no text, a few dozen bytes a row). */
  columnBytes(): number {
    return [this.lineCol, this.tCol, this.offsetCol, this.lengthCol, this.sizeCol, this.flagsCol, this.methodCol, this.updateKindCol, this.sessionCol].reduce((n, c) => n + c.byteLength, 0);
  }

  private async extend(kept: Filtered, test: (i: number) => Verdict, needle: string | undefined): Promise<void> {
    if (kept.undecided.length) {
      // These passed the text test already; only their session was unknown.
      const still: number[] = [];
      const late: number[] = [];
      for (const i of kept.undecided) {
        const r = test(i);
        if (r === 'undecided') still.push(i);
        else if (r) late.push(i);
      }
      kept.undecided = still;
      kept.matched.merge(late);
    }
    const end = this.count;
    if (!needle) {
      for (let i = kept.scanned; i < end; i++) {
        const r = test(i);
        if (r === 'undecided') kept.undecided.push(i);
        else if (r) kept.matched.push(i);
      }
      kept.scanned = end;
      return;
    }
    // A text search: the rows the other filters let through, read from the trace in batches.
    let i = kept.scanned;
    while (i < end) {
      const batch: number[] = [];
      const verdicts: Verdict[] = [];
      let bytes = 0;
      for (; i < end && batch.length < SEARCH_BATCH_ROWS && bytes < SEARCH_BATCH_BYTES; i++) {
        const r = test(i);
        if (r === false) continue;
        batch.push(i);
        verdicts.push(r);
        bytes += this.traceLength(i);
      }
      const found = new Set(await this.withText(batch, needle));
      batch.forEach((row, b) => {
        if (!found.has(row)) return;
        if (verdicts[b] === 'undecided') kept.undecided.push(row);
        else kept.matched.push(row);
      });
      kept.scanned = i;
    }
  }

  /** The rows (in order) whose search text contains `needle` (lower-cased). */
  private async withText(rows: readonly number[], needle: string): Promise<number[]> {
    const plain = plainNeedle(needle);
    const raw = await this.rawLines(rows);
    return rows.filter((i, k) => {
      const line = raw[k];
      if (line === undefined) return hayOf(this.inMemory.get(i)!).includes(needle);
      return lineMayMatch(line, needle, plain) && hayOf(JSON.parse(line) as TraceRecord).includes(needle);
    });
  }

  /** The trace lines of rows (undefined for a row kept in memory). */
  private async rawLines(rows: readonly number[]): Promise<Array<string | undefined>> {
    const inTrace = rows.filter((i) => !this.inMemory.has(i));
    const buffers = await this.lines.read(inTrace.map((i) => ({ offset: this.offsetCol.get(i), length: this.traceLength(i) })));
    let k = 0;
    return rows.map((i) => (this.inMemory.has(i) ? undefined : buffers[k++]!.toString('utf8')));
  }

  /** The records of rows, as the connection recorded them. */
  private async records(rows: readonly number[]): Promise<TraceRecord[]> {
    const raw = await this.rawLines(rows);
    return rows.map((i, k) => {
      const line = raw[k];
      return line === undefined ? this.inMemory.get(i)! : this.patched(i, JSON.parse(line) as TraceRecord);
    });
  }

  /** A record read back, with the session it was bound to after its line was written. */
  private patched(i: number, record: TraceRecord): TraceRecord {
    if (this.flagsCol.get(i) & LATE_SESSION && record.sessionId === undefined) {
      const sessionId = this.sessions.value(this.sessionCol.get(i));
      if (sessionId !== undefined) record.sessionId = sessionId;
    }
    return record;
  }

  /** Held records whose session got bound since: their rows join that session. */
  private settleSessions(): void {
    for (const [i, record] of this.pendingSession) {
      if (record.sessionId === undefined) continue;
      this.sessionCol.set(i, this.sessions.id(record.sessionId));
      this.flagsCol.set(i, (this.flagsCol.get(i) & ~SCOPE_MASK) | (SCOPE_SESSION << SCOPE_SHIFT) | LATE_SESSION);
      this.pendingSession.delete(i);
    }
  }

  /** The filter without its text search, over row metadata only. */
  private predicate(sessionId: string, f: InspectorFilter): (i: number) => Verdict {
    const sessionScope = (f.scope ?? 'session') === 'session';
    const session = this.sessions.known(sessionId) ?? -1;
    let dirMask = 0;
    for (const d of f.dirs ?? []) dirMask |= 1 << (d === 'out' ? 1 : 0);
    let kindMask = 0;
    for (const k of f.kinds ?? []) kindMask |= 1 << (KIND_INDEX.get(k) ?? 7);
    // Names never seen have no id: no row has them (yet), so they add nothing to the set.
    const idsOf = (names: readonly string[] | undefined) =>
      names?.length ? new Set(names.map((n) => this.names.known(n)).filter((id): id is number => id !== undefined)) : undefined;
    const methods = idsOf(f.methods);
    const updateKinds = idsOf(f.updateKinds);
    return (i) => {
      const flags = this.flagsCol.get(i);
      if (dirMask && !(dirMask & (1 << (flags & DIR_OUT)))) return false;
      if (kindMask && !(kindMask & (1 << ((flags & KIND_MASK) >> KIND_SHIFT)))) return false;
      if (methods && !methods.has(this.methodCol.get(i))) return false;
      if (updateKinds && !updateKinds.has(this.updateKindCol.get(i))) return false;
      if (sessionScope) {
        // Records of the whole connection (initialize, stderr, noise) belong to every session of it.
        const scope = (flags & SCOPE_MASK) >> SCOPE_SHIFT;
        if (scope === SCOPE_UNDECIDED) return 'undecided';
        if (scope === SCOPE_SESSION && this.sessionCol.get(i) !== session) return false;
      }
      return true;
    };
  }

  private row(i: number, record: TraceRecord): InspectorRow {
    const flags = this.flagsCol.get(i);
    const kind = INSPECTOR_KINDS[(flags & KIND_MASK) >> KIND_SHIFT]!;
    const error = this.errors.get(i);
    const updateKind = this.names.value(this.updateKindCol.get(i));
    const row: InspectorRow = {
      index: i,
      line: this.lineOf(i),
      t: this.tCol.get(i),
      dir: flags & DIR_OUT ? 'out' : 'in',
      kind,
      size: this.sizeCol.get(i),
      preview: previewOf(record, kind, updateKind, error),
    };
    const method = this.names.value(this.methodCol.get(i));
    if (method !== undefined) row.method = method;
    if (updateKind !== undefined) row.updateKind = updateKind;
    if (this.ids.has(i)) row.id = this.ids.get(i)!;
    const pair = this.pairs.get(i);
    if (pair) {
      row.latency = pair.latency;
      row.peer = pair.peer;
    }
    if (error) row.error = error;
    if ((flags & SCOPE_MASK) >> SCOPE_SHIFT === SCOPE_SESSION) row.sessionId = this.sessions.value(this.sessionCol.get(i))!;
    if (flags & UNCHECKED) row.unchecked = true;
    return row;
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function queryKey(sessionId: string, f: InspectorFilter): string {
  const sorted = (a?: readonly string[]) => (a?.length ? [...a].sort() : []);
  return JSON.stringify([(f.scope ?? 'session') === 'session' ? sessionId : '*', sorted(f.dirs), sorted(f.kinds), sorted(f.methods), sorted(f.updateKinds), f.search?.trim().toLowerCase() ?? '']);
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW - 1)}…` : flat;
}

/** A short text for the list: what the message says, without its envelope. */
function previewOf(r: TraceRecord, kind: InspectorKind, updateKind: string | undefined, error: { code?: number; message?: string } | undefined): string {
  switch (r.kind) {
    case 'noise':
      return clip('text' in r ? r.text : `(not UTF-8) ${r.base64}`);
    case 'stderr':
      return clip(r.text);
    case 'oversize':
      return clip(`(${r.length} bytes, not kept) ${r.head}`);
    case 'wire': {
      const msg = r.msg as Json;
      if (kind === 'response') {
        if (error) return clip(`${error.code ?? ''} ${error.message ?? ''}`);
        return clip(JSON.stringify(msg.result ?? null).slice(0, PREVIEW * 4));
      }
      if (updateKind !== undefined) {
        const update = obj(obj(msg.params)?.update) ?? {};
        const content = obj(update.content);
        if (typeof content?.text === 'string') return clip(content.text);
        const { sessionUpdate: _kind, ...rest } = update;
        return clip(JSON.stringify(rest).slice(0, PREVIEW * 4));
      }
      if ('params' in msg) return clip(JSON.stringify(msg.params).slice(0, PREVIEW * 4));
      return clip(JSON.stringify(msg).slice(0, PREVIEW * 4));
    }
    default:
      return '';
  }
}
