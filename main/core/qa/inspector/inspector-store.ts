/**
 * The protocol inspector of one connection: every message in both directions, every stdout-noise
 * and stderr line, as an append-only list of compact rows (kind, method, update kind, id, size,
 * latency of a response matched to its request by direction and id). The trace records themselves
 * are kept for the detail view and the export; the search text of a row is made on the first
 * search and kept. Filtered lists are kept per query and extended as rows arrive, so a window
 * over 100,000 rows costs a slice, not a scan.
 */
import type { InspectorDir, InspectorFilter, InspectorRow, InspectorWindowResult } from '../../../../common/api/qa-types';
import { normalizeWindow } from '../../../../common/api/window';
import type { JsonRpcId, TraceRecord } from '../../../../common/trace/records';

type Json = Record<string, unknown>;

/** What a row keeps; `sessionId` and `preview` are read from the record when a window is made. */
type Item = Omit<InspectorRow, 'sessionId' | 'preview'> & {
  record: TraceRecord;
  /** Lower-cased search text, made on the first search. */
  hay?: string;
};

interface Filtered {
  matched: number[];
  scanned: number;
  /** Rows of an agent session not yet bound to a workbench session (see SessionRouter): decided when they are. */
  undecided: number[];
}

/** Search text kept per row, at most (a 30 MB file read is searched in its first 256 KiB). */
const HAY_LIMIT = 256 * 1024;
const PREVIEW = 160;
/** Filtered lists kept (the panel's current query, the pinned rows, an export...). */
const CACHED_QUERIES = 8;

const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');
const idKey = (dir: InspectorDir, id: unknown) => `${dir}:${typeof id}:${String(id)}`;

export class InspectorStore {
  private readonly items: Item[] = [];
  /** Requests waiting for their answer: direction + id → row index. */
  private readonly open = new Map<string, number>();
  private readonly methods = new Map<string, number>();
  private readonly updateKinds = new Map<string, number>();
  private readonly cache = new Map<string, Filtered>();

  get size(): number {
    return this.items.length;
  }

  /**
   * Take a record of the connection (in order). Workbench events are not messages and are left
   * out; returns whether a row was added. `bytes`: the line's length when known (incoming lines).
   */
  add(record: TraceRecord, line: number, bytes?: number): boolean {
    const index = this.items.length;
    let item: Item;
    switch (record.kind) {
      case 'wire': {
        const msg = record.msg as Json;
        item = { index, line, t: record.t, dir: record.dir, kind: 'other', size: bytes ?? utf8Length(JSON.stringify(msg)), record };
        if (record.unchecked) item.unchecked = true;
        const hasId = 'id' in msg;
        if (hasId) item.id = msg.id as JsonRpcId;
        if (typeof msg.method === 'string') {
          item.kind = hasId ? 'request' : 'notification';
          item.method = msg.method;
          if (msg.method === 'session/update') {
            const kind = obj(obj(msg.params)?.update)?.sessionUpdate;
            if (typeof kind === 'string') item.updateKind = kind;
          }
          if (hasId) this.open.set(idKey(record.dir, msg.id), index);
        } else if ('result' in msg || 'error' in msg) {
          item.kind = 'response';
          const error = obj(msg.error);
          if (error) item.error = { ...(typeof error.code === 'number' ? { code: error.code } : {}), ...(typeof error.message === 'string' ? { message: error.message } : {}) };
          // A response in answers our request (out), a response out answers the agent's (in).
          const key = idKey(record.dir === 'in' ? 'out' : 'in', msg.id);
          const requestIndex = hasId ? this.open.get(key) : undefined;
          if (requestIndex !== undefined) {
            this.open.delete(key);
            const request = this.items[requestIndex]!;
            item.peer = requestIndex;
            item.latency = round(record.t - request.t);
            request.peer = index;
            request.latency = item.latency;
            if (request.method !== undefined) item.method = request.method;
          }
        }
        break;
      }
      case 'noise':
        item = { index, line, t: record.t, dir: record.dir, kind: 'noise', size: 'text' in record ? utf8Length(record.text) : Math.floor((record.base64.length * 3) / 4), record };
        break;
      case 'oversize':
        item = { index, line, t: record.t, dir: record.dir, kind: 'other', size: record.length, record };
        break;
      case 'stderr':
        item = { index, line, t: record.t, dir: 'in', kind: 'stderr', size: utf8Length(record.text), record };
        break;
      default:
        return false;
    }
    this.items.push(item);
    if (item.method !== undefined && item.kind !== 'response') this.methods.set(item.method, (this.methods.get(item.method) ?? 0) + 1);
    if (item.updateKind !== undefined) this.updateKinds.set(item.updateKind, (this.updateKinds.get(item.updateKind) ?? 0) + 1);
    return true;
  }

