/**
 * Workspaces without agents: the steps of a run against real git repositories and plain folders,
 * with the "agents" writing straight into their workspaces.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildComparison, comparisonMarkdown } from './comparison';
import { promote } from './promote';
import { RunStore } from './run-store';
import { git, makeUserRepo, repoFingerprint, tempBase, treeFiles, write } from './testing/git-repo';
import { captureAgent, discardRun, prepareRun, setupAgent, verifyRun, type PrepareProgress, type PrepareRunParams } from './workspaces';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function world() {
  const t = tempBase('acpwb-ws-');
  cleanups.push(t.cleanup);
  const project = join(t.base, 'project');
  return { base: t.base, project, store: new RunStore(join(t.base, 'data')) };
}

const params = (cwd: string, more: Partial<PrepareRunParams> = {}): PrepareRunParams => ({
  cwd,
  agents: [
    { label: 'alpha', agentId: 'alpha' },
    { label: 'alpha', agentId: 'alpha', mode: 'code' },
  ],
  prompt: [{ type: 'text', text: 'do it' }],
  policy: 'all',
  ...more,
});

describe('git worktree workspaces', () => {
  it('says how far it has got: the snapshot, then each agent’s worktree', async () => {
    const { project, store } = world();
    makeUserRepo(project);
    const steps: PrepareProgress[] = [];
    await prepareRun(store, params(project, { onProgress: (p) => steps.push(p) }));
    expect(steps).toEqual([
      { step: 'snapshot', of: 2 },
      { step: 'workspace', agent: 1, of: 2 },
      { step: 'workspace', agent: 2, of: 2 },
    ]);
  });

  it('start from a snapshot with uncommitted and untracked changes, and leave the user repository alone', async () => {
    const { project, store } = world();
    makeUserRepo(project);
    const before = repoFingerprint(project);
    const run = await prepareRun(store, params(project));
    expect(run.source).toMatchObject({ isolation: 'worktree', root: project, subdir: '', branch: 'main', head: before.head });
    expect(run.agents.map((a) => a.label)).toEqual(['alpha', 'alpha#2']);
    expect(run.agents[1]!.workspace).toBe(join(store.workspacesDir, run.id, '1-alpha-2'));
    for (const a of run.agents) {
      expect(a.cwd).toBe(a.workspace);
      const files = treeFiles(a.workspace);
      expect(files).toEqual({
        '.gitignore': 'build/\nnode_modules/\n',
        'notes.txt': 'my untracked notes\n',
        'shared.txt': 'line 1\nline 2\nline 3\n',
        'src/app.txt': 'app v2 (unstaged)\n',
        'staged.txt': 'staged\n',
      });
    }
    // The snapshot is a child of HEAD that no ref points at.
    expect(git(project, 'rev-parse', `${run.base}^`)).toBe(before.head);
    expect(repoFingerprint(project)).toEqual(before);

    write(run.agents[0]!.workspace, 'a.txt', 'from A\n');
    write(run.agents[0]!.workspace, 'shared.txt', 'line 1\nline 2 by A\nline 3\n');
    write(run.agents[1]!.workspace, 'b.txt', 'from B\n');
    write(run.agents[1]!.workspace, 'shared.txt', 'line 1\nline 2 by B\nline 3\n');
    rmSync(join(run.agents[1]!.workspace, 'notes.txt'));
    await captureAgent(store, run.id, 0);
    const done = await captureAgent(store, run.id, 1);
    expect(done.status).toBe('done');
    const record = await store.read(run.id);
    expect(record.status).toBe('ready');
    expect(record.agents[0]!.files.map((f) => [f.status, f.path, f.added, f.removed])).toEqual([
      ['A', 'a.txt', 1, 0],
      ['M', 'shared.txt', 1, 1],
    ]);
    expect(record.agents[1]!.files.map((f) => [f.status, f.path])).toEqual([
      ['A', 'b.txt'],
      ['D', 'notes.txt'],
      ['M', 'shared.txt'],
    ]);
    const comparison = buildComparison(record);
    expect(comparison.divergentFiles.map((d) => [d.path, d.agents.map((x) => x.index)])).toEqual([['shared.txt', [0, 1]]]);
    expect(comparison.agents[0]).toMatchObject({ linesAdded: 2, linesRemoved: 1 });
    expect(readFileSync(record.agents[0]!.patchFile!, 'utf8')).toContain('+line 2 by A');
    expect(comparisonMarkdown(comparison)).toContain('`shared.txt`: alpha (M), alpha#2 (M)');
    expect(repoFingerprint(project)).toEqual(before);

    // A conflicting promote: the user changed shared.txt meanwhile. Nothing is written.
    write(project, 'shared.txt', 'line 1\nline 2 by the user\nline 3\n');
    const refused = await promote(store, run.id, 1);
    expect(refused.applied).toBe(false);
    expect(refused.conflicts.map((c) => c.path)).toEqual(['shared.txt']);
    expect(existsSync(join(project, 'b.txt'))).toBe(false);
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('my untracked notes\n');
    write(project, 'shared.txt', 'line 1\nline 2\nline 3\n');
    expect(repoFingerprint(project)).toEqual(before);

    // Promote agent 0: exactly its changes, in the working tree only.
    const applied = await promote(store, run.id, 0);
    expect(applied).toEqual({ applied: true, paths: ['a.txt', 'shared.txt'], conflicts: [] });
    const after = repoFingerprint(project);
    expect({ ...after, files: undefined, indexBytes: undefined }).toEqual({ ...before, files: undefined, indexBytes: undefined });
    expect(after.files).toEqual({ ...before.files, 'a.txt': 'from A\n', 'shared.txt': 'line 1\nline 2 by A\nline 3\n' });
    expect((await store.read(run.id)).status).toBe('promoted');

    // Agent 1's shared.txt no longer applies on top of A's; its own new file alone does.
    const again = await promote(store, run.id, 1);
    expect(again.applied).toBe(false);
    expect(again.conflicts.map((c) => c.path)).toEqual(['shared.txt']);
    const picked = await promote(store, run.id, [{ agentIndex: 1, path: 'b.txt' }]);
    expect(picked.paths).toEqual(['b.txt']);
    expect(readFileSync(join(project, 'b.txt'), 'utf8')).toBe('from B\n');

    await discardRun(store, run.id);
    for (const a of record.agents) expect(existsSync(a.workspace)).toBe(false);
    expect(existsSync(join(store.workspacesDir, run.id))).toBe(false);
    expect(git(project, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect((await store.read(run.id)).status).toBe('discarded');
    expect(await store.leftovers()).toEqual([]);
  });

  it('refuses to pick one path from two agents, and applies picks from different agents together', async () => {
    const { project, store } = world();
    makeUserRepo(project);
    const run = await prepareRun(store, params(project));
    write(run.agents[0]!.workspace, 'a.txt', 'A\n');
    write(run.agents[0]!.workspace, 'both.txt', 'A\n');
    write(run.agents[1]!.workspace, 'b.txt', 'B\n');
    write(run.agents[1]!.workspace, 'both.txt', 'B\n');
    await captureAgent(store, run.id, 0);
    await captureAgent(store, run.id, 1);
    await expect(
      promote(store, run.id, [
        { agentIndex: 0, path: 'both.txt' },
        { agentIndex: 1, path: 'both.txt' },
      ]),
    ).rejects.toThrow('both.txt is picked from both alpha and alpha#2');
    const result = await promote(store, run.id, [
      { agentIndex: 0, path: 'a.txt' },
      { agentIndex: 1, path: 'b.txt' },
      { agentIndex: 1, path: 'both.txt' },
    ]);
    expect(result.paths).toEqual(['a.txt', 'b.txt', 'both.txt']);
    expect(readFileSync(join(project, 'both.txt'), 'utf8')).toBe('B\n');
    await discardRun(store, run.id);
  });

  it('works in a repository without commits and from a subfolder', async () => {
    const { project, store } = world();
    mkdirSync(project);
    git(project, 'init', '-q');
    write(project, 'pkg/readme.txt', 'hello\n');
    const before = { files: treeFiles(project), status: git(project, 'status', '--porcelain', '-uall') };
    const run = await prepareRun(store, params(join(project, 'pkg')));
    expect(run.source).toMatchObject({ isolation: 'worktree', subdir: 'pkg', head: null });
    const agent = run.agents[0]!;
    expect(agent.cwd).toBe(join(agent.workspace, 'pkg'));
    expect(readFileSync(join(agent.cwd, 'readme.txt'), 'utf8')).toBe('hello\n');
    write(agent.cwd, 'new.txt', 'new\n');
    await captureAgent(store, run.id, 0);
    expect((await store.read(run.id)).agents[0]!.files.map((f) => f.path)).toEqual(['pkg/new.txt']);
    expect({ files: treeFiles(project), status: git(project, 'status', '--porcelain', '-uall') }).toEqual(before);
    expect((await promote(store, run.id, 0)).applied).toBe(true);
    expect(readFileSync(join(project, 'pkg', 'new.txt'), 'utf8')).toBe('new\n');
    await discardRun(store, run.id);
    expect(git(project, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  });

  it('links ignored folders, runs the setup command before and the verification after, and compares without them', async () => {
    const { project, store } = world();
    makeUserRepo(project);
    write(project, 'node_modules/dep/index.js', 'module.exports = 1;\n');
    const run = await prepareRun(
      store,
      params(project, { links: ['node_modules'], setupCommand: 'echo generated > setup-output.txt && echo set up', verifyCommand: 'test -f a.txt && echo has a.txt' }),
    );
    const [a, b] = run.agents;
    expect(readlinkSync(join(a!.workspace, 'node_modules'))).toBe(join(project, 'node_modules'));
    const setup = await setupAgent(store, run.id, 0);
    expect(setup.setup).toMatchObject({ exitCode: 0, output: 'set up\n', timedOut: false });
    expect(setup.base).not.toBe(run.base); // the setup's own changes are not the agent's
    write(a!.workspace, 'a.txt', 'A\n');
    await captureAgent(store, run.id, 0);
    await captureAgent(store, run.id, 1);
    const verified = await verifyRun(store, run.id);
    expect(verified.agents[0]!.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(verified.agents[1]!.files).toEqual([]);
    expect(verified.agents[0]!.verify).toMatchObject({ exitCode: 0, output: 'has a.txt\n' });
    expect(verified.agents[1]!.verify).toMatchObject({ exitCode: 1 });
    await discardRun(store, run.id);
    // The user's own folder the links pointed at is still there.
    expect(readFileSync(join(project, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(existsSync(b!.workspace)).toBe(false);
  });

  it.each(['git', 'plain'])('handles binary files, odd names, executable bits and links (%s folder)', async (kind) => {
    const { project, store } = world();
    mkdirSync(project);
    if (kind === 'git') git(project, 'init', '-q');
    write(project, 'img.bin', Buffer.from([0, 1, 2, 3, 255]));
    write(project, 'tool.sh', '#!/bin/sh\n');
    const run = await prepareRun(store, params(project));
    const ws = run.agents[0]!.workspace;
    write(ws, 'img.bin', Buffer.from([0, 9, 9, 255, 0, 1]));
    write(ws, 'dir with space/ünï cödé.txt', 'odd\n');
    chmodSync(join(ws, 'tool.sh'), 0o755);
    symlinkSync('tool.sh', join(ws, 'tool-link'));
    await captureAgent(store, run.id, 0);
    const files = (await store.read(run.id)).agents[0]!.files;
    expect(files.map((f) => [f.status, f.path, f.binary, f.newMode])).toEqual([
      ['A', 'dir with space/ünï cödé.txt', false, '100644'],
      ['M', 'img.bin', true, '100644'],
      ['A', 'tool-link', false, '120000'],
      ['M', 'tool.sh', false, '100755'],
    ]);
    expect((await promote(store, run.id, 0)).applied).toBe(true);
    expect([...readFileSync(join(project, 'img.bin'))]).toEqual([0, 9, 9, 255, 0, 1]);
    expect(readFileSync(join(project, 'dir with space/ünï cödé.txt'), 'utf8')).toBe('odd\n');
    expect(statSync(join(project, 'tool.sh')).mode & 0o111).not.toBe(0);
    expect(readlinkSync(join(project, 'tool-link'))).toBe('tool.sh');
    await discardRun(store, run.id);
  });

  it('fails an agent whose setup command fails', async () => {
    const { project, store } = world();
    makeUserRepo(project);
    const run = await prepareRun(store, params(project, { setupCommand: 'echo broken >&2; exit 3' }));
    const agent = await setupAgent(store, run.id, 1);
    expect(agent).toMatchObject({ status: 'failed', setup: { exitCode: 3, output: 'broken\n' } });
    expect(agent.error).toContain('the setup command failed (exit 3)');
    await discardRun(store, run.id);
  });
});

describe('copy workspaces (a folder not in git)', () => {
  it('says how far the copies have got: each agent’s workspace, its files and bytes as they are copied, then the base', async () => {
    const { project, store } = world();
    write(project, 'a.txt', 'aaaa');
    write(project, 'sub/b.txt', 'bb');
    write(project, 'node_modules/x/index.js', 'never copied\n');
    const steps: PrepareProgress[] = [];
    await prepareRun(store, params(project, { onProgress: (p) => steps.push(p) }));
    expect(steps).toEqual([
      { step: 'workspace', agent: 1, of: 2, files: 0, bytes: 0 },
      { step: 'workspace', agent: 1, of: 2, files: 1, bytes: 4 },
      { step: 'workspace', agent: 1, of: 2, files: 2, bytes: 6 },
      { step: 'workspace', agent: 2, of: 2, files: 0, bytes: 0 },
      { step: 'workspace', agent: 2, of: 2, files: 1, bytes: 4 },
      { step: 'workspace', agent: 2, of: 2, files: 2, bytes: 6 },
      { step: 'capture', of: 2 },
    ]);
  });

  it('copies without .git, node_modules and large files, compares, promotes with conflict checks and discards', async () => {
    const { project, store } = world();
    write(project, 'shared.txt', 'one\ntwo\n');
    write(project, 'run.sh', '#!/bin/sh\necho hi\n');
    write(project, 'node_modules/x/index.js', 'x\n');
    write(project, 'sub/.git/HEAD', 'not a real repository\n');
    write(project, 'big.bin', Buffer.alloc(2048, 1));
    const before = treeFiles(project, []);
    const run = await prepareRun(store, params(project, { maxCopyFileBytes: 1024 }));
    expect(run.source.isolation).toBe('copy');
    expect(run.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['big.bin', 'too-large'],
      ['node_modules', 'node_modules'],
      ['sub/.git', 'git-folder'],
    ]);
    expect(run.warnings[0]).toContain('not copied into the workspaces: big.bin (2 KiB, over the size limit), node_modules, sub/.git');
    const [a, b] = run.agents;
    expect(treeFiles(a!.workspace, [])).toEqual({ 'run.sh': '#!/bin/sh\necho hi\n', 'shared.txt': 'one\ntwo\n' });

    write(a!.workspace, 'a.txt', 'from A\n');
    write(a!.workspace, 'shared.txt', 'one\ntwo by A\n');
    write(b!.workspace, 'b.txt', 'from B\n');
    write(b!.workspace, 'shared.txt', 'one\ntwo by B\n');
    write(b!.workspace, 'node_modules/y/index.js', 'installed by the agent\n'); // never compared
    rmSync(join(b!.workspace, 'run.sh'));
    await captureAgent(store, run.id, 0);
    await captureAgent(store, run.id, 1);
    const record = await store.read(run.id);
    expect(record.agents[0]!.files.map((f) => [f.status, f.path, f.added, f.removed])).toEqual([
      ['A', 'a.txt', 1, 0],
      ['M', 'shared.txt', 1, 1],
    ]);
    expect(record.agents[1]!.files.map((f) => [f.status, f.path])).toEqual([
      ['A', 'b.txt'],
      ['D', 'run.sh'],
      ['M', 'shared.txt'],
    ]);
    expect(buildComparison(record).divergentFiles.map((d) => d.path)).toEqual(['shared.txt']);
    expect(treeFiles(project, [])).toEqual(before);

    // The user changed shared.txt and created b.txt meanwhile: agent 1 is refused, nothing written.
    write(project, 'shared.txt', 'one\ntwo by the user\n');
    write(project, 'b.txt', 'mine\n');
    const refused = await promote(store, run.id, 1);
    expect(refused).toEqual({
      applied: false,
      paths: [],
      conflicts: [
        { path: 'b.txt', reason: 'already exists in your folder' },
        { path: 'shared.txt', reason: 'was changed in your folder since the run started' },
      ],
    });
    expect(existsSync(join(project, 'run.sh'))).toBe(true);
    write(project, 'shared.txt', 'one\ntwo\n');
    rmSync(join(project, 'b.txt'));
    expect(treeFiles(project, [])).toEqual(before);

    const applied = await promote(store, run.id, 1);
    expect(applied.paths).toEqual(['b.txt', 'run.sh', 'shared.txt']);
    const rest = { ...before };
    delete rest['run.sh'];
    expect(treeFiles(project, [])).toEqual({ ...rest, 'b.txt': 'from B\n', 'shared.txt': 'one\ntwo by B\n' });

    await discardRun(store, run.id);
    expect(existsSync(a!.workspace) || existsSync(b!.workspace) || existsSync(record.gitDir!)).toBe(false);
    // The comparison outlives the workspaces.
    const after = await store.read(run.id);
    expect(after.status).toBe('discarded');
    expect(buildComparison(after).agents[1]!.filesChanged).toHaveLength(3);
  });

  it('leaves a data folder inside the project out of the workspaces', async () => {
    const { project } = world();
    write(project, 'code.txt', 'code\n');
    const store = new RunStore(join(project, '.data'));
    const run = await prepareRun(store, params(project));
    expect(run.skipped).toEqual([{ path: '.data', reason: 'workbench-data' }]);
    expect(treeFiles(run.agents[0]!.workspace)).toEqual({ 'code.txt': 'code\n' });
    await discardRun(store, run.id);
    git(project, 'init', '-q');
    const inGit = await prepareRun(store, params(project));
    expect(treeFiles(inGit.agents[1]!.workspace)).toEqual({ 'code.txt': 'code\n' });
    await discardRun(store, inGit.id);
  });

  it('marks a run failed and leaves nothing behind when the project folder is missing or the agents are too many', async () => {
    const { base, store } = world();
    await expect(prepareRun(store, params(join(base, 'missing')))).rejects.toThrow('does not exist');
    mkdirSync(join(base, 'p'));
    writeFileSync(join(base, 'p', 'x'), 'x');
    const seven = Array.from({ length: 7 }, (_, i) => ({ label: `a${i}`, agentId: 'a' }));
    await expect(prepareRun(store, params(join(base, 'p'), { agents: seven }))).rejects.toThrow('1 to 6 agents, not 7');
    expect(await store.list()).toEqual([]);
  });
});
