/**
 * Index rows from the per-trace cards and details and the user's journal: one HistoryEntry per
 * workbench session. A session whose id appears in several traces (resumed onto a new connection)
 * joins its pieces; the same piece found twice (a trace imported while its original is still here)
 * counts once — a recorded trace wins over an imported copy, then the first by name, so a rebuild
 * always picks the same one. Rows are cheap (cards only); a full entry parses its files' details
 * and is built only when asked for. Filters work on rows where they can.
 */
import { sep } from 'node:path';
import { isProcessRunning } from '../acp/process-registry';
import type { FileCard, FileDetail, SessionCard } from './cards';
import type { FileRef, FileTable } from './file-table';
import type { IndexedFile } from './history-index';
import type { HistoryEntry, HistoryFilter, SessionStatus, TraceLocation } from './history-types';
import type { SessionMetaState } from './meta-journal';

export interface Piece {
  readonly file: string;
  /** The file's objects and the session's card (built when first asked for: file-table.ts). */
  readonly f: IndexedFile;
  readonly card: SessionCard;
  readonly startMs: number;
  readonly endMs: number;
  /** What lists, filters and search read, without building the file's objects. */
  readonly agent: FileCard['agent'];
  readonly imported: boolean;
  readonly ended: FileCard['ended'];
  readonly pid: number | undefined;
  readonly launchCwd: string | undefined;
  readonly cwd: string | undefined;
  readonly opened: SessionCard['opened'];
  readonly turns: number;
  /** Files changed (the card's `files`). */
  readonly files: number;
  readonly meta: true | undefined;
}

/** A session as the cards know it. */
export interface Row {
  id: string;
  /** Oldest first. */
  pieces: Piece[];
  createdMs: number;
  updatedMs: number;
}

const iso = (ms: number) => new Date(Number.isFinite(ms) ? ms : 0).toISOString();
const wall = (startedAtMs: number, t: number) => Math.round(startedAtMs + t);

/**
 * A piece of a row: its file's objects and its card are built when first asked for, and what lists,
 * filters and search read comes from the files table without building them (file-table.ts).
 */
class TablePiece implements Piece {
  constructor(
    private readonly table: FileTable,
    readonly file: string,
    /** The file as the table held it when the rows were built. */
    private readonly ref: FileRef,
    /** The session's place in its file's `card.sessions`. */
    private readonly k: number,
    readonly startMs: number,
    readonly endMs: number,
  ) {}

  get f(): IndexedFile {
    return this.table.fileOf(this.ref);
  }

  get card(): SessionCard {
    return this.f.card.sessions[this.k]!;
  }

  get agent(): FileCard['agent'] {
    return this.table.agent(this.ref);
  }

  get imported(): boolean {
    return this.table.imported(this.ref);
  }

  get ended(): FileCard['ended'] {
    return this.table.ended(this.ref);
  }

  get pid(): number | undefined {
    return this.table.pid(this.ref);
  }

  get launchCwd(): string | undefined {
    return this.table.launchCwd(this.ref);
  }

  get cwd(): string | undefined {
    return this.table.session(this.ref, this.k, 'cwd');
  }

  get opened(): SessionCard['opened'] {
    return this.table.session(this.ref, this.k, 'opened');
  }

  get turns(): number {
    return this.table.session(this.ref, this.k, 'turns');
  }

  get files(): number {
    return this.table.session(this.ref, this.k, 'files');
  }

  get meta(): true | undefined {
    return this.table.session(this.ref, this.k, 'meta');
  }
}

