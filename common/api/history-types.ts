/**
 * The history browser's part of the API (requests `history/*`): sessions listed in windows,
 * searched with highlighted snippets, previewed read-only, edited, exported, imported, resumed,
 * forked, and their lineage; sessions the agent itself lists (`session/list`) merged in.
 */
import type { FileDiff } from '../transcript/file-diffs';
import type { Entry } from '../transcript/model';
import type { AgentChoice, LiveSessionSummary } from './session-api-types';
import type { Window } from './window';

export type HistoryStatus = 'running' | 'interrupted' | 'ended' | 'crashed' | 'failed';

/** One row of the browser. */
export interface HistorySessionView {
  id: string;
  /** `workbench`: recorded here; `agent`: only known from the agent's session/list. */
  origin: 'workbench' | 'agent';
  agentSessionId?: string;
  agent: { id?: string; label: string; name?: string; version?: string };
  cwd?: string;
  title: string;
  tags: string[];
  createdMs: number;
  updatedMs: number;
  turns: number;
  status: HistoryStatus;
  lastStopReason?: string | null;
  /** Sum of all token counts recorded. */
  tokens?: number;
  cost?: { amount: number; currency: string };
  filesChanged: number;
  lineage?: { parentSessionId?: string; relation?: 'resume' | 'fork'; by?: string; beforeMessage?: number };
}

export interface HistoryFilterParams {
  agent?: string;
  cwd?: string;
  since?: number;
  status?: HistoryStatus;
  tag?: string;
  hasChanges?: boolean;
}

export interface HistoryListParams extends HistoryFilterParams {
  offset?: number;
  limit: number;
}

export interface HistorySnippetView {
  field: string;
  text: string;
  highlights: Array<[number, number]>;
}

export interface HistorySearchParams extends HistoryFilterParams {
  query: string;
  offset?: number;
  limit: number;
}

export interface HistorySearchResult {
  query: string;
  total: number;
  hits: Array<{ session: HistorySessionView; snippets: HistorySnippetView[] }>;
}

export interface HistoryIdParams {
  id: string;
}

/** A user message of a session, for "fork before message N". */
export interface UserMessageView {
  index: number;
  entryId: string;
  text: string;
}

export interface HistoryPreview {
  session: HistorySessionView;
  entryCount: number;
  messages: UserMessageView[];
}

export interface HistoryEntriesParams {
  id: string;
  offset?: number;
  limit: number;
}

export type HistoryEntriesResult = Window<Entry>;

/** What a recorded session did to each file (`history/changes`): one diff per file, first write to last. */
export interface HistoryChangesResult {
  files: FileDiff[];
}

export interface HistoryDeleteParams {
  id: string;
  /** Also `session/delete` the agent's copy (when the agent advertises it). */
  agentSide?: boolean;
}

export interface HistoryDeleteResult {
  id: string;
  /** What became of the agent's copy: deleted, not asked, or why it failed. */
  agentSide: 'deleted' | 'not-asked' | 'not-advertised' | { error: string };
}

export interface HistoryExportParams {
  id: string;
  format: 'jsonl' | 'md' | 'json';
}

export interface HistoryExportResult {
  fileName: string;
  mimeType: string;
  text: string;
}

export interface HistoryImportParams {
  fileName: string;
  text: string;
}

export interface HistoryImportResult {
  sessions: Array<{ id: string; status: 'added' | 'present' | 'restored' }>;
}

export interface HistoryContinueParams {
  id: string;
  /** Sent as the first prompt at once (with the primer when primed); else the primer waits for the first prompt. */
  prompt?: string;
  env?: Record<string, string>;
  /** Fork only: before user message N. */
  beforeMessage?: number;
  /** Fork only: onto another agent (primed). */
  agent?: AgentChoice;
}

export interface HistoryContinueResult {
  live: LiveSessionSummary;
  by: 'resume' | 'load' | 'fork' | 'primed';
  parent: string;
  warnings: string[];
}

export interface LineageNodeView {
  id: string;
  title: string;
  agent: string;
  createdAt: string;
  status: string;
  relation?: 'resume' | 'fork';
  by?: string;
  beforeMessage?: number;
  forkEntryId?: string;
  children: LineageNodeView[];
}

export interface LineageTreeView {
  root: LineageNodeView;
  focus: string;
  missingParent?: string;
}

export interface AgentSessionsParams {
  agent: AgentChoice;
  cwd: string;
  cursor?: string;
}

export interface AgentSessionsResult {
  /** The agent's sessions, merged with ours: those we recorded are `workbench` rows. */
  items: HistorySessionView[];
  nextCursor?: string;
}

export interface OpenAgentSessionParams {
  agent: AgentChoice;
  cwd: string;
  agentSessionId: string;
}

/**
 * How far a long catch-up of the history index has come (a rebuild, or a first look at a big
 * history): sent while it runs, at most ~5 times a second, once when the reading is over and
 * the index is being saved (`writing`), and once at the end with `done`.
 */
export interface HistoryIndexProgress {
  /** The index is being rebuilt from every trace (else: new and grown traces are read). */
  rebuilding: boolean;
  tracesDone: number;
  tracesTotal: number;
  /** Bytes of trace read so far, of those to read. */
  bytesDone: number;
  bytesTotal: number;
  /** Since the catch-up started. */
  elapsedMs: number;
  /** Every trace is read; the index is being merged and saved (not yet usable by another process). */
  writing: boolean;
  /** The catch-up is over: the index is saved (or the catch-up failed, or another process held it). */
  done: boolean;
}

export interface HistoryChangedEvent {
  /** What changed: a session's metadata, a deletion, an import, a new continued session. */
  reason: 'meta' | 'deleted' | 'imported' | 'continued';
  id?: string;
}
