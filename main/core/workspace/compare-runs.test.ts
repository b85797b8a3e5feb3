/**
 * Compare runs end to end with real fixture agents (subprocesses speaking ACP) that write
 * different files through fs/write_text_file, in a real git repository and in a plain folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTraceFile } from '../history/trace-reader';
import { CompareRuns } from './compare-runs';
import { agentFigures } from './figures';
import { fixtureArgs, git, makeUserRepo, repoFingerprint, tempBase, treeFiles, write, writerScenario } from './testing/git-repo';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function world() {
  const t = tempBase('acpwb-cmp-');
  cleanups.push(t.cleanup);
  const runs = new CompareRuns({ dataDir: join(t.base, 'data') });
  cleanups.push(() => runs.dispose());
  return { base: t.base, project: join(t.base, 'project'), runs };
}

const agent = (label: string, scenario: object) => ({ label, agentId: 'fixture', command: process.execPath, args: fixtureArgs(scenario) });

const scenarioA = {
  defaultPrompt: {
    steps: [
      { toolCall: { toolCallId: 'r1', title: 'Read shared.txt', kind: 'read' } },
      { toolCallUpdate: { toolCallId: 'r1', status: 'completed' } },
      { toolCall: { toolCallId: 'e1', title: 'Edit files', kind: 'edit' } },
      { permission: { toolCall: { toolCallId: 'e1' } } },
      { writeFile: { path: 'a.txt', content: 'from A\n' } },
      { writeFile: { path: 'shared.txt', content: 'line 1\nline 2 by A\nline 3\n' } },
      { toolCallUpdate: { toolCallId: 'e1', status: 'completed' } },
      { text: 'A is done' },
    ],
  },
};
const scenarioB = writerScenario({ 'b.txt': 'from B\n', 'shared.txt': 'line 1\nline 2 by B\nline 3\n' }, 'B is done');

describe('CompareRuns with fixture agents', () => {
  it('runs agents in their own worktrees, compares them, promotes one, and leaves the repository alone until then', async () => {
    const { project, runs } = world();
    makeUserRepo(project);
    const before = repoFingerprint(project);
    const created = await runs.createRun({
      cwd: project,
      agents: [agent('fixture', scenarioA), agent('fixture', scenarioB)],
      prompt: [{ type: 'text', text: 'change things' }],
      policy: 'all',
      verifyCommand: 'cat shared.txt',
    });
    expect(created.agents.map((a) => a.label)).toEqual(['fixture', 'fixture#2']);
    const run = await runs.settled(created.id);
    expect(run.status).toBe('ready');
    expect(run.agents.map((a) => [a.status, a.error])).toEqual([
      ['done', null],
      ['done', null],
    ]);
    // Each agent wrote only in its own workspace.
    const [a, b] = run.agents;
    expect(readFileSync(join(a!.workspace, 'a.txt'), 'utf8')).toBe('from A\n');
    expect(existsSync(join(a!.workspace, 'b.txt'))).toBe(false);
    expect(readFileSync(join(b!.workspace, 'b.txt'), 'utf8')).toBe('from B\n');
    expect(existsSync(join(b!.workspace, 'a.txt'))).toBe(false);
    expect(repoFingerprint(project)).toEqual(before);

    const c = await runs.comparison(run.id);
    expect(c.agents[0]).toMatchObject({
      stopReason: 'end_turn',
      turns: 1,
      toolCalls: 2,
      toolCallsByKind: { read: 1, edit: 1 },
      permissionRequests: 1,
      filesChanged: [expect.objectContaining({ path: 'a.txt', status: 'A', added: 1, removed: 0 }), expect.objectContaining({ path: 'shared.txt', status: 'M', added: 1, removed: 1 })],
      verify: expect.objectContaining({ exitCode: 0, output: 'line 1\nline 2 by A\nline 3\n' }),
    });
    expect(c.agents[0]!.durationMs).toEqual(expect.any(Number));
    expect(c.agents[0]!.firstUpdateMs).toEqual(expect.any(Number));
    expect(c.agents[0]!.permissionWaitMs).toEqual(expect.any(Number));
    // The agent's own time: its turns less the wait for the permission answer.
    expect(c.agents[0]!.workingMs).toBe(c.agents[0]!.durationMs! - c.agents[0]!.permissionWaitMs);
    expect(c.agents[1]).toMatchObject({ stopReason: 'end_turn', toolCallsByKind: { edit: 1 }, permissionRequests: 0 });
    expect(c.divergentFiles.map((d) => d.path)).toEqual(['shared.txt']);
    // The figures are the same when rebuilt from the trace (reopening a run).
    const trace = await readTraceFile(a!.trace!);
    expect(agentFigures(trace.records, a!.sessionId!)).toEqual(a!.figures);
    expect(trace.header?.lineage).toEqual({ runId: run.id });
    const md = await runs.markdown(run.id);
    expect(md).toContain('+line 2 by B');
    expect(md).toContain('| 0 | fixture | end_turn |');
    expect(md).toContain('| duration | working | waiting for permission |');
    expect(c.agents[0]!.lastAnswer).toEqual(expect.any(String));
    expect(md).toContain(`Last answer:\n\n\`\`\`text\n${c.agents[0]!.lastAnswer}\n\`\`\``);
    const shown = (v: number) => (v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`);
    expect(md).toContain(`| ${shown(c.agents[0]!.durationMs!)} | ${shown(c.agents[0]!.workingMs!)} | ${shown(c.agents[0]!.permissionWaitMs)} |`);

    // A follow-up to agent 1 only.
    const followed = await runs.followUp(run.id, [{ type: 'text', text: 'again' }], [1]);
    expect(followed.prompts).toHaveLength(2);
    expect(followed.agents[1]!.figures!.turns).toBe(2);
    expect(followed.agents[0]!.figures!.turns).toBe(1);

    const promoted = await runs.promote(run.id, 1);
    expect(promoted.paths).toEqual(['b.txt', 'shared.txt']);
    const after = repoFingerprint(project);
    expect(after.files).toEqual({ ...before.files, 'b.txt': 'from B\n', 'shared.txt': 'line 1\nline 2 by B\nline 3\n' });
    expect([after.head, after.branch, after.refs, after.stash, after.staged]).toEqual([before.head, before.branch, before.refs, before.stash, before.staged]);

    await runs.discard(run.id);
    expect(existsSync(a!.workspace) || existsSync(b!.workspace)).toBe(false);
    expect(git(project, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(runs.session(run.id, 0)).toBeUndefined();
  }, 60_000);

  it('works on a folder that is not in git, and offers the workspaces of an unfinished run as leftovers', async () => {
    const { base, project, runs } = world();
    write(project, 'shared.txt', 'line 1\nline 2\nline 3\n');
    const created = await runs.createRun({
      cwd: project,
      agents: [agent('one', scenarioB), agent('two', writerScenario({ 'c.txt': 'from C\n' }))],
      prompt: [{ type: 'text', text: 'go' }],
      policy: 'none',
    });
    const run = await runs.settled(created.id);
    expect(run.source.isolation).toBe('copy');
    expect(run.agents.map((a) => a.files.map((f) => f.path))).toEqual([['b.txt', 'shared.txt'], ['c.txt']]);
    expect(treeFiles(project)).toEqual({ 'shared.txt': 'line 1\nline 2\nline 3\n' });
    // Another process (a restart) sees the run as a leftover.
    const later = new CompareRuns({ dataDir: join(base, 'data') });
    expect((await later.leftovers()).map((r) => r.id)).toEqual([run.id]);
    expect(await runs.leftovers()).toEqual([]); // live here
    expect((await later.promote(run.id, 1)).paths).toEqual(['c.txt']);
    expect(treeFiles(project)).toEqual({ 'c.txt': 'from C\n', 'shared.txt': 'line 1\nline 2\nline 3\n' });
    await runs.discard(run.id);
    expect(await later.leftovers()).toEqual([]);
    expect((await later.list()).map((r) => [r.id, r.status])).toEqual([[run.id, 'discarded']]);
  }, 60_000);

  it('records an agent that cannot be started as failed, and still runs the others', async () => {
    const { project, runs } = world();
    makeUserRepo(project);
    const created = await runs.createRun({
      cwd: project,
      agents: [agent('good', scenarioB), { label: 'missing', agentId: 'missing', command: '/nonexistent/agent' }],
      prompt: [{ type: 'text', text: 'go' }],
      policy: 'all',
    });
    const run = await runs.settled(created.id);
    expect(run.agents[0]!.status).toBe('done');
    expect(run.agents[1]!.status).toBe('failed');
    expect(run.agents[1]!.error).toContain('/nonexistent/agent');
    await runs.discard(run.id);
  }, 60_000);
});
