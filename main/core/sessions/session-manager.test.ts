/**
 * SessionManager as the host of compare-run sessions: a run's agent starts as an ordinary live
 * session (listed, its permission requests waiting for the UI) in its workspace, with the run's
 * label and lineage in its trace.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../common/api/contract';
import { readTraceFile } from '../history/trace-reader';
import { fixtureArgs, tempBase } from '../workspace/testing/git-repo';
import { FIXTURE_AGENT } from '../acp/test-support/fixture-world';
import { SessionManager } from './session-manager';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const scenario = {
  defaultPrompt: {
    steps: [
      { toolCall: { toolCallId: 'e1', title: 'Edit a.txt', kind: 'edit' } },
      { permission: { toolCall: { toolCallId: 'e1' } }, onSelected: { 'allow-once': [{ writeFile: { path: 'a.txt', content: 'hi\n' } }] } },
      { text: 'done' },
    ],
  },
};

describe('SessionManager.startRunSession', () => {
  it('starts a run agent as a live session in its workspace, with the run label and lineage, permissions answered by the UI', async () => {
    const t = tempBase('acpwb-sm-');
    cleanups.push(t.cleanup);
    const workspace = join(t.base, 'ws');
    mkdirSync(workspace);
    const events: Array<{ name: EventName; payload: unknown }> = [];
    const manager = new SessionManager({ paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') }, host: 'test', emit: (name, payload) => events.push({ name, payload }) });
    cleanups.push(() => manager.dispose());

    const session = await manager.startRunSession({
      label: 'fixture#2',
      agent: { agentId: 'fixture', command: process.execPath, args: fixtureArgs(scenario) },
      cwd: workspace,
      lineage: { runId: 'RUN1' },
      policy: 'ask',
    });

    const [listed] = manager.list();
    expect(listed).toMatchObject({ sessionId: session.id, cwd: workspace, agent: { label: 'fixture#2' } });
    expect(events.some((e) => e.name === 'sessions/changed')).toBe(true);
    const header = (await readTraceFile(session.connection.trace.path)).header;
    expect(header?.lineage).toEqual({ runId: 'RUN1' });

    // The prompt waits for the user's answer, like any live session's.
    const turn = session.prompt([{ type: 'text', text: 'go' }]);
    await expect.poll(() => manager.queue.pending().filter((p) => p.sessionId === session.id).length).toBe(1);
    expect(manager.list()[0]!.waiting).toBe(1);
    const pending = manager.queue.pending()[0]!;
    expect(manager.answerPermission({ sessionId: session.id, requestId: pending.key.slice(session.id.length + 1), optionId: 'allow-once' })).toEqual({ status: 'resolved' });
    expect((await turn).stopReason).toBe('end_turn');

    // Restarting keeps it a run session.
    const restarted = await manager.restart(session.id);
    expect(restarted.agent.label).toBe('fixture#2');
    const restartedSession = manager.list().find((s) => s.sessionId === restarted.sessionId)!;
    expect((await readTraceFile(restartedSession.trace!)).header?.lineage).toEqual({ runId: 'RUN1' });
  });
});

describe('SessionManager.restart', () => {
  it('re-applies the mode, model and config options the user chose to the restarted agent', async () => {
    const t = tempBase('acpwb-sm-');
    cleanups.push(t.cleanup);
    const manager = new SessionManager({ paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') }, host: 'test', emit: () => undefined });
    cleanups.push(() => manager.dispose());
    const first = await manager.start({ agent: { command: process.execPath, args: [FIXTURE_AGENT, '--scenario', 'modes-and-config', '--max-lifetime-ms', '120000'] }, cwd: t.base, policy: 'ask' });
    await manager.setConfig(first.sessionId, 'model', 'quick');
    await manager.setConfig(first.sessionId, 'web', true);

    const restarted = await manager.restart(first.sessionId);
    expect(restarted.sessionId).not.toBe(first.sessionId);
    const options = manager.snapshot(restarted.sessionId).session.configOptions ?? [];
    expect(options.find((o) => o.id === 'model')?.currentValue).toBe('quick');
    expect(options.find((o) => o.id === 'web')?.currentValue).toBe(true);
  });
});

describe('SessionManager.start without a policy', () => {
  it('answers permission requests by permissionPolicy from settings.json', async () => {
    const t = tempBase('acpwb-sm-');
    cleanups.push(t.cleanup);
    const configDir = join(t.base, 'config');
    mkdirSync(configDir);
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ permissionPolicy: 'none' }));
    const manager = new SessionManager({ paths: { dataDir: join(t.base, 'data'), configDir }, host: 'test', emit: () => undefined });
    cleanups.push(() => manager.dispose());
    const started = await manager.start({ agent: { command: process.execPath, args: fixtureArgs(scenario) }, cwd: t.base });
    const turn = await manager.prompt(started.sessionId, [{ type: 'text', text: 'go' }]);
    // Rejected without asking: nothing waited for the user, and the edit was not made.
    expect(turn.stopReason).toBe('end_turn');
    expect(manager.list()[0]!.waiting).toBe(0);
    expect(existsSync(join(t.base, 'a.txt'))).toBe(false);
  });
});

describe('SessionManager: a live session is named by its first prompt', () => {
  it('lists the first prompt once it is sent, tells the windows, and keeps it for later prompts', async () => {
    const t = tempBase('acpwb-sm-');
    cleanups.push(t.cleanup);
    const lists: Array<Array<{ title: string | null; firstPrompt?: string }>> = [];
    const manager = new SessionManager({
      paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') },
      host: 'test',
      emit: (name: EventName, payload: unknown) => {
        if (name === 'sessions/changed') lists.push(payload as Array<{ title: string | null; firstPrompt?: string }>);
      },
    });
    cleanups.push(() => manager.dispose());
    const started = await manager.start({ agent: { command: process.execPath, args: fixtureArgs(scenario) }, cwd: t.base, policy: 'all' });
    expect(manager.list()[0]!.firstPrompt).toBeUndefined();
    await manager.prompt(started.sessionId, [
      { type: 'text', text: '  Fix the\nflaky   test ' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
    ]);
    expect(manager.list()[0]!.firstPrompt).toBe('Fix the flaky test');
    // Not a title: the pane shows titles the user or the agent gave, the sidebar falls back to this.
    expect(manager.list()[0]!.title).toBeNull();
    expect(lists.some((l) => l[0]?.firstPrompt === 'Fix the flaky test')).toBe(true);
    await manager.prompt(started.sessionId, [{ type: 'text', text: 'and another thing' }]);
    expect(manager.list()[0]!.firstPrompt).toBe('Fix the flaky test');
  });
});

describe('SessionManager.releasePatches', () => {
  it("emits a session's pending patches at once, without waiting for its batcher's interval (a window's delivery takes them along)", async () => {
    const t = tempBase('acpwb-sm-');
    cleanups.push(t.cleanup);
    const events: Array<{ name: EventName; payload: unknown }> = [];
    const manager = new SessionManager({ paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') }, host: 'test', emit: (name, payload) => events.push({ name, payload }) });
    cleanups.push(() => manager.dispose());
    const session = await manager.startRunSession({ label: 'fixture', agent: { agentId: 'fixture', command: process.execPath, args: fixtureArgs({ defaultPrompt: { steps: [{ text: 'hello' }] } }) }, cwd: t.base, lineage: { runId: 'RUN1' }, policy: 'ask' });
    const patchEvents = () => events.filter((e) => e.name === 'session/patches').length;
    // Listening after the manager: each update's patches are in its batcher when this runs.
    const seen: Array<{ before: number; after: number }> = [];
    session.onPatches(() => {
      const before = patchEvents();
      manager.releasePatches();
      seen.push({ before, after: patchEvents() });
    });
    await session.prompt([{ type: 'text', text: 'go' }]);
    expect(seen.length).toBeGreaterThan(0);
    // Every update's patches went out within the same job, one event each time.
    for (const s of seen) expect(s.after).toBe(s.before + 1);
  });
});
