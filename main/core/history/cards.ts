/**
 * Per trace file, the index keeps a detail (everything the fold knows, as JSON text parsed only
 * when needed) and a card: the little that lists, filters and search need of each session without
 * parsing the detail — so opening the index of a 10 000-session history stays cheap.
 */
import type { SessionAction } from '../../../common/trace/records';
import type { SessionCarry } from './doc-terms';
import type { HistoryEntry } from './history-types';
import type { LineHint } from './line-hints';
import { emptyFileSummary, type TraceFileSummary } from './trace-fold';

/** What the index knows of a trace file beyond its reading position: kept as JSON text in the
 * snapshot and parsed only when needed (catching the file up, or building the entries of its
 * sessions), so loading the index of a big history stays cheap. */
export interface FileDetail extends TraceFileSummary {
  /** Search document of each session of the file. */
  docs: Record<string, number>;
  /** Streamed messages still open when the file was last read. */
  carry?: Record<string, SessionCarry>;
  /** Hints of the file's long lines for the snippets (line-hints.ts), in line order; absent: none. */
  hints?: LineHint[];
}

/** What lists, filters and search need of a session without parsing its file's detail. */
export interface SessionCard {
  id: string;
  agentSessionId?: string;
  firstT: number;
  lastT: number;
  turns: number;
  opened?: SessionAction;
  cwd?: string;
  /** Files changed. */
  files: number;
  /** The trace has user metadata or an agent title for it (the detail is needed for its title/tags). */
  meta?: true;
}

/** What lists, filters and search need of a file without parsing its detail. */
export interface FileCard {
  connectionId: string;
  startedAtMs: number;
  agent: HistoryEntry['agent'];
  launchCwd?: string;
  /** How the agent process ended: normally, on its own (crash), or it never started. */
  ended?: 'normally' | 'crashed' | 'not-started';
  pid?: number;
  sessions: SessionCard[];
}

/** The agent as history shows it: the catalog name, else the agent's own title, else the command. */
export function agentOf(d: TraceFileSummary): HistoryEntry['agent'] {
  const h = d.header?.agent;
  const info = d.agentInfo;
  // An ad-hoc command (`run --agent-cmd`) is labelled with the command's name: the agent's own
  // title says more.
  const launch = d.header?.launchCommand;
  const command = launch?.slice(Math.max(launch.lastIndexOf('/'), launch.lastIndexOf('\\')) + 1);
  const adHoc = h?.name !== undefined && h.name === command;
  const label = (adHoc ? (info?.title ?? info?.name) : undefined) ?? h?.name ?? info?.title ?? info?.name ?? h?.id ?? command ?? 'agent';
  const version = info?.version ?? h?.version;
  const out = (h?.id !== undefined ? { id: h.id, label } : { label }) as HistoryEntry['agent'];
  if (info?.name !== undefined) out.name = info.name;
  if (version !== undefined) out.version = version;
  return out;
}

export function cardOf(d: FileDetail, fileName: string): FileCard {
  const card: FileCard = {
    connectionId: d.header?.connectionId ?? fileName.replace(/\..*$/, ''),
    startedAtMs: d.header?.startedAtMs ?? 0,
    agent: agentOf(d),
    sessions: Object.values(d.sessions).map((s) => {
      const c: SessionCard = { id: s.id, firstT: s.firstT, lastT: s.lastT, turns: s.turns, files: s.filesChanged.length };
      if (s.agentSessionId !== undefined) c.agentSessionId = s.agentSessionId;
      if (s.action !== undefined) c.opened = s.action;
      if (s.cwd !== undefined) c.cwd = s.cwd;
      if (s.meta !== undefined || s.agentTitle !== undefined) c.meta = true;
      return c;
    }),
  };
  if (d.header?.launchCwd !== undefined) card.launchCwd = d.header.launchCwd;
  if (d.spawnError !== undefined) card.ended = 'not-started';
  else if (d.exit) card.ended = d.exit.expected || d.exit.code === 0 ? 'normally' : 'crashed';
  if (d.pid !== undefined) card.pid = d.pid;
  return card;
}

export function emptyDetail(): FileDetail {
  return { ...emptyFileSummary(), docs: {} };
}
