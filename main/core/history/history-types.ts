/**
 * What the history store hands out: one entry per workbench session (the index row), the filters
 * of `list` and `search`, search hits with snippets. Plain JSON, so the same objects go to the UI,
 * the web host and `sessions list --json`.
 */
import type { Lineage, SessionAction } from '../../../common/trace/records';
import type { SearchField } from './search-text';

/**
 * `running`: no exit recorded and the agent process is alive; `interrupted`: no exit recorded and
 * it is gone (the app was killed, or the trace was imported); `ended`: the agent stopped normally
 * (asked to, or exit code 0); `crashed`: it died on its own; `failed`: the agent or the session
 * could not be started.
 */
export type SessionStatus = 'running' | 'interrupted' | 'ended' | 'crashed' | 'failed';
export const SESSION_STATUSES: readonly SessionStatus[] = ['running', 'interrupted', 'ended', 'crashed', 'failed'];

export interface UsageTotals {
  /** Sums over turns of the numeric fields of the prompt answers' `usage` (inputTokens, outputTokens...). */
  tokens: Record<string, number>;
  /** The last `usage_update`: context window used / size, and the session's cost so far. */
  contextUsed?: number;
  contextSize?: number;
  cost?: { amount: number; currency: string };
}

/** Where a session's records are: a trace file and the byte range from its first to its last record. */
export interface TraceLocation {
  /** Absolute path of the trace file. */
  path: string;
  connectionId: string;
  /** Byte offset of the session's first record and of the start of its last one. */
  firstOffset: number;
  lastOffset: number;
  firstLine: number;
  lastLine: number;
}

export interface HistoryEntry {
  /** The workbench session id (the key everywhere). */
  id: string;
  agentSessionId?: string;
  agent: {
    /** Catalog id, when launched from the catalog. */
    id?: string;
    /** What the UI shows: the catalog name, else the agent's own title, else the command. */
    label: string;
    /** The agent's own `agentInfo.name` / `version` from `initialize`. */
    name?: string;
    version?: string;
  };
  cwd?: string;
  /** What to show: the user's title, else the agent's, else the start of the first prompt. */
  title: string;
  userTitle?: string;
  agentTitle?: string;
  firstPrompt?: string;
  tags: string[];
  createdAt: string;
  createdMs: number;
  updatedAt: string;
  updatedMs: number;
  turns: number;
  /** How many turns ended with each stop reason. */
  stopReasons: Record<string, number>;
  /** The last turn's stop reason; null when it ended with an error; absent before any turn ended. */
  lastStopReason?: string | null;
  /** Turns that ended with an error answer. */
  turnErrors: number;
  status: SessionStatus;
  usage: UsageTotals;
  toolCalls: number;
  permissionRequests: number;
  /** Files the agent wrote (through the client) or changed with a completed edit. */
  filesChanged: string[];
  opened?: SessionAction;
  lineage?: Lineage;
  /** The trace holding the session (the first one when it spans several connections). */
  trace: TraceLocation;
  /** Every trace the session has records in, oldest first (more than one after a resume onto the same id). */
  traces: TraceLocation[];
  /** Bad lines in its traces (shared lines count for every session of the trace). */
  corruptLines: number;
  /** A trace ends in a line without its newline (a crash mid-write). */
  torn: boolean;
  /** Came from `importTrace`, not recorded here. */
  imported: boolean;
}

export interface HistoryFilter {
  /** Catalog id, label or agent name (case-insensitive, exact). */
  agent?: string;
  /** Sessions whose cwd is this folder or inside it. */
  cwd?: string;
  /** Updated at or after (ms since epoch). */
  since?: number;
  /** Created before (ms since epoch). */
  until?: number;
  status?: SessionStatus | SessionStatus[];
  hasChanges?: boolean;
  tag?: string;
}

export interface ListOptions extends HistoryFilter {
  /** Newest first (default) or oldest first. */
  order?: 'newest' | 'oldest';
  offset?: number;
  limit?: number;
}

export interface Snippet {
  field: SearchField | 'title';
  text: string;
  /** [start, end) ranges of `text` to highlight. */
  highlights: Array<[number, number]>;
}

export interface SearchHit {
  entry: HistoryEntry;
  score: number;
  /** Where the words were found. */
  fields: Array<SearchField | 'title'>;
  snippets: Snippet[];
}

export interface SearchOptions extends HistoryFilter {
  /** Hits to return (with snippets), best first. Default 20. */
  limit?: number;
  offset?: number;
  /** Snippets per hit (default 2; 0 = none). */
  snippets?: number;
}

export interface SearchResult {
  query: string;
  /** The words searched for (a trailing `*` makes the last one a prefix). */
  terms: string[];
  /** Sessions matching, before `limit`. */
  total: number;
  hits: SearchHit[];
}

/** What a refresh found and did. */
export interface RefreshReport {
  /** Traces read (new or grown) this time. */
  tracesRead: number;
  bytesRead: number;
  tracesRemoved: number;
  /** The index was missing, stale or corrupt and was rebuilt from the traces. */
  rebuilt?: string;
  /** The index was written by an older version and converted (nothing was read again). */
  converted?: string;
  /** The index could not be written (another process held the lock too long): caught up in memory only. */
  notPersisted?: string;
}
