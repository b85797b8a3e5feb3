/**
 * The compare-run requests through the core, as a UI uses them: fixture agents (real
 * subprocesses) in a real git repository, run sessions as live sessions with their permission
 * requests answered through `session/answer-permission`, events, comparison, file texts, export,
 * promote (applied, then refused on a conflict) and discard.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../common/api/contract';
import type { ComparisonView, RunFileTextsView, RunCreateProgress, RunRecipeView, RunSummary } from '../../../common/api/compare-types';
import type { EntriesResult, LiveSessionSummary } from '../../../common/api/session-api-types';
import type { ToolCallEntry } from '../../../common/transcript/model';
import { createCore } from '../core';
import { fixtureArgs, git, makeUserRepo, tempBase, writerScenario } from '../workspace/testing/git-repo';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A user repository in a temporary folder and the data/config paths of a core, removed after the test. */
function userProject(prefix: string) {
  const t = tempBase(prefix);
  cleanups.push(t.cleanup);
  const dir = join(t.base, 'project');
  makeUserRepo(dir);
  return { base: t.base, project: dir, paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') } };
}

/** A core on those paths (disposed after the test) and a typed `call`. */
function startCore(paths: { dataDir: string; configDir: string }) {
  const core = createCore({ host: 'test', paths });
  cleanups.push(() => core.dispose());
  return { core, call: <R>(name: string, params?: unknown) => core.handle(name, params) as Promise<R> };
}

const asking = {
  defaultPrompt: {
    steps: [
      { toolCall: { toolCallId: 'e1', title: 'Edit', kind: 'edit' } },
      { permission: { toolCall: { toolCallId: 'e1' } } },
      { writeFile: { path: 'a.txt', content: 'from A\n' } },
      { writeFile: { path: 'shared.txt', content: 'line 1\nline 2 by A\nline 3\n' } },
      { toolCallUpdate: { toolCallId: 'e1', status: 'completed' } },
      { text: 'A is done' },
    ],
  },
};
const writing = writerScenario({ 'b.txt': 'from B\n', 'shared.txt': 'line 1\nline 2 by B\nline 3\n' }, 'B is done');

/** alpha writes b.txt and shared.txt, and extra.txt when a prompt says "also"; beta writes b.txt and shared.txt. */
const extra = {
  prompts: [{ match: { text: 'also' }, steps: [{ writeFile: { path: 'extra.txt', content: 'more\n' } }, { text: 'extra written' }] }],
  ...writing,
};
const twoWriters = (cwd: string) => ({
  cwd,
  agents: [
    { agent: { command: process.execPath, args: fixtureArgs(extra) }, label: 'alpha' },
    { agent: { command: process.execPath, args: fixtureArgs(writing) }, label: 'beta' },
  ],
  prompt: [{ type: 'text', text: 'change things' }],
  policy: 'all',
});

describe('compare-run requests', () => {
  it('create → live sessions with permissions from the UI → comparison, texts, export, promote, conflict, discard', async () => {
    const { base, project, paths } = userProject('acpwb-cmph-');
    const { core, call } = startCore(paths);
    const events: Array<{ name: EventName; payload: unknown }> = [];
    core.connect((name, payload) => events.push({ name, payload }));

    await expect(call('runs/create', { cwd: project, agents: [{ agent: { command: process.execPath } }], prompt: [{ type: 'text', text: 'x' }], policy: 'ask' })).rejects.toMatchObject({
      code: 'bad_params',
      message: expect.stringContaining('2 to 6 agents'),
    });

    const created = await call<RunSummary>('runs/create', {
      cwd: project,
      agents: [
        { agent: { command: process.execPath, args: fixtureArgs(asking) }, label: 'alpha' },
        { agent: { command: process.execPath, args: fixtureArgs(writing), env: { API_TOKEN: 'secret' } }, label: 'beta' },
      ],
      prompt: [{ type: 'text', text: 'change things' }],
      policy: 'ask',
      verifyCommand: 'cat shared.txt',
      startId: 'dialog-1',
    });
    expect(created.agents.map((a) => a.label)).toEqual(['alpha', 'beta']);
    // The dialog that started it was told each step, under its name, up to both agents ready.
    const progress = events.filter((e) => e.name === 'run/create-progress').map((e) => e.payload as RunCreateProgress);
    expect(progress.every((p) => p.startId === 'dialog-1' && p.of === 2)).toBe(true);
    expect(progress.filter((p) => p.step === 'workspace').map((p) => p.agent)).toEqual([1, 2]);
    expect(progress.at(-1)).toEqual({ startId: 'dialog-1', step: 'start', of: 2, started: 2 });
    expect(created.live).toBe(true);
    const [alphaId, betaId] = created.agents.map((a) => a.sessionId!);

    // Both are live sessions of the UI, in their workspaces.
    const live = await call<LiveSessionSummary[]>('sessions/live');
    expect(live.map((s) => [s.sessionId, s.cwd])).toEqual(expect.arrayContaining([[alphaId, created.agents[0]!.cwd], [betaId, created.agents[1]!.cwd]]));

    // alpha's permission request waits for the UI; answer it like a pane does.
    let requestId: unknown;
    await expect
      .poll(async () => {
        const entries = await call<EntriesResult>('session/entries', { sessionId: alphaId, offset: 0, limit: 100 });
        const tool = entries.items.find((e) => e.kind === 'tool_call') as ToolCallEntry | undefined;
        requestId = tool?.permissions[0]?.requestId;
        return requestId !== undefined;
      })
      .toBe(true);
    expect(await call('session/answer-permission', { sessionId: alphaId, requestId, optionId: 'allow-once' })).toEqual({ status: 'resolved' });

    await expect.poll(async () => (await call<RunSummary>('runs/get', { runId: created.runId })).status, { timeout: 20_000 }).toBe('ready');
    // Verification runs after the turns; wait for its results too.
    await expect.poll(async () => (await call<ComparisonView>('runs/comparison', { runId: created.runId })).agents.every((a) => a.verify !== null), { timeout: 20_000 }).toBe(true);
    expect(events.some((e) => e.name === 'run/updated' && (e.payload as RunSummary).status === 'ready')).toBe(true);
    await expect.poll(() => events.some((e) => e.name === 'runs/changed')).toBe(true);

    const c = await call<ComparisonView>('runs/comparison', { runId: created.runId, withPatches: true });
    expect(c.agents[0]).toMatchObject({ label: 'alpha', stopReason: 'end_turn', permissionRequests: 1, toolCalls: 1, linesAdded: 2, linesRemoved: 1 });
    expect(c.agents[0]!.filesChanged.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ['a.txt', 'A', 1, 0],
      ['shared.txt', 'M', 1, 1],
    ]);
    expect(c.agents[1]!.filesChanged.map((f) => f.path)).toEqual(['b.txt', 'shared.txt']);
    expect(c.agents[1]!.verify).toMatchObject({ exitCode: 0, output: 'line 1\nline 2 by B\nline 3\n' });
    expect(c.divergentFiles.map((d) => d.path)).toEqual(['shared.txt']);
    expect(c.agents[0]!.patch).toContain('+line 2 by A');

    const texts = await call<RunFileTextsView>('runs/file-texts', { runId: created.runId, path: 'shared.txt' });
    expect(texts.agents.map((a) => [a.label, a.oldText, a.newText])).toEqual([
      ['alpha', 'line 1\nline 2\nline 3\n', 'line 1\nline 2 by A\nline 3\n'],
      ['beta', 'line 1\nline 2\nline 3\n', 'line 1\nline 2 by B\nline 3\n'],
    ]);

    const md = await call<{ text: string; fileName: string }>('runs/export', { runId: created.runId, format: 'md' });
    expect(md.fileName).toMatch(/\.md$/);
    expect(md.text).toContain('## Files changed differently by several agents');
    const json = await call<{ text: string }>('runs/export', { runId: created.runId, format: 'json' });
    expect(JSON.parse(json.text)).toMatchObject({ type: 'comparison', runId: created.runId });
    // The secret stays out of the record.
    expect(readFileSync(join(base, 'data', 'runs', created.runId, 'run.json'), 'utf8')).not.toContain('secret');
    // "Run again": the params it was made from, and what could not be given back.
    const recipe = await call<RunRecipeView>('runs/recipe', { runId: created.runId });
    expect(recipe.params).toEqual({
      cwd: realpathSync(project),
      agents: [
        { agent: { command: process.execPath, args: fixtureArgs(asking) }, label: 'alpha' },
        { agent: { command: process.execPath, args: fixtureArgs(writing) }, label: 'beta' },
      ],
      prompt: [{ type: 'text', text: 'change things' }],
      policy: 'ask',
      verifyCommand: 'cat shared.txt',
    });
    expect(recipe.notes).toEqual([expect.stringMatching(/^Agent 2 \(beta\): its environment variables \(API_TOKEN\)/)]);
    expect(JSON.stringify(recipe)).not.toContain('secret');
    await expect(call('runs/recipe', { runId: 'no-such-run' })).rejects.toMatchObject({ message: expect.stringContaining('no-such-run') });

    expect(await call('runs/promote', { runId: created.runId, agentIndex: 1 })).toEqual({ applied: true, paths: ['b.txt', 'shared.txt'], conflicts: [] });
    expect(readFileSync(join(project, 'shared.txt'), 'utf8')).toBe('line 1\nline 2 by B\nline 3\n');
    const refused = await call<{ applied: boolean; conflicts: Array<{ path: string }> }>('runs/promote', { runId: created.runId, files: [{ agentIndex: 0, path: 'a.txt' }, { agentIndex: 0, path: 'shared.txt' }] });
    expect(refused.applied).toBe(false);
    expect(refused.conflicts.map((x) => x.path)).toEqual(['shared.txt']);
    expect(existsSync(join(project, 'a.txt'))).toBe(false);

    const discarded = await call<RunSummary>('runs/discard', { runId: created.runId });
    expect(discarded).toMatchObject({ status: 'discarded', workspaces: false, live: false });
    for (const a of created.agents) expect(existsSync(a.workspace)).toBe(false);
    expect(git(project, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect((await call<LiveSessionSummary[]>('sessions/live')).length).toBe(0);
    expect((await call<RunSummary[]>('runs/list')).map((r) => r.status)).toEqual(['discarded']);
    expect(await call('runs/leftovers')).toEqual([]);
  });

  it('a run stopped while an agent hangs in initialize: its starts are stopped, the run discarded, its workspaces removed', async () => {
    const { project, paths } = userProject('acpwb-cmph-abort-');
    const { call } = startCore(paths);
    const silent = { command: process.execPath, args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1e6)'] };
    const creating = call<RunSummary>('runs/create', {
      cwd: project,
      agents: [
        { agent: { command: process.execPath, args: fixtureArgs(writing) }, label: 'quick' },
        { agent: silent, label: 'silent' },
      ],
      prompt: [{ type: 'text', text: 'go' }],
      policy: 'all',
      startId: 'w1-run',
    });
    const outcome = creating.then(
      () => null,
      (err: unknown) => err,
    );
    // Both agents are live sessions while the silent one waits for its initialize.
    await expect.poll(async () => (await call<LiveSessionSummary[]>('sessions/live')).length, { timeout: 20_000 }).toBe(2);
    const t0 = Date.now();
    await call('runs/abort-create', { startId: 'w1-run' });
    expect(await outcome).toMatchObject({ code: 'cancelled' });
    expect(Date.now() - t0).toBeLessThan(30_000); // not the 60 s start-up timeout
    expect(await call<LiveSessionSummary[]>('sessions/live')).toEqual([]);
    const [run] = await call<RunSummary[]>('runs/list');
    expect(run).toMatchObject({ status: 'discarded', workspaces: false });
    for (const a of run!.agents) expect(existsSync(a.workspace)).toBe(false);
    // A stop for a creation that has ended does nothing.
    await call('runs/abort-create', { startId: 'w1-run' });
  });

  it('a prompt typed in one run pane is a follow-up to that agent: recorded, its workspace captured again', async () => {
    const { base, project, paths } = userProject('acpwb-cmpp-');
    const { call } = startCore(paths);
    const created = await call<RunSummary>('runs/create', twoWriters(project));
    await expect.poll(async () => (await call<RunSummary>('runs/get', { runId: created.runId })).status, { timeout: 20_000 }).toBe('ready');

    // Typed in alpha's own composer: the pane's ordinary session/prompt.
    expect(await call('session/prompt', { sessionId: created.agents[0]!.sessionId, prompt: [{ type: 'text', text: 'also add a file' }] })).toEqual({ stopReason: 'end_turn' });
    const c = await call<ComparisonView>('runs/comparison', { runId: created.runId });
    expect(c.agents[0]!.filesChanged.map((f) => f.path)).toEqual(['b.txt', 'extra.txt', 'shared.txt']);
    expect(c.agents[1]!.filesChanged.map((f) => f.path)).toEqual(['b.txt', 'shared.txt']);
    const run = JSON.parse(readFileSync(join(base, 'data', 'runs', created.runId, 'run.json'), 'utf8')) as { prompts: Array<{ agents: number[] }>; status: string };
    expect(run.prompts.map((p) => p.agents)).toEqual([[0, 1], [0]]);
    expect(run.status).toBe('ready');
  });

  it('reopens a run of an earlier core: its agents resumed in their workspaces, follow-ups counted on top', async () => {
    const { project, paths } = userProject('acpwb-cmpr-');
    const first = createCore({ host: 'test', paths });
    const run = (await first.handle('runs/create', twoWriters(project))) as RunSummary;
    await expect.poll(async () => ((await first.handle('runs/get', { runId: run.runId })) as RunSummary).status, { timeout: 20_000 }).toBe('ready');
    await first.dispose();

    const { call } = startCore(paths);
    const reopened = await call<RunSummary>('runs/reopen', { runId: run.runId });
    expect(reopened.live).toBe(true);
    expect(await call('runs/leftovers')).toEqual([]);
    const live = await call<LiveSessionSummary[]>('sessions/live');
    expect(live.map((s) => s.cwd).sort()).toEqual(run.agents.map((a) => a.cwd).sort());
    expect(reopened.agents.map((a) => a.sessionId)).toEqual(expect.arrayContaining(live.map((s) => s.sessionId)));

    await call('runs/follow-up', { runId: run.runId, prompt: [{ type: 'text', text: 'also add a file' }], indexes: [0] });
    const c = await call<ComparisonView>('runs/comparison', { runId: run.runId });
    expect(c.agents[0]!.filesChanged.map((f) => f.path)).toEqual(['b.txt', 'extra.txt', 'shared.txt']);
    expect(c.agents[0]!.turns).toBe(2); // the first session's turn and the follow-up
    expect(c.agents[1]!.turns).toBe(1);
  });

  it('lists runs of an earlier core that still have workspaces as leftovers', async () => {
    const { project, paths } = userProject('acpwb-cmpl-');
    const first = createCore({ host: 'test', paths });
    const run = (await first.handle('runs/create', {
      cwd: project,
      agents: [{ agent: { command: process.execPath, args: fixtureArgs(writing) } }, { agent: { command: process.execPath, args: fixtureArgs(writing) } }],
      prompt: [{ type: 'text', text: 'go' }],
      policy: 'all',
    })) as RunSummary;
    expect(run.agents.map((a) => a.label)).toEqual(['node', 'node#2']);
    expect(await first.handle('runs/leftovers', undefined)).toEqual([]); // live here
    await expect.poll(async () => ((await first.handle('runs/get', { runId: run.runId })) as RunSummary).status, { timeout: 20_000 }).toBe('ready');
    await first.dispose();

    const { core: second } = startCore(paths);
    const leftovers = (await second.handle('runs/leftovers', undefined)) as RunSummary[];
    expect(leftovers.map((r) => [r.runId, r.live, r.workspaces])).toEqual([[run.runId, false, true]]);
    await expect(second.handle('runs/follow-up', { runId: run.runId, prompt: [{ type: 'text', text: 'more' }] })).rejects.toMatchObject({ code: 'not_available' });
    await second.handle('runs/discard', { runId: run.runId });
    expect(await second.handle('runs/leftovers', undefined)).toEqual([]);
  });
});
