/** What the `sessions` subcommands share: opening the store, filters, dates, tables, errors. */
import { resolve } from 'node:path';
import { HistoryError, HistoryStore } from '../../core/history/history-store';
import { SESSION_STATUSES, type HistoryEntry, type HistoryFilter, type SessionStatus } from '../../core/history/history-types';
import type { HistoryIndexProgress } from '../../../common/api/history-types';
import { describeIndexProgress } from '../../../common/text/index-progress-text';
import type { CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';

/**
 * Opens history, catching up with the traces; notes a rebuild, a conversion or an unwritten index
 * on stderr. A long catch-up (a rebuild, a big first look) draws its progress on stderr when stderr
 * is a terminal (one line, redrawn, cleared at the end); pipes and logs get none of it.
 */
export async function openStore(dataDir: string, io: CliIo, command: string): Promise<HistoryStore> {
  const store = await HistoryStore.open(dataDir, io.stderrIsTerminal ? { onProgress: progressLine(io) } : {});
  const r = store.lastRefresh;
  if (r.rebuilt && r.rebuilt !== 'the index is missing') io.stderr(`acp-workbench sessions ${command}: rebuilt the history index (${r.rebuilt})\n`);
  if (r.converted) io.stderr(`acp-workbench sessions ${command}: updated the history index (${r.converted})\n`);
  if (r.notPersisted) io.stderr(`acp-workbench sessions ${command}: note: ${r.notPersisted}; this answer is current, the saved index will catch up\n`);
  return store;
}

/** Draws index progress on one terminal line; the last report clears it. */
export function progressLine(io: CliIo): (p: HistoryIndexProgress) => void {
  return (p) => io.stderr(p.done ? '\r\x1b[K' : `\r${describeIndexProgress(p)}…\x1b[K`);
}

/** Runs `body` with an open store; HistoryErrors become messages and exit code 2. */
export async function withStore(dataDir: string, io: CliIo, command: string, body: (store: HistoryStore) => Promise<ExitCode>): Promise<ExitCode> {
  const store = await openStore(dataDir, io, command);
  try {
    return await body(store);
  } catch (err) {
    if (err instanceof HistoryError) {
      io.stderr(`acp-workbench sessions ${command}: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  } finally {
    await store.close();
  }
}

export const FILTER_OPTIONS = {
  agent: { type: 'string' },
  cwd: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  tag: { type: 'string' },
  status: { type: 'string' },
  'has-changes': { type: 'boolean' },
  'no-changes': { type: 'boolean' },
  limit: { type: 'string' },
} as const;

export const FILTER_HELP = `Filters:
  --agent A          agent id, name or label (as \`sessions list\` shows it)
  --cwd DIR          sessions run in DIR or a folder inside it
  --since DATE       updated at or after DATE: 2026-05-01, 2026-05-01T14:00, or 30m, 12h, 7d, 2w ago,
                     today, yesterday
  --until DATE       created before DATE
  --tag T            tagged T
  --status S         ${SESSION_STATUSES.join(', ')} (comma-separated for several)
  --has-changes      only sessions that changed files (--no-changes: only those that did not)
  --limit N          at most N sessions`;

const RELATIVE = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w)$/i;
const UNIT_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A date from the command line: ISO date/time (local time without a zone), relative, today/yesterday. */
export function parseDate(flag: string, text: string, now = Date.now()): number {
  const t = text.trim().toLowerCase();
  const rel = RELATIVE.exec(t);
  if (rel) return now - Number(rel[1]) * UNIT_MS[rel[2]!.toLowerCase()]!;
  if (t === 'today' || t === 'yesterday') {
    const d = new Date(now);
    d.setHours(0, 0, 0, 0);
    return d.getTime() - (t === 'yesterday' ? UNIT_MS.d! : 0);
  }
  // A bare date is local midnight (Date would take it as UTC).
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const ms = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime() : Date.parse(text);
  if (!Number.isFinite(ms)) throw new UsageError(`${flag}: cannot read "${text}" as a date (try 2026-05-01, 2026-05-01T14:00, 7d or yesterday)`);
  return ms;
}

export function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--limit must be a whole number ≥ 1, got "${text}"`);
  return n;
}

type FilterValues = { [K in keyof typeof FILTER_OPTIONS]?: (typeof FILTER_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export function filterFrom(values: FilterValues, io: CliIo): HistoryFilter {
  const f: HistoryFilter = {};
  if (values.agent !== undefined) f.agent = values.agent;
  if (values.cwd !== undefined) f.cwd = resolve(io.cwd, values.cwd);
  if (values.since !== undefined) f.since = parseDate('--since', values.since);
  if (values.until !== undefined) f.until = parseDate('--until', values.until);
  if (values.tag !== undefined) f.tag = values.tag;
  if (values.status !== undefined) {
    const wanted = values.status.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = wanted.filter((s) => !SESSION_STATUSES.includes(s as SessionStatus));
    if (bad.length || wanted.length === 0) throw new UsageError(`--status: unknown status "${bad[0] ?? values.status}" (one of ${SESSION_STATUSES.join(', ')})`);
    f.status = wanted as SessionStatus[];
  }
  if (values['has-changes'] && values['no-changes']) throw new UsageError('--has-changes and --no-changes exclude each other');
  if (values['has-changes']) f.hasChanges = true;
  if (values['no-changes']) f.hasChanges = false;
  return f;
}

/** Local "YYYY-MM-DD HH:MM". */
export function shortDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The shortest prefix length (at least 10) that tells every id of history apart. */
export function idPrefixLength(store: HistoryStore): number {
  const ids = store.ids().sort();
  let len = 10;
  for (let i = 1; i < ids.length; i++) {
    const a = ids[i - 1]!;
    const b = ids[i]!;
    let k = 0;
    while (k < a.length && a[k] === b[k]) k++;
    len = Math.max(len, k + 1);
  }
  return Math.min(len, 26);
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n')}\n`;
}

const oneLine = (s: string, max: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

export function entryRow(e: HistoryEntry, idLen: number): string[] {
  const status = e.status === 'ended' ? (e.lastStopReason ?? (e.turns ? 'error' : 'ended')) : e.status;
  const changes = e.filesChanged.length ? `${e.filesChanged.length}` : '-';
  return [e.id.slice(0, idLen), shortDate(e.updatedMs), oneLine(e.agent.label, 18), String(e.turns), status, changes, oneLine(e.title, 60) + (e.tags.length ? ` [${e.tags.join(', ')}]` : '')];
}

export const ENTRY_HEADER = ['ID', 'UPDATED', 'AGENT', 'TURNS', 'STATUS', 'FILES', 'TITLE'];

/** A session as one JSON line. */
export const sessionLine = (e: HistoryEntry) => `${JSON.stringify({ type: 'session', ...e })}\n`;

/** The positionals of a subcommand that takes exactly one session ID. */
export function onlySessionId(positionals: readonly string[]): string {
  const [id, ...extra] = positionals;
  if (!id) throw new UsageError('missing session ID');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  return id;
}
