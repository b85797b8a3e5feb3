/** Where history keeps its files inside the data folder (docs/data.md has the table). */
import { join } from 'node:path';

export interface HistoryPaths {
  dataDir: string;
  /** One trace per agent connection (written by the ACP core, and by imports). */
  traces: string;
  /** Derived, rebuildable: the index snapshot and its search segments. */
  dir: string;
  index: string;
  segments: string;
  lock: string;
  /** Not derived: the user's renames, tags, deletions. */
  journal: string;
  /** Traces of deleted sessions, moved out of `traces/`. */
  trash: string;
}

export function historyPaths(dataDir: string): HistoryPaths {
  const dir = join(dataDir, 'history');
  return {
    dataDir,
    traces: join(dataDir, 'traces'),
    dir,
    index: join(dir, 'index.json'),
    segments: join(dir, 'segments'),
    lock: join(dir, 'index.lock'),
    journal: join(dir, 'meta.jsonl'),
    trash: join(dataDir, 'trash'),
  };
}

/** Imported traces are named `<connectionId>.import-<sha256 prefix>.jsonl`. */
export const IMPORTED_NAME = /\.import-[0-9a-f]{8,}\.jsonl$/;