export function buildRows(files: FileTable, journal: ReadonlyMap<string, SessionMetaState>): { rows: Map<string, Row>; deleted: Set<string> } {
  // Recorded traces before imported copies, then by name: the first piece of a (session,
  // connection) pair wins.
  const recorded: string[] = [];
  const imported: string[] = [];
  for (const n of files.names()) (files.imported(n) ? imported : recorded).push(n);
  const names = imported.length ? [...sortedNames(recorded), ...sortedNames(imported)] : sortedNames(recorded);
  const deleted = new Set<string>();
  for (const [id, m] of journal) if (m.deleted) deleted.add(id);
  const rows = new Map<string, Row>();
  let file = '';
  let ref: FileRef = 0;
  let startedAtMs = 0;
  const add = (id: string, firstT: number, lastT: number, k: number) => {
    if (deleted.size !== 0 && deleted.has(id)) return;
    const piece = new TablePiece(files, file, ref, k, wall(startedAtMs, firstT), wall(startedAtMs, lastT));
    const row = rows.get(id);
    if (!row) rows.set(id, { id, pieces: [piece], createdMs: piece.startMs, updatedMs: piece.endMs });
    // The same (session, connection) pair again: the first piece stays.
    else {
      const connectionId = files.connectionId(ref);
      if (row.pieces.some((p) => files.connectionId(p.file) === connectionId)) return;
      row.pieces.push(piece);
      row.pieces.sort((a, b) => a.startMs - b.startMs);
      row.createdMs = row.pieces[0]!.startMs;
      row.updatedMs = Math.max(row.updatedMs, piece.endMs);
    }
  };
  for (file of names) {
    ref = files.ref(file);
    startedAtMs = files.startedAtMs(ref);
    files.sessions(ref, add);
  }
  return { rows, deleted };
}

/** Sorts names in place (code unit order), unless they are in order already (a snapshot's usually are). */
function sortedNames(names: string[]): string[] {
  for (let i = 1; i < names.length; i++) if (names[i - 1]! > names[i]!) return names.sort();
  return names;
}

function statusOf(p: Piece, alive: (pid: number) => boolean): SessionStatus {
  const ended = p.ended;
  if (ended === 'not-started') return 'failed';
  if (ended) {
    if (p.opened === undefined && p.turns === 0) return 'failed';
    return ended === 'normally' ? 'ended' : 'crashed';
  }
  const pid = p.pid;
  if (!p.imported && pid !== undefined && alive(pid)) return 'running';
  return 'interrupted';
}

/** What filters look at. */
export interface Filterable {
  agent: HistoryEntry['agent'];
  cwd?: string;
  createdMs: number;
  updatedMs: number;
  status: SessionStatus;
  changed: boolean;
  tags: string[];
}

/** Whether the session's title or tags can only be known from the details (or the journal). */
export function needsDetail(row: Row, meta: SessionMetaState | undefined): boolean {
  return row.pieces.some((p) => p.meta) || (meta !== undefined && (meta.title !== undefined || meta.tagOps.length > 0));
}

/** The filter fields of a row that does not need its details (see needsDetail). */
export function lightFields(row: Row, alive: (pid: number) => boolean): Filterable {
  const first = row.pieces[0]!;
  const last = row.pieces[row.pieces.length - 1]!;
  const cwd = row.pieces.find((p) => p.cwd !== undefined)?.cwd ?? first.launchCwd;
  const out: Filterable = {
    agent: last.agent,
    createdMs: row.createdMs,
    updatedMs: row.updatedMs,
    status: statusOf(last, alive),
    changed: row.pieces.some((p) => p.files > 0),
    tags: [],
  };
  if (cwd !== undefined) out.cwd = cwd;
  return out;
}

export function entryFields(e: HistoryEntry): Filterable {
  return { agent: e.agent, ...(e.cwd !== undefined ? { cwd: e.cwd } : {}), createdMs: e.createdMs, updatedMs: e.updatedMs, status: e.status, changed: e.filesChanged.length > 0, tags: e.tags };
}

function applyTags(base: string[], ops: SessionMetaState['tagOps'], fromMs: number): string[] {
  let tags = [...base];
  for (const op of ops) {
    if (op.atMs < fromMs) continue;
    if (op.set) tags = [...op.set];
    for (const t of op.add ?? []) if (!tags.includes(t)) tags.push(t);
    if (op.remove) tags = tags.filter((t) => !op.remove!.includes(t));
  }
  return tags;
}

