/**
 * The registry of compare runs: `<data>/runs/<runId>/run.json` (plus each agent's patch beside
 * it) and the workspaces under `<data>/workspaces/<runId>/<index>-<label-slug>/` (docs/data.md).
 * run.json is replaced atomically; updates of one run are serialized within the process.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunRecord } from './run-types';

export type RunErrorCode = 'not_found' | 'invalid' | 'state' | 'conflict' | 'workspace';

/** A refused or failed run operation, with words for the user. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly code: RunErrorCode,
  ) {
    super(message);
    this.name = 'RunError';
  }
}

/** Lower-case words of a label for a folder name: `Claude Code#2` → `claude-code-2`. */
export function slug(label: string): string {
  const s = label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s || 'agent';
}

export class RunStore {
  readonly runsDir: string;
  readonly workspacesDir: string;
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(readonly dataDir: string) {
    this.runsDir = join(dataDir, 'runs');
    this.workspacesDir = join(dataDir, 'workspaces');
  }

  runDir(runId: string): string {
    return join(this.runsDir, runId);
  }

  runFile(runId: string): string {
    return join(this.runDir(runId), 'run.json');
  }

  /** The folder holding every workspace of a run. */
  runWorkspaces(runId: string): string {
    return join(this.workspacesDir, runId);
  }

  agentWorkspace(runId: string, index: number, label: string): string {
    return join(this.runWorkspaces(runId), `${index}-${slug(label)}`);
  }

  patchFile(runId: string, index: number): string {
    return join(this.runDir(runId), 'patches', `${index}.patch`);
  }

  async read(runId: string): Promise<RunRecord> {
    let text: string;
    try {
      text = await readFile(this.runFile(runId), 'utf8');
    } catch {
      throw new RunError(`no compare run ${runId} in ${this.runsDir}`, 'not_found');
    }
    return JSON.parse(text) as RunRecord;
  }

  async write(record: RunRecord): Promise<void> {
    await mkdir(this.runDir(record.id), { recursive: true });
    record.updatedAt = new Date().toISOString();
    const file = this.runFile(record.id);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(record, null, 2)}\n`);
    await rename(tmp, file);
  }

  /** Read, change and write a run, one change at a time per run. */
  update(runId: string, change: (record: RunRecord) => void | Promise<void>): Promise<RunRecord> {
    const previous = this.chains.get(runId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const record = await this.read(runId);
        await change(record);
        await this.write(record);
        return record;
      });
    this.chains.set(runId, next);
    void next.finally(() => {
      if (this.chains.get(runId) === next) this.chains.delete(runId);
    }).catch(() => undefined);
    return next;
  }

  /** Every run, newest first (ids sort by creation time). Unreadable entries are skipped. */
  async list(): Promise<RunRecord[]> {
    let names: string[];
    try {
      names = await readdir(this.runsDir);
    } catch {
      return [];
    }
    const out: RunRecord[] = [];
    for (const name of names.sort().reverse()) {
      try {
        out.push(await this.read(name));
      } catch {
        // a run being created, or a damaged folder: not a run to show
      }
    }
    return out;
  }

  /** Runs neither discarded nor promoted whose workspaces are still on disk. */
  async leftovers(): Promise<RunRecord[]> {
    return (await this.list()).filter((r) => r.status !== 'discarded' && r.status !== 'promoted' && this.hasWorkspaces(r));
  }

  hasWorkspaces(record: RunRecord): boolean {
    return existsSync(this.runWorkspaces(record.id)) || record.agents.some((a) => existsSync(a.workspace));
  }

  /** A run id from a full id or an unambiguous prefix of one. */
  async resolveId(idOrPrefix: string): Promise<string> {
    if (existsSync(this.runFile(idOrPrefix))) return idOrPrefix;
    let names: string[] = [];
    try {
      names = await readdir(this.runsDir);
    } catch {
      // no runs yet
    }
    const wanted = idOrPrefix.toUpperCase();
    const matches = names.filter((n) => n.startsWith(wanted) && existsSync(this.runFile(n)));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) throw new RunError(`"${idOrPrefix}" matches several runs: ${matches.join(', ')}`, 'invalid');
    throw new RunError(`no compare run ${idOrPrefix} in ${this.runsDir}`, 'not_found');
  }
}