  /** A window of the rows that pass the filter (`sessionId`: whose session the `session` scope means). */
  window(sessionId: string, filter: InspectorFilter, query: { offset?: number; limit: number; locate?: number }): InspectorWindowResult {
    const { offset, limit } = normalizeWindow(query);
    const matched = this.matching(sessionId, filter);
    const result: InspectorWindowResult = {
      items: matched.slice(offset, offset + limit).map((i) => this.row(this.items[i]!)),
      offset,
      total: matched.length,
      all: this.items.length,
      facets: { methods: [...this.methods.keys()].sort(), updateKinds: [...this.updateKinds.keys()].sort() },
    };
    if (typeof query.locate === 'number') {
      const at = binarySearch(matched, query.locate);
      result.located = at < 0 ? null : at;
    }
    return result;
  }

  /** One row with its whole record, or undefined for an index out of range. */
  message(index: number): { row: InspectorRow; record: TraceRecord } | undefined {
    const item = this.items[index];
    return item ? { row: this.row(item), record: item.record } : undefined;
  }

  /** The records of the rows that pass the filter, as JSONL (one trace record per line). */
  exportJsonl(sessionId: string, filter: InspectorFilter): { text: string; count: number } {
    const matched = this.matching(sessionId, filter);
    let text = '';
    for (const i of matched) text += `${JSON.stringify(this.items[i]!.record)}\n`;
    return { text, count: matched.length };
  }

