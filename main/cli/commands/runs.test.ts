/**
 * `acp-workbench run --isolate` and `acp-workbench runs` as a user runs them: the built CLI as a
 * subprocess, two fixture agents writing different files, a real git repository and a plain folder.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_AGENT } from '../../core/acp/test-support/fixture-world';
import { git, makeUserRepo, repoFingerprint, tempBase, treeFiles, write, writerScenario } from '../../core/workspace/testing/git-repo';
import type { CliIo } from '../command';
import { runBuiltCli } from '../test-support/run-cli';
import { runCommand } from './run';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function world() {
  const t = tempBase('acpwb-runs-');
  cleanups.push(t.cleanup);
  const agentCmd = (name: string, scenario: object) => {
    const file = join(t.base, `${name}.json`);
    writeFileSync(file, JSON.stringify(scenario));
    return `"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${file}" --max-lifetime-ms 120000`;
  };
  const data = join(t.base, 'data');
  const cli = (args: string[]) => runBuiltCli([...args, '--data-dir', data], { timeoutMs: 60_000 });
  return { base: t.base, project: join(t.base, 'project'), data, agentCmd, cli };
}

const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json);

const A = writerScenario({ 'a.txt': 'from A\n', 'shared.txt': 'line 1\nline 2 by A\nline 3\n' });
const B = writerScenario({ 'b.txt': 'from B\n', 'shared.txt': 'line 1\nline 2 by B\nline 3\n' });

describe('acp-workbench run --isolate and runs', () => {
  it('compares two agents in worktrees, then shows, promotes and discards the run', async () => {
    const { project, data, agentCmd, cli } = world();
    makeUserRepo(project);
    const before = repoFingerprint(project);
    const r = await cli([
      'run', '--isolate', '--json', '--approve', 'all', '--prompt', 'change things', '--cwd', project,
      '--agent-cmd', agentCmd('a', A), '--agent-cmd', agentCmd('b', B),
      '--setup-cmd', 'echo ready', '--verify-cmd', 'grep -c "by" shared.txt',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const events = lines(r.stdout);
    const run = events[0]!;
    expect(run).toMatchObject({ type: 'run', isolation: 'worktree', root: project, branch: 'main', warnings: [] });
    const runId: string = run.runId;
    expect(run.workspaces).toBe(join(data, 'workspaces', runId));
    expect(events.filter((e) => e.type === 'workspace').map((e) => [e.agent.label, e.path])).toEqual([
      ['node', join(data, 'workspaces', runId, '0-node')],
      ['node#2', join(data, 'workspaces', runId, '1-node-2')],
    ]);
    expect(events.filter((e) => e.type === 'setup').map((e) => [e.exitCode, e.output])).toEqual([
      [0, 'ready\n'],
      [0, 'ready\n'],
    ]);
    // Every agent's setup comes before its start.
    for (const i of [0, 1]) {
      const at = (type: string) => events.findIndex((e) => e.type === type && e.agent?.index === i);
      expect(at('workspace')).toBeLessThan(at('setup'));
      expect(at('setup')).toBeLessThan(at('starting'));
    }
    const summaries = events.filter((e) => e.type === 'summary');
    expect(summaries.map((s) => [s.stopReason, s.relPaths])).toEqual([
      ['end_turn', ['a.txt', 'shared.txt']],
      ['end_turn', ['b.txt', 'shared.txt']],
    ]);
    expect(summaries[0]!.filesChanged).toEqual([join(data, 'workspaces', runId, '0-node', 'a.txt'), join(data, 'workspaces', runId, '0-node', 'shared.txt')]);
    const comparison = events.at(-1)!;
    expect(comparison).toMatchObject({ type: 'comparison', runId, status: 'ready', divergentFiles: [{ path: 'shared.txt' }] });
    expect(comparison.agents.map((a: Json) => [a.label, a.stopReason, a.filesChanged.map((f: Json) => `${f.status} ${f.path} +${f.added} -${f.removed}`), a.verify.exitCode, a.verify.output])).toEqual([
      ['node', 'end_turn', ['A a.txt +1 -0', 'M shared.txt +1 -1'], 0, '1\n'],
      ['node#2', 'end_turn', ['A b.txt +1 -0', 'M shared.txt +1 -1'], 0, '1\n'],
    ]);
    expect(comparison.agents[0].toolCallsByKind).toEqual({ edit: 1 });
    // The user's repository is untouched.
    expect(repoFingerprint(project)).toEqual(before);

    const listed = await cli(['runs', 'list', '--json']);
    expect(lines(listed.stdout)).toEqual([expect.objectContaining({ type: 'run', runId, status: 'ready', workspaces: true, prompt: 'change things' })]);
    const human = await cli(['runs']);
    expect(human.stdout).toMatch(new RegExp(`^${runId} .* ready +yes +0:node 1:node#2 +${project}$`, 'm'));

    const shown = await cli(['runs', 'show', runId.slice(0, 20), '--json']);
    expect(shown.code).toBe(0);
    const full = lines(shown.stdout)[0]!;
    expect(full.agents[1].patch).toContain('+line 2 by B');
    const markdown = await cli(['runs', 'show', runId]);
    expect(markdown.stdout).toContain(`# Compare run ${runId}`);
    expect(markdown.stdout).toContain('```diff');

    // Promote b.txt only; then agent 0's shared.txt conflicts with a change the user made.
    const picked = await cli(['runs', 'promote', runId, '1', '--files', 'b.txt', '--json']);
    expect(picked.code).toBe(0);
    expect(lines(picked.stdout)).toEqual([{ type: 'promoted', runId, agent: { index: 1, label: 'node#2' }, paths: ['b.txt'] }]);
    write(project, 'shared.txt', 'line 1\nline 2 by the user\nline 3\n');
    const refused = await cli(['runs', 'promote', runId, '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('nothing was written');
    expect(refused.stderr).toMatch(/^ {2}shared\.txt: /m);
    expect(existsSync(join(project, 'a.txt'))).toBe(false);
    expect(repoFingerprint(project).files).toEqual({ ...before.files, 'b.txt': 'from B\n', 'shared.txt': 'line 1\nline 2 by the user\nline 3\n' });

    const discarded = await cli(['runs', 'discard', runId]);
    expect(discarded.code).toBe(0);
    expect(existsSync(join(data, 'workspaces', runId))).toBe(false);
    expect(git(project, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect((await cli(['runs', 'list', '--leftovers', '--json'])).stdout).toBe('');
    const after = repoFingerprint(project);
    expect([after.head, after.branch, after.refs, after.stash, after.staged]).toEqual([before.head, before.branch, before.refs, before.stash, before.staged]);
  }, 90_000);

  it('copies a folder that is not in git, prints a readable comparison, and promotes one agent', async () => {
    const { project, agentCmd, cli } = world();
    write(project, 'shared.txt', 'line 1\nline 2\nline 3\n');
    const r = await cli(['run', '--isolate', '--prompt', 'go', '--cwd', project, '--agent-cmd', agentCmd('a', A), '--agent-cmd', agentCmd('b', B)]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^\[run\] \w+: copies of /m);
    expect(r.stdout).toMatch(/^== comparison of run \w+$/m);
    expect(r.stdout).toContain('0 node: stop end_turn');
    expect(r.stdout).toContain('    A a.txt +1 −0');
    expect(r.stdout).toContain('changed differently: shared.txt (node, node#2)');
    const runId = /comparison of run (\w+)/.exec(r.stdout)![1]!;
    expect(treeFiles(project)).toEqual({ 'shared.txt': 'line 1\nline 2\nline 3\n' });
    const promoted = await cli(['runs', 'promote', runId, '0']);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('promoted 2 files from node');
    expect(readFileSync(join(project, 'shared.txt'), 'utf8')).toBe('line 1\nline 2 by A\nline 3\n');
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('from A\n');
    expect((await cli(['runs', 'discard', runId])).code).toBe(0);
  }, 90_000);

  it('on a terminal, draws how far the copies are on one stderr line and clears it before the agents run', async () => {
    const { project, data, agentCmd } = world();
    write(project, 'shared.txt', 'line 1\nline 2\nline 3\n');
    write(project, 'docs/readme.md', '# readme\n');
    let stderr = '';
    const io: CliIo = { stdout: () => undefined, stderr: (t) => void (stderr += t), env: process.env, cwd: project, interactive: false, stderrIsTerminal: true };
    const code = await runCommand.run(['--isolate', '--prompt', 'go', '--cwd', project, '--data-dir', data, '--agent-cmd', agentCmd('a', A), '--agent-cmd', agentCmd('b', B)], io);
    expect(code).toBe(0);
    expect(stderr).toContain('\rCopying the project for agent 1 of 2 (node): 0 files, 0 B…\x1b[K');
    expect(stderr).toContain('\rCopying the project for agent 2 of 2 (node#2): 0 files, 0 B…\x1b[K');
    expect(stderr).toContain('\rRecording the copy as the comparison’s starting point…\x1b[K\r\x1b[K[run] ');
    // Not on a terminal (a pipe, a log): none of it.
    let piped = '';
    await runCommand.run(['--isolate', '--prompt', 'go', '--cwd', project, '--data-dir', data, '--agent-cmd', agentCmd('a', A), '--agent-cmd', agentCmd('b', B)], { ...io, stderrIsTerminal: false, stderr: (t) => void (piped += t) });
    expect(piped).not.toContain('Copying the project');
    expect(piped).not.toContain('\x1b[K');
  }, 90_000);

  it('refuses isolate-only flags without --isolate, and unknown runs', async () => {
    const { project, cli } = world();
    write(project, 'x.txt', 'x');
    const noIsolate = await cli(['run', '--agent-cmd', 'x', '--prompt', 'p', '--cwd', project, '--verify-cmd', 'true']);
    expect(noIsolate.code).toBe(2);
    expect(noIsolate.stderr).toContain('--verify-cmd needs --isolate');
    const unknown = await cli(['runs', 'show', 'NOPE']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no compare run NOPE');
    const extra = await cli(['runs', 'promote', 'NOPE', '0', 'a.txt']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('files to promote go after --files');
  });
});
