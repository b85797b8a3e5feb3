/**
 * Promote: apply one agent's changes — or files picked from several agents — to the user's own
 * folder. Everything is checked first; when any path does not apply, nothing is written and the
 * conflicting paths are listed. In a git repository the agents' patches go through
 * `git apply --check` then `git apply` (working tree only: the index, HEAD and branches are left
 * alone); in a plain folder each file is written only if it still has its content from the start.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { chmod, mkdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { atDir, runGit } from './git';
import { RunError, type RunStore } from './run-store';
import type { FileChangeStat, PickedFile, PromoteResult, RunAgentRecord, RunRecord } from './run-types';
import { patchBetween, readObject } from './workspace-diff';
import { runPlace } from './workspaces';

interface Pick {
  agent: RunAgentRecord;
  change: FileChangeStat;
}

/** An agent's index (all its changes) or a list of picked files. */
export type PromoteChoice = number | readonly PickedFile[];

function resolvePicks(run: RunRecord, choice: PromoteChoice): Pick[] {
  const agentAt = (i: number) => {
    const agent = run.agents[i];
    if (!agent) throw new RunError(`run ${run.id} has no agent ${i} (it has ${run.agents.length}, numbered from 0)`, 'invalid');
    if (agent.status === 'running' || agent.status === 'setup' || agent.status === 'pending') throw new RunError(`${agent.label} is still working: wait for its turn to end`, 'state');
    if (!agent.result) throw new RunError(`${agent.label}'s workspace was never captured: nothing to promote`, 'state');
    return agent;
  };
  if (typeof choice === 'number') {
    const agent = agentAt(choice);
    if (agent.files.length === 0) throw new RunError(`${agent.label} changed no files: nothing to promote`, 'invalid');
    return agent.files.map((change) => ({ agent, change }));
  }
  if (choice.length === 0) throw new RunError('pick at least one file to promote', 'invalid');
  const byPath = new Map<string, Pick>();
  for (const { agentIndex, path } of choice) {
    const agent = agentAt(agentIndex);
    const change = agent.files.find((f) => f.path === path);
    if (!change) throw new RunError(`${agent.label} did not change ${path}`, 'invalid');
    const other = byPath.get(path);
    if (other && other.agent.index !== agent.index) {
      throw new RunError(`${path} is picked from both ${other.agent.label} and ${agent.label}: pick it from one agent`, 'conflict');
    }
    byPath.set(path, { agent, change });
  }
  return [...byPath.values()];
}

export async function promote(store: RunStore, runId: string, choice: PromoteChoice): Promise<PromoteResult> {
  const run = await store.read(runId);
  if (run.status === 'discarded') throw new RunError(`run ${runId} was discarded: its workspaces are gone`, 'state');
  if (run.status === 'failed' || run.status === 'preparing') throw new RunError(`run ${runId} has no workspaces to promote from (${run.status})`, 'state');
  const picks = resolvePicks(run, choice);
  const result = run.source.isolation === 'worktree' ? await promoteGit(store, run, picks) : await promoteCopy(run, picks);
  if (result.applied) {
    const picked: PickedFile[] = picks.map((p) => ({ agentIndex: p.agent.index, path: p.change.path }));
    await store.update(runId, (r) => {
      r.status = 'promoted';
      r.promoted = { at: new Date().toISOString(), picks: picked, paths: result.paths };
    });
  }
  return result;
}

/** The picks grouped per agent, in agent order. */
function perAgent(picks: readonly Pick[]): Array<{ agent: RunAgentRecord; paths: string[] }> {
  const groups = new Map<number, { agent: RunAgentRecord; paths: string[] }>();
  for (const p of picks) {
    let g = groups.get(p.agent.index);
    if (!g) groups.set(p.agent.index, (g = { agent: p.agent, paths: [] }));
    g.paths.push(p.change.path);
  }
  return [...groups.values()].sort((a, b) => a.agent.index - b.agent.index);
}

async function promoteGit(store: RunStore, run: RunRecord, picks: readonly Pick[]): Promise<PromoteResult> {
  const objects = runPlace(run);
  const user = atDir(run.source.root);
  const paths = picks.map((p) => p.change.path).sort();
  const groups = perAgent(picks);
  const whole = groups.every((g) => g.paths.length === g.agent.files.length);
  const patches = await Promise.all(groups.map((g) => patchBetween(objects, g.agent.base, g.agent.result!, whole ? undefined : g.paths)));
  const dir = join(store.runDir(run.id), 'promote');
  await mkdir(dir, { recursive: true });
  const patchFile = join(dir, `${Date.now()}.patch`);
  await writeFile(patchFile, Buffer.concat(patches));
  try {
    const check = await runGit(user, ['apply', '--check', patchFile], { allowCodes: [1, 128] });
    if (check.code !== 0) return { applied: false, paths: [], conflicts: await gitConflicts(store, run, picks, check.stderr) };
    await runGit(user, ['apply', patchFile]);
    return { applied: true, paths, conflicts: [] };
  } finally {
    await rm(patchFile, { force: true });
  }
}