/** The full entry of a row; parses the details of its files. */
export function entryOf(row: Row, tracesDir: string, meta: SessionMetaState | undefined, alive: (pid: number) => boolean, detailOf: (f: IndexedFile) => FileDetail): HistoryEntry {
  const list = row.pieces;
  const one = list.length === 1;
  const summaries = list.map((p) => detailOf(p.f).sessions[p.card.id]!);
  const first = list[0]!;
  const last = list[list.length - 1]!;
  const s0 = summaries[0]!;
  const traces: TraceLocation[] = [];
  let turns = 0;
  let turnErrors = 0;
  let toolCalls = 0;
  let permissionRequests = 0;
  let corruptLines = 0;
  let torn = false;
  let imported = true;
  let stopReasons: Record<string, number> = s0.stopReasons;
  let tokens: Record<string, number> = s0.usage.tokens;
  let filesChanged = s0.filesChanged;
  let lastStopReason: string | null | undefined;
  let agentTitle: string | null | undefined;
  let contextUsed: number | undefined;
  let contextSize: number | undefined;
  let cost: { amount: number; currency: string } | undefined;
  let traceTitle: { value: string | null; atMs: number } | undefined;
  let traceTags: { value: string[]; atMs: number } | undefined;
  if (!one) {
    stopReasons = {};
    tokens = {};
    filesChanged = [];
  }
  list.forEach(({ file, f }, i) => {
    const s = summaries[i]!;
    traces.push({ path: tracesDir + sep + file, connectionId: f.card.connectionId, firstOffset: s.firstOffset, lastOffset: s.lastOffset, firstLine: s.firstLine, lastLine: s.lastLine });
    turns += s.turns;
    turnErrors += s.turnErrors;
    toolCalls += s.toolCalls;
    permissionRequests += s.permissionRequests;
    corruptLines += f.corruptLines;
    torn ||= f.torn;
    imported &&= f.imported;
    if (!one) {
      for (const k in s.stopReasons) stopReasons[k] = (stopReasons[k] ?? 0) + s.stopReasons[k]!;
      for (const k in s.usage.tokens) tokens[k] = (tokens[k] ?? 0) + s.usage.tokens[k]!;
      for (const p of s.filesChanged) if (!filesChanged.includes(p)) filesChanged.push(p);
    }
    if (s.lastStopReason !== undefined) lastStopReason = s.lastStopReason;
    if (s.agentTitle !== undefined) agentTitle = s.agentTitle;
    if (s.usage.contextUsed !== undefined) contextUsed = s.usage.contextUsed;
    if (s.usage.contextSize !== undefined) contextSize = s.usage.contextSize;
    if (s.usage.cost) cost = s.usage.cost;
    if (s.meta?.title && (!traceTitle || s.meta.title.atMs >= traceTitle.atMs)) traceTitle = s.meta.title;
    if (s.meta?.tags && (!traceTags || s.meta.tags.atMs >= traceTags.atMs)) traceTags = s.meta.tags;
  });
  // The user's title: the latest of the trace's own and the journal's.
  const titleChange = meta?.title && (!traceTitle || meta.title.atMs >= traceTitle.atMs) ? meta.title : traceTitle;
  const userTitle = titleChange?.value ?? undefined;
  const tags = meta?.tagOps.length ? applyTags(traceTags?.value ?? [], meta.tagOps, traceTags?.atMs ?? -Infinity) : [...(traceTags?.value ?? [])];
  const agentSessionId = summaries.find((s) => s.agentSessionId !== undefined)?.agentSessionId;
  const cwd = summaries.find((s) => s.cwd !== undefined)?.cwd ?? first.f.card.launchCwd;
  const lineage = s0.lineage ?? detailOf(first.f).header?.lineage;
  const usage: HistoryEntry['usage'] = { tokens: one ? { ...tokens } : tokens };
  if (contextUsed !== undefined) usage.contextUsed = contextUsed;
  if (contextSize !== undefined) usage.contextSize = contextSize;
  if (cost) usage.cost = cost;
  const e = { id: row.id } as HistoryEntry;
  if (agentSessionId !== undefined) e.agentSessionId = agentSessionId;
  e.agent = last.f.card.agent;
  if (cwd !== undefined) e.cwd = cwd;
  e.title = userTitle ?? agentTitle ?? s0.firstPrompt ?? '(no prompt)';
  if (userTitle !== undefined) e.userTitle = userTitle;
  if (agentTitle) e.agentTitle = agentTitle;
  if (s0.firstPrompt !== undefined) e.firstPrompt = s0.firstPrompt;
  e.tags = tags;
  e.createdAt = iso(row.createdMs);
  e.createdMs = row.createdMs;
  e.updatedAt = iso(row.updatedMs);
  e.updatedMs = row.updatedMs;
  e.turns = turns;
  e.stopReasons = one ? { ...stopReasons } : stopReasons;
  if (lastStopReason !== undefined) e.lastStopReason = lastStopReason;
  e.turnErrors = turnErrors;
  e.status = statusOf(last, alive);
  e.usage = usage;
  e.toolCalls = toolCalls;
  e.permissionRequests = permissionRequests;
  e.filesChanged = one ? [...filesChanged] : filesChanged;
  if (s0.action !== undefined) e.opened = s0.action;
  if (lineage) e.lineage = lineage;
  e.trace = traces[0]!;
  e.traces = traces;
  e.corruptLines = corruptLines;
  e.torn = torn;
  e.imported = imported;
  return e;
}

