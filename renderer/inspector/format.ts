/**
 * How the inspector writes times, sizes and latencies, and the pieces of its filter that go to the
 * core. Pure: tested without a DOM.
 */
import type { InspectorDir, InspectorFilter, InspectorKind, InspectorRow } from '../../common/api/qa-types';

/** Record time (ms since the connection started) as seconds with milliseconds: `12.345`. */
export function formatTime(t: number): string {
  return (t / 1000).toFixed(3);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatLatency(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export const DIR_ARROW: Record<InspectorDir, string> = { out: '→', in: '←' };
export const DIR_TITLE: Record<InspectorDir, string> = { out: 'to the agent', in: 'from the agent' };

export const KIND_LABEL: Record<InspectorKind, string> = {
  request: 'req',
  response: 'res',
  notification: 'notif',
  noise: 'noise',
  stderr: 'stderr',
  other: 'other',
};

/** What the method column says: the method, and the update kind of a session/update. */
export function methodLabel(row: InspectorRow): string {
  if (row.updateKind) return row.updateKind;
  if (row.method) return row.method;
  return row.kind === 'noise' ? '(stdout noise)' : row.kind === 'stderr' ? '(stderr)' : row.kind === 'other' ? '(not JSON-RPC)' : '';
}

export function formatId(id: InspectorRow['id']): string {
  if (id === undefined) return '';
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}

/** The panel's filter state. Empty lists mean "all". */
export interface FilterState {
  scope: 'session' | 'connection';
  dirs: InspectorDir[];
  kinds: InspectorKind[];
  method: string;
  updateKind: string;
  search: string;
  pinnedOnly: boolean;
}

export const EMPTY_FILTER: FilterState = { scope: 'session', dirs: [], kinds: [], method: '', updateKind: '', search: '', pinnedOnly: false };

export function isFiltered(f: FilterState): boolean {
  return f.dirs.length > 0 || f.kinds.length > 0 || f.method !== '' || f.updateKind !== '' || f.search.trim() !== '' || f.pinnedOnly || f.scope !== 'session';
}

/** The filter as the core's `inspector/window` and `inspector/export` take it. */
export function toQuery(f: FilterState, pins: readonly number[]): InspectorFilter {
  const q: InspectorFilter = { scope: f.scope };
  if (f.dirs.length) q.dirs = [...f.dirs];
  if (f.kinds.length) q.kinds = [...f.kinds];
  if (f.method) q.methods = [f.method];
  if (f.updateKind) q.updateKinds = [f.updateKind];
  if (f.search.trim()) q.search = f.search.trim();
  if (f.pinnedOnly) q.indexes = [...pins];
  return q;
}

/** Toggle a value in a list that means "all" when empty. */
export function toggleIn<T>(list: readonly T[], value: T): T[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

/** Parse JSON typed by the tester, with a message that says where it is wrong. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!text.trim()) return { ok: false, message: 'Type a JSON value' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
