/**
 * What the comparison view shows, computed from the comparison (pure): formatted figures, the
 * matrix of files × agents with the paths several agents changed differently, file picks for a
 * promote, and the texts of exports.
 */
import type { ComparedAgentView, ComparisonView, FileChangeStatView, PickedFileView } from '../../common/api/compare-types';
import { formatCost } from '../../common/text/cost';

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m} min ${s} s`;
}

/** "read 1, edit 2" (kinds by count, then name). */
export function kindsText(byKind: Record<string, number>): string {
  return Object.entries(byKind)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

/** Tokens and cost as the agent reported them, or null when it did not. */
export function usageText(usage: Record<string, unknown> | null): string | null {
  if (!usage) return null;
  const parts: string[] = [];
  const tokens = usage.totalTokens ?? usage.used;
  if (typeof tokens === 'number') parts.push(`${tokens.toLocaleString('en-US')} tokens`);
  const cost = usage.cost as { amount?: unknown; currency?: unknown } | null | undefined;
  if (cost && typeof cost.amount === 'number') parts.push(formatCost(cost.amount, typeof cost.currency === 'string' ? cost.currency : undefined));
  return parts.length ? parts.join(' · ') : null;
}

export function verifyText(a: ComparedAgentView): { text: string; state: 'none' | 'passed' | 'failed' } {
  const r = a.verify;
  if (!r) return { text: '—', state: 'none' };
  if (r.error) return { text: `not started: ${r.error}`, state: 'failed' };
  if (r.timedOut) return { text: 'timed out', state: 'failed' };
  if (r.exitCode === 0) return { text: 'passed (exit 0)', state: 'passed' };
  return { text: `failed (exit ${r.exitCode ?? r.signal})`, state: 'failed' };
}

export function statText(f: Pick<FileChangeStatView, 'binary' | 'added' | 'removed'>): string {
  return f.binary ? 'binary' : `+${f.added ?? 0} −${f.removed ?? 0}`;
}

export interface FileRow {
  path: string;
  /** Per agent (by position in `comparison.agents`): its change of this path, or null. */
  cells: Array<FileChangeStatView | null>;
  /** Several agents changed it, to different results. */
  divergent: boolean;
  /** Several agents changed it (the same way or not). */
  shared: boolean;
}

/** Every path any agent changed, sorted, with each agent's change of it. */
export function fileRows(c: Pick<ComparisonView, 'agents' | 'divergentFiles'>): FileRow[] {
  const paths = new Set<string>();
  for (const a of c.agents) for (const f of a.filesChanged) paths.add(f.path);
  const divergent = new Set(c.divergentFiles.map((d) => d.path));
  return [...paths]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((path) => {
      const cells = c.agents.map((a) => a.filesChanged.find((f) => f.path === path) ?? null);
      return { path, cells, divergent: divergent.has(path), shared: cells.filter(Boolean).length > 1 };
    });
}

/** Picks: path → agent index. Choosing the agent already chosen for a path unpicks it. */
export function togglePick(picks: Readonly<Record<string, number>>, path: string, agentIndex: number): Record<string, number> {
  const next = { ...picks };
  if (next[path] === agentIndex) delete next[path];
  else next[path] = agentIndex;
  return next;
}

export function pickedFiles(picks: Readonly<Record<string, number>>): PickedFileView[] {
  return Object.entries(picks)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([path, agentIndex]) => ({ agentIndex, path }));
}

/** The first path worth looking at: one changed differently, else the first changed. */
export function defaultDiffPath(rows: readonly FileRow[]): string | null {
  return (rows.find((r) => r.divergent) ?? rows.find((r) => r.shared) ?? rows[0])?.path ?? null;
}