  /** The row of a trace line (conformance evidence), or undefined when that line is no message. */
  rowOfLine(line: number): number | undefined {
    let lo = 0;
    let hi = this.items.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const l = this.items[mid]!.line;
      if (l === line) return mid;
      if (l < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Indexes of the rows that pass the filter, in order. */
  matching(sessionId: string, filter: InspectorFilter): number[] {
    if (filter.indexes) {
      const picked = [...new Set(filter.indexes)].filter((i) => Number.isInteger(i) && i >= 0 && i < this.items.length).sort((a, b) => a - b);
      const test = this.predicate(sessionId, { ...filter, indexes: undefined });
      return picked.filter((i) => test(this.items[i]!) === true);
    }
    const key = queryKey(sessionId, filter);
    let kept = this.cache.get(key);
    if (kept) this.cache.delete(key); // re-inserted below: most recently used last
    else kept = { matched: [], scanned: 0, undecided: [] };
    this.cache.set(key, kept);
    while (this.cache.size > CACHED_QUERIES) this.cache.delete(this.cache.keys().next().value!);

    const test = this.predicate(sessionId, filter);
    if (kept.undecided.length) {
      const still: number[] = [];
      const late: number[] = [];
      for (const i of kept.undecided) {
        const r = test(this.items[i]!);
        if (r === 'undecided') still.push(i);
        else if (r) late.push(i);
      }
      kept.undecided = still;
      if (late.length) kept.matched = [...kept.matched, ...late].sort((a, b) => a - b);
    }
    for (let i = kept.scanned; i < this.items.length; i++) {
      const r = test(this.items[i]!);
      if (r === 'undecided') kept.undecided.push(i);
      else if (r) kept.matched.push(i);
    }
    kept.scanned = this.items.length;
    return kept.matched;
  }

  private predicate(sessionId: string, f: InspectorFilter): (item: Item) => boolean | 'undecided' {
    const sessionScope = (f.scope ?? 'session') === 'session';
    const dirs = f.dirs?.length ? new Set(f.dirs) : undefined;
    const kinds = f.kinds?.length ? new Set(f.kinds) : undefined;
    const methods = f.methods?.length ? new Set(f.methods) : undefined;
    const updateKinds = f.updateKinds?.length ? new Set(f.updateKinds) : undefined;
    const needle = f.search?.trim().toLowerCase() || undefined;
    return (item) => {
      if (dirs && !dirs.has(item.dir)) return false;
      if (kinds && !kinds.has(item.kind)) return false;
      if (methods && (item.method === undefined || !methods.has(item.method))) return false;
      if (updateKinds && (item.updateKind === undefined || !updateKinds.has(item.updateKind))) return false;
      if (needle && !this.hay(item).includes(needle)) return false;
      if (sessionScope) {
        const r = item.record;
        // Records of the whole connection (initialize, stderr, noise) belong to every session of it.
        if (r.sessionId === undefined) return r.agentSessionId === undefined ? true : 'undecided';
        if (r.sessionId !== sessionId) return false;
      }
      return true;
    };
  }

  private hay(item: Item): string {
    if (item.hay === undefined) {
      const text = searchText(item.record);
      item.hay = (text.length > HAY_LIMIT ? text.slice(0, HAY_LIMIT) : text).toLowerCase();
    }
    return item.hay;
  }

  private row(item: Item): InspectorRow {
    const r = item.record;
    const row: InspectorRow = { index: item.index, line: item.line, t: item.t, dir: item.dir, kind: item.kind, size: item.size, preview: previewOf(item) };
    if (item.method !== undefined) row.method = item.method;
    if (item.updateKind !== undefined) row.updateKind = item.updateKind;
    if (item.id !== undefined) row.id = item.id;
    if (item.latency !== undefined) row.latency = item.latency;
    if (item.peer !== undefined) row.peer = item.peer;
    if (item.error) row.error = item.error;
    if (r.sessionId !== undefined) row.sessionId = r.sessionId;
    if (item.unchecked) row.unchecked = true;
    return row;
  }
}

function binarySearch(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function queryKey(sessionId: string, f: InspectorFilter): string {
  const sorted = (a?: readonly string[]) => (a?.length ? [...a].sort() : []);
  return JSON.stringify([(f.scope ?? 'session') === 'session' ? sessionId : '*', sorted(f.dirs), sorted(f.kinds), sorted(f.methods), sorted(f.updateKinds), f.search?.trim().toLowerCase() ?? '']);
}

function searchText(r: TraceRecord): string {
  switch (r.kind) {
    case 'wire':
      return JSON.stringify(r.msg);
    case 'noise':
      return 'text' in r ? r.text : r.base64;
    case 'stderr':
      return r.text;
    case 'oversize':
      return r.head;
    default:
      return '';
  }
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW - 1)}…` : flat;
}

/** A short text for the list: what the message says, without its envelope. */
function previewOf(item: Item): string {
  const r = item.record;
  switch (r.kind) {
    case 'noise':
      return clip('text' in r ? r.text : `(not UTF-8) ${r.base64}`);
    case 'stderr':
      return clip(r.text);
    case 'oversize':
      return clip(`(${r.length} bytes, not kept) ${r.head}`);
    case 'wire': {
      const msg = r.msg as Json;
      if (item.kind === 'response') {
        if (item.error) return clip(`${item.error.code ?? ''} ${item.error.message ?? ''}`);
        return clip(JSON.stringify(msg.result ?? null).slice(0, PREVIEW * 4));
      }
      if (item.updateKind !== undefined) {
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
