/**
 * Sessions the workbench was running when it stopped without closing them (a crash, a killed
 * process, a machine that went down): their traces end without an exit, so history calls them
 * `interrupted`. A window offers the recent ones back at start-up (resume them, look at them, or
 * dismiss the offer); dismissals are kept in `<data>/history/dismissed-interrupted.json` so that
 * every window and every later start agrees, whatever origin a browser gives the web host.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HistorySessionView } from '../../../common/api/history-types';

/** Sessions interrupted longer ago than this are History's business, not the start-up's. */
export const OFFER_WINDOW_MS = 7 * 24 * 3600_000;
/** Dismissals kept (the oldest go first): far more than a week of crashes. */
const MAX_DISMISSED = 500;

export function dismissedPath(historyDir: string): string {
  return join(historyDir, 'dismissed-interrupted.json');
}

/**
 * The interrupted sessions of `recent` worth offering: recorded by the workbench (not listed by an
 * agent), updated within the window, not dismissed, and not continued since (no session of
 * `recent` resumed from them).
 */
export function sessionsToOffer(recent: readonly HistorySessionView[], dismissed: ReadonlySet<string>, now: number): HistorySessionView[] {
  const continued = new Set(recent.filter((s) => s.lineage?.relation === 'resume' && s.lineage.parentSessionId).map((s) => s.lineage!.parentSessionId!));
  return recent.filter((s) => s.status === 'interrupted' && s.origin === 'workbench' && now - s.updatedMs <= OFFER_WINDOW_MS && !dismissed.has(s.id) && !continued.has(s.id));
}

/** The dismissed session ids; none when the file is missing or unreadable (an offer too many, never an error). */
export async function readDismissed(path: string): Promise<Set<string>> {
  try {
    const list = JSON.parse(await readFile(path, 'utf8')) as unknown;
    return new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Adds `ids` to the dismissed ones (written whole under a new name, then renamed: never torn). */
export async function dismiss(path: string, ids: readonly string[]): Promise<void> {
  const all = [...new Set([...(await readDismissed(path)), ...ids])].slice(-MAX_DISMISSED);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(all));
  await rename(tmp, path);
}
