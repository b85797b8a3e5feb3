/**
 * The history API against fixture agents: a session resumed into a live pane (primed: its first
 * UI prompt carries the primer), searched and previewed, deleted on the agent's side too; the
 * agent's own sessions paged through its cursor and merged with ours.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../common/api/contract';
import type { Entry, UserMessageEntry } from '../../../common/transcript/model';
import { FIXTURE_AGENT, SCENARIOS } from '../acp/test-support/fixture-world';
import { SessionManager } from '../sessions/session-manager';
import { historyHandlers } from './history-handlers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-history-api-')));
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  const cwd = join(base, 'project');
  mkdirSync(cwd);
  const events: Array<{ name: EventName; payload: unknown }> = [];
  const paths = { dataDir: join(base, 'data'), configDir: join(base, 'config') };
  const manager = new SessionManager({ paths, host: 'test', emit: (name, payload) => events.push({ name, payload }) });
  const history = historyHandlers(paths, manager, (name, payload) => events.push({ name, payload }), { ...process.env, FIXTURE_SCENARIO: '' });
  cleanups.push(() => manager.dispose());
  cleanups.push(() => history.dispose());
  const agent = (scenario: string) => ({ command: process.execPath, args: [FIXTURE_AGENT, '--max-lifetime-ms', '60000', '--scenario', join(SCENARIOS, `${scenario}.json`)], env: { HISTORY_MARK: 'ui' }, label: scenario });
  return { cwd, manager, history, agent, events };
}

const userTexts = (entries: Entry[]) => entries.filter((e): e is UserMessageEntry => e.kind === 'user_message').map((e) => e.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(''));

describe('history handlers', () => {
  it('resume into a live pane, search, preview with messages, tree, delete', async () => {
    const { cwd, manager, history, agent, events } = setup();
    const first = await manager.start({ agent: agent('history-plain'), cwd, policy: 'none' });
    await manager.prompt(first.sessionId, [{ type: 'text', text: 'count the marmosets' }]);
    await manager.prompt(first.sessionId, [{ type: 'text', text: 'and the capybaras' }]);
    await manager.close(first.sessionId);

    const list = await history['history/list']({ limit: 10 });
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: first.sessionId, turns: 2, origin: 'workbench' });
    const found = await history['history/search']({ query: 'marmo', limit: 10 });
    expect(found.hits[0]!.session.id).toBe(first.sessionId);
    expect(found.hits[0]!.snippets[0]!.highlights.length).toBeGreaterThan(0);
    const preview = await history['history/preview']({ id: first.sessionId });
    expect(preview.messages.map((m) => m.text)).toEqual(['count the marmosets', 'and the capybaras']);

    const resumed = await history['history/resume']({ id: first.sessionId });
    expect(resumed).toMatchObject({ by: 'primed', parent: first.sessionId });
    expect(events.some((e) => e.name === 'history/changed')).toBe(true);
    await manager.prompt(resumed.live.sessionId, [{ type: 'text', text: 'now the otters' }]);
    const live = manager.entries(resumed.live.sessionId, 0, 100).items;
    expect(userTexts(live)).toEqual(['count the marmosets', 'and the capybaras', expect.stringMatching(/\[resource\]now the otters$/)]);
    await manager.close(resumed.live.sessionId);

    const tree = await history['history/tree']({ id: resumed.live.sessionId });
    expect(tree.root.id).toBe(first.sessionId);
    expect(tree.root.children[0]).toMatchObject({ id: resumed.live.sessionId, relation: 'resume', by: 'primed' });
    const childEntries = await history['history/entries']({ id: resumed.live.sessionId, limit: 100 });
    expect(userTexts(childEntries.items)).toHaveLength(3);

    const md = await history['history/export']({ id: first.sessionId, format: 'md' });
    expect(md.text).toContain('count the marmosets');
    const del = await history['history/delete']({ id: resumed.live.sessionId, agentSide: true });
    expect(del.agentSide).toBe('not-advertised');
    expect((await history['history/list']({ limit: 10 })).total).toBe(1);
  });

  it('a session recorded after the index last looked is found by the requests that name it (export, preview)', async () => {
    const { cwd, manager, history, agent } = setup();
    // The index is open and has looked once: an empty history.
    expect((await history['history/list']({ limit: 10 })).total).toBe(0);
    const s = await manager.start({ agent: agent('history-plain'), cwd, policy: 'none' });
    await manager.prompt(s.sessionId, [{ type: 'text', text: 'the quokkas, right after the turn' }]);
    // Asked for at once (the palette's export of the focused pane), before anything refreshed the index.
    const md = await history['history/export']({ id: s.sessionId, format: 'md' });
    expect(md.text).toContain('the quokkas, right after the turn');
    const preview = await history['history/preview']({ id: s.sessionId });
    expect(preview.messages.map((m) => m.text)).toEqual(['the quokkas, right after the turn']);
    // An id nobody recorded is still refused, saying so.
    await expect(history['history/export']({ id: '01ZZZZZZZZZZZZZZZZZZZZZZZZ', format: 'md' })).rejects.toMatchObject({ message: expect.stringContaining('no session "01ZZZZZZZZZZZZZZZZZZZZZZZZ" in history') });
    await manager.close(s.sessionId);
  });

  it('what a recorded session did to each file, from its trace, without starting its agent', async () => {
    const { cwd, manager, history, agent } = setup();
    writeFileSync(join(cwd, 'hello.txt'), 'Hello\n');
    const s = await manager.start({ agent: agent('full-turn'), cwd, policy: 'all' });
    await manager.prompt(s.sessionId, [{ type: 'text', text: 'change the greeting' }]);
    await manager.close(s.sessionId);
    const other = await manager.start({ agent: agent('new-file'), cwd, policy: 'all' });
    await manager.prompt(other.sessionId, [{ type: 'text', text: 'make a to-do list' }]);
    await manager.close(other.sessionId);

    // The agent wrote hello.txt through fs/write_text_file after its tool call's diff: one file, both writes folded.
    const changed = await history['history/changes']({ id: s.sessionId });
    expect(changed.files).toEqual([{ path: join(cwd, 'hello.txt'), oldText: 'Hello\n', newText: 'Hello, world!\n', exact: true, writes: 1, failed: 0 }]);
    expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');
    // A file the agent created: no text before.
    const created = await history['history/changes']({ id: other.sessionId.slice(0, 12) });
    expect(created.files).toEqual([{ path: join(cwd, 'todo.md'), oldText: null, newText: '# To do\n- write the tests\n- ship it\n', exact: true, writes: 1, failed: 0 }]);
    // A session that wrote nothing, and one nobody recorded.
    const plain = await manager.start({ agent: agent('history-plain'), cwd, policy: 'none' });
    await manager.prompt(plain.sessionId, [{ type: 'text', text: 'just talk' }]);
    await manager.close(plain.sessionId);
    expect((await history['history/changes']({ id: plain.sessionId })).files).toEqual([]);
    await expect(history['history/changes']({ id: '01ZZZZZZZZZZZZZZZZZZZZZZZZ' })).rejects.toMatchObject({ message: expect.stringContaining('no session "01ZZZZZZZZZZZZZZZZZZZZZZZZ" in history') });
  });

  it('a live session renamed by the user: the list, its transcript and its trace say so, and History after it closes', async () => {
    const { cwd, manager, history, agent, events } = setup();
    const s = await manager.start({ agent: agent('history-plain'), cwd, policy: 'none' });
    await manager.prompt(s.sessionId, [{ type: 'text', text: 'count the marmosets' }]);
    events.length = 0;
    manager.rename(s.sessionId, '  Marmoset   census ');
    expect(manager.list().find((l) => l.sessionId === s.sessionId)!.title).toBe('Marmoset census');
    expect(manager.snapshot(s.sessionId).session.userTitle).toBe('Marmoset census');
    // The window hears of it at once: the list, and the transcript's patch.
    expect(events.some((e) => e.name === 'sessions/changed')).toBe(true);
    expect(JSON.stringify(events.filter((e) => e.name === 'session/patches'))).toContain('Marmoset census');
    await manager.close(s.sessionId);
    expect((await history['history/list']({ limit: 10 })).items[0]).toMatchObject({ id: s.sessionId, title: 'Marmoset census' });

    // Cleared: the first prompt names it again.
    const again = await manager.start({ agent: agent('history-plain'), cwd, policy: 'none' });
    await manager.prompt(again.sessionId, [{ type: 'text', text: 'and the capybaras' }]);
    manager.rename(again.sessionId, 'For a moment');
    manager.rename(again.sessionId, '   ');
    expect(manager.list().find((l) => l.sessionId === again.sessionId)).toMatchObject({ title: null, firstPrompt: 'and the capybaras' });
    await manager.close(again.sessionId);
    expect((await history['history/list']({ limit: 10 })).items.find((i) => i.id === again.sessionId)!.title).toBe('and the capybaras');
    expect(() => manager.rename('no-such-session', 'x')).toThrow();
  });

  it('restarting a continued pane resumes it from its own recording instead of starting a blank session', async () => {
    const { cwd, manager, history, agent } = setup();
    const first = await manager.start({ agent: agent('history-plain'), cwd, policy: 'none' });
    await manager.prompt(first.sessionId, [{ type: 'text', text: 'count the marmosets' }]);
    await manager.close(first.sessionId);
    const resumed = await history['history/resume']({ id: first.sessionId });
    await manager.prompt(resumed.live.sessionId, [{ type: 'text', text: 'now the otters' }]);

    const restarted = await manager.restart(resumed.live.sessionId);
    expect(restarted.sessionId).not.toBe(resumed.live.sessionId);
    expect(manager.list().map((s) => s.sessionId)).toEqual([restarted.sessionId]);
    await manager.prompt(restarted.sessionId, [{ type: 'text', text: 'and the beavers' }]);
    const texts = userTexts(manager.entries(restarted.sessionId, 0, 100).items);
    expect(texts.slice(0, 2)).toEqual(['count the marmosets', expect.stringMatching(/now the otters$/)]);
    expect(texts.at(-1)).toMatch(/and the beavers$/);
    await manager.close(restarted.sessionId);
    const tree = await history['history/tree']({ id: restarted.sessionId });
    expect(tree.root.id).toBe(first.sessionId);
    expect(tree.root.children[0]).toMatchObject({ id: resumed.live.sessionId, children: [{ id: restarted.sessionId, relation: 'resume' }] });
  });

  it('pages through the agent’s own sessions with its cursor, merged with ours', async () => {
    const { cwd, history, agent } = setup();
    const page1 = await history['history/agent-sessions']({ agent: agent('history-resume'), cwd });
    expect(page1.items.map((s) => [s.origin, s.agentSessionId])).toEqual([
      ['agent', 'outside-1'],
      ['agent', 'outside-2'],
    ]);
    expect(page1.nextCursor).toBeDefined();
    const page2 = await history['history/agent-sessions']({ agent: agent('history-resume'), cwd, cursor: page1.nextCursor! });
    expect(page2.items.map((s) => s.agentSessionId)).toEqual(['outside-3']);
    expect(page2.nextCursor).toBeUndefined();
    await expect(history['history/agent-sessions']({ agent: agent('history-plain'), cwd })).rejects.toThrow(/does not advertise session\/list/);
  });
});