const norm = (s: string) => s.toLowerCase();

function underFolder(cwd: string | undefined, folder: string): boolean {
  if (cwd === undefined) return false;
  const f = folder.replace(/[\\/]+$/, '');
  return cwd === f || cwd.startsWith(`${f}/`) || cwd.startsWith(`${f}\\`) || f === '';
}

export function filterIsEmpty(filter: HistoryFilter): boolean {
  return filter.agent === undefined && filter.cwd === undefined && filter.since === undefined && filter.until === undefined && filter.status === undefined && filter.hasChanges === undefined && filter.tag === undefined;
}

export function matchesFilter(e: Filterable, filter: HistoryFilter): boolean {
  if (filter.agent !== undefined) {
    const a = norm(filter.agent);
    if (![e.agent.id, e.agent.label, e.agent.name].some((v) => v !== undefined && norm(v) === a)) return false;
  }
  if (filter.cwd !== undefined && !underFolder(e.cwd, filter.cwd)) return false;
  if (filter.since !== undefined && e.updatedMs < filter.since) return false;
  if (filter.until !== undefined && e.createdMs >= filter.until) return false;
  if (filter.status !== undefined) {
    const wanted = Array.isArray(filter.status) ? filter.status : [filter.status];
    if (!wanted.includes(e.status)) return false;
  }
  if (filter.hasChanges !== undefined && filter.hasChanges !== e.changed) return false;
  if (filter.tag !== undefined && !e.tags.some((t) => norm(t) === norm(filter.tag!))) return false;
  return true;
}

export type Resolved = { entry: HistoryEntry } | { error: 'not-found' } | { error: 'ambiguous'; candidates: HistoryEntry[] };

/** Ids matching a workbench session id or a unique prefix of one (case-insensitive). */
export function idsFor(ids: Iterable<string>, idOrPrefix: string): string[] {
  const prefix = idOrPrefix.toUpperCase();
  if (prefix === '') return [];
  const out: string[] = [];
  for (const id of ids) {
    if (id === idOrPrefix || id.toUpperCase() === prefix) return [id];
    if (id.toUpperCase().startsWith(prefix)) out.push(id);
  }
  return out;
}