/** Which paths do not apply, each checked on its own, with git's reason. */
async function gitConflicts(store: RunStore, run: RunRecord, picks: readonly Pick[], combined: string): Promise<PromoteResult['conflicts']> {
  const objects = runPlace(run);
  const user = atDir(run.source.root);
  const conflicts: PromoteResult['conflicts'] = [];
  const file = join(store.runDir(run.id), 'promote', `${Date.now()}-one.patch`);
  try {
    for (const p of picks) {
      await writeFile(file, await patchBetween(objects, p.agent.base, p.agent.result!, [p.change.path]));
      const check = await runGit(user, ['apply', '--check', file], { allowCodes: [1, 128] });
      if (check.code === 0) continue;
      const reason = check.stderr
        .split('\n')
        .map((l) => l.replace(/^error:\s*/, '').trim())
        .filter((l) => l && !l.startsWith('patch failed'))
        .join('; ');
      conflicts.push({ path: p.change.path, reason: reason || 'does not apply' });
    }
  } finally {
    await rm(file, { force: true });
  }
  if (conflicts.length === 0) conflicts.push({ path: '*', reason: combined.trim() || 'the changes do not apply together' });
  return conflicts.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Git's object id of a blob with this content (SHA-1, or SHA-256 for 64-digit ids). */
export function blobId(content: Buffer, like: string): string {
  const algorithm = like.length === 64 ? 'sha256' : 'sha1';
  return createHash(algorithm).update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** What is at `path` in the user's folder now, as git would store it; null when nothing is there. */
function currentContent(path: string): Buffer | null {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return Buffer.from(readlinkSync(path));
    if (st.isFile()) return readFileSync(path);
    return Buffer.from('\0not a file\0');
  } catch {
    return null;
  }
}

async function promoteCopy(run: RunRecord, picks: readonly Pick[]): Promise<PromoteResult> {
  if (!run.gitDir) throw new RunError(`run ${run.id} has no stored copy base`, 'state');
  const objects = runPlace(run);
  const conflicts: PromoteResult['conflicts'] = [];
  const before = new Map<string, Buffer | null>();
  for (const { change } of picks) {
    const target = join(run.source.root, ...change.path.split('/'));
    const now = currentContent(target);
    before.set(change.path, now);
    if (change.oldId === null) {
      if (now !== null) conflicts.push({ path: change.path, reason: 'already exists in your folder' });
    } else if (now === null) {
      conflicts.push({ path: change.path, reason: 'was deleted from your folder since the run started' });
    } else if (blobId(now, change.oldId) !== change.oldId) {
      conflicts.push({ path: change.path, reason: 'was changed in your folder since the run started' });
    }
  }
  if (conflicts.length) return { applied: false, paths: [], conflicts: conflicts.sort((a, b) => (a.path < b.path ? -1 : 1)) };

  // Read every new content before writing anything.
  const contents = new Map<string, Buffer>();
  for (const { change } of picks) if (change.newId) contents.set(change.path, await readObject(objects, change.newId));
  const written: string[] = [];
  try {
    for (const { change } of picks) {
      const target = join(run.source.root, ...change.path.split('/'));
      if (change.status === 'D' || change.newId === null) {
        await unlink(target);
      } else {
        await writeEntry(target, contents.get(change.path)!, change.newMode);
      }
      written.push(change.path);
    }
  } catch (err) {
    // Put back what was already written, so a failure half-way leaves the folder as it was.
    for (const path of written) {
      const target = join(run.source.root, ...path.split('/'));
      const old = before.get(path) ?? null;
      const change = picks.find((p) => p.change.path === path)!.change;
      await (old === null ? rm(target, { force: true }) : writeEntry(target, old, change.newMode === '120000' ? '120000' : '100644')).catch(() => undefined);
    }
    throw new RunError(`promote failed and was undone: ${err instanceof Error ? err.message : String(err)}`, 'workspace');
  }
  return { applied: true, paths: picks.map((p) => p.change.path).sort(), conflicts: [] };
}

async function writeEntry(target: string, content: Buffer, mode: string | null): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  if (mode === '120000') {
    await rm(target, { force: true });
    await symlink(content.toString('utf8'), target);
    return;
  }
  const tmp = `${target}.acpwb-${process.pid}.tmp`;
  await writeFile(tmp, content);
  if (mode === '100755') await chmod(tmp, 0o755);
  await rename(tmp, target);
}
