/**
 * What a session does on the user's machine and what it records, against the fixture agent (a
 * real subprocess): fs reads and writes and terminals answered for the agent, path escapes
 * refused and recorded, updates that arrive before the session exists or name unknown tool calls,
 * and the trace rebuilding to exactly the transcript the live session had.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { rebuildSessionTranscript } from '../../../common/transcript/rebuild';
import { entryList, type ToolCallEntry } from '../../../common/transcript/model';
import { FixtureWorld, waitFor, type Json } from '../acp/test-support/fixture-world';
import type { AgentSession } from './agent-session';
import { applyConfig, applyMode } from './session-settings';

const worlds: FixtureWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.dispose()));
});
function fresh(): FixtureWorld {
  const world = new FixtureWorld();
  worlds.push(world);
  return world;
}
const text = (t: string): ContentBlock => ({ type: 'text', text: t });

/** Stop the agent, read its trace back, and rebuild this session's transcript from it. */
async function rebuiltAfterClose(world: FixtureWorld, session: AgentSession) {
  await session.connection.close();
  const records = await world.traceRecords(session.connection);
  return rebuildSessionTranscript(records, session.id);
}

describe('fs and terminals for the agent', () => {
  it('reads, writes (after permission) and runs a terminal through the real agent', async () => {
    const world = fresh();
    writeFileSync(join(world.cwd, 'hello.txt'), 'Hello\n');
    const session = await world.session({ scenario: 'full-turn', policy: 'all' });
    const response = await session.prompt([text('greet the world')]);
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(world.cwd, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');

    const conn = session.connection;
    expect((await world.answerTo(conn, 'fs/read_text_file')).map((m) => m.result)).toEqual([{ content: 'Hello\n' }]);
    expect((await world.answerTo(conn, 'fs/write_text_file')).map((m) => m.result)).toEqual([{}]);
    const [permission] = await world.answerTo(conn, 'session/request_permission');
    expect(permission!.result).toEqual({ outcome: { outcome: 'selected', optionId: 'allow-once' } });
    const [created] = await world.answerTo(conn, 'terminal/create');
    const terminalId = (created!.result as Json).terminalId as string;
    expect((await world.answerTo(conn, 'terminal/wait_for_exit')).map((m) => m.result)).toEqual([{ exitCode: 0, signal: null }]);
    expect((await world.answerTo(conn, 'terminal/output')).map((m) => m.result)).toEqual([
      { output: 'tests passed\n', truncated: false, exitStatus: { exitCode: 0, signal: null } },
    ]);

    const t = session.transcript;
    expect(t.fileChanges).toEqual([expect.objectContaining({ path: join(world.cwd, 'hello.txt'), oldText: 'Hello\n', newText: 'Hello, world!\n', toolCallId: 'edit-1' })]);
    expect(t.fileChanges[0]!.error).toBeUndefined();
    expect(t.terminals[terminalId]).toMatchObject({ status: 'exited', exitCode: 0, output: 'tests passed\n', released: true });
    const tools = entryList(t).filter((e): e is ToolCallEntry => e.kind === 'tool_call');
    expect(tools.map((e) => [e.toolCallId, e.status])).toEqual([
      ['read-1', 'completed'],
      ['edit-1', 'completed'],
      ['run-1', 'completed'],
    ]);
    expect(await rebuiltAfterClose(world, session)).toEqual(session.transcript);
  });

  it('refuses and records writes that escape the session folder', async () => {
    const world = fresh();
    const outside = join(world.base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'victim.txt'), 'precious\n');
    symlinkSync(outside, join(world.cwd, 'link'));
    linkSync(join(outside, 'victim.txt'), join(world.cwd, 'hard.txt'));
    const attempts = [
      { name: 'dotdot', path: '{{cwd}}/../outside/dotdot.txt' },
      { name: 'symlink', path: '{{cwd}}/link/victim.txt' },
      { name: 'hardlink', path: '{{cwd}}/hard.txt' },
      { name: 'relative', path: 'relative.txt', resolvePath: false },
      { name: 'inside', path: '{{cwd}}/inside.txt' },
    ];
    const steps = attempts.map(({ name, path, resolvePath }) => ({
      writeFile: { path, content: `written by ${name}\n` },
      ...(resolvePath === false ? { resolvePath: false } : {}),
      onError: [{ text: `${name}:refused;` }],
      onSuccess: [{ text: `${name}:written;` }],
    }));
    const session = await world.session({ scenario: { defaultPrompt: { steps } } });
    await session.prompt([text('try to escape')]);

    const said = entryList(session.transcript)
      .flatMap((e) => (e.kind === 'agent_message' ? e.content : []))
      .map((c) => (c.type === 'text' ? c.text : ''))
      .join('');
    expect(said).toBe('dotdot:refused;symlink:refused;hardlink:refused;relative:refused;inside:written;');
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('precious\n');
    expect(existsSync(join(outside, 'dotdot.txt'))).toBe(false);
    expect(readFileSync(join(world.cwd, 'inside.txt'), 'utf8')).toBe('written by inside\n');

    const answers = await world.answerTo(session.connection, 'fs/write_text_file');
    const reasons = answers.map((m) => (m.error as { data?: { reason?: string } } | undefined)?.data?.reason ?? 'ok');
    expect(reasons).toEqual(['outside_root', 'outside_root', 'hard_link', 'relative', 'ok']);
    for (const m of answers.slice(0, 4)) expect(m.error).toMatchObject({ code: -32602 });

    const records = await world.traceRecords(session.connection);
    const notices = records.filter((r) => r.kind === 'notice').map((r) => (r as { message: string }).message);
    expect(notices).toHaveLength(4);
    expect(notices[0]).toMatch(/^Refused fs\/write_text_file for .*\/\.\.\/outside\/dotdot\.txt: .*\(outside_root\)$/);
    expect(notices[2]).toContain('(hard_link)');
    expect(notices[3]).toContain('(relative)');
    // The transcript shows the refusals as warnings and the failed writes as failed.
    expect(entryList(session.transcript).filter((e) => e.kind === 'notice')).toHaveLength(4);
    expect(session.transcript.fileChanges.map((c) => (c.error ? 'refused' : 'written'))).toEqual(['refused', 'refused', 'refused', 'refused', 'written']);
    expect(await rebuiltAfterClose(world, session)).toEqual(session.transcript);
  });
});

describe('what real agents send', () => {
  it('keeps updates sent before the session/new answer', async () => {
    const world = fresh();
    const session = await world.session({ scenario: 'updates-before-new' });
    // The title update comes after the answer.
    await waitFor(() => session.transcript.session.title === 'Fixture session', 'the title sent after the answer');
    const kinds = entryList(session.transcript).map((e) => e.kind);
    expect(kinds).toEqual(['session_info', 'usage', 'available_commands']);
    expect(session.transcript.session).toMatchObject({
      title: 'Fixture session',
      usage: { used: 1200, size: 200000 },
      availableCommands: [{ name: 'review', description: 'Review the changes' }],
    });
    // They came before the answer, and the trace says so in the same order.
    const records = await world.traceRecords(session.connection);
    const newAnswer = records.findIndex((r) => r.kind === 'wire' && r.dir === 'in' && (r.msg.result as Json | undefined)?.sessionId !== undefined);
    const firstUpdate = records.findIndex((r) => r.kind === 'wire' && r.msg.method === 'session/update');
    expect(firstUpdate).toBeGreaterThan(-1);
    expect(firstUpdate).toBeLessThan(newAnswer);
    expect(await rebuiltAfterClose(world, session)).toEqual(session.transcript);
  });

  it('creates tool calls lazily for updates with unknown ids, and keeps unknown update kinds', async () => {
    const world = fresh();
    const session = await world.session({ scenario: 'malformed-updates', policy: 'all' });
    const response = await session.prompt([text('go')]);
    expect(response.stopReason).toBe('end_turn');
    const entries = entryList(session.transcript);
    const tool = (id: string) => entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === id);
    expect(tool('never-announced')).toMatchObject({ title: 'Mystery tool', status: 'in_progress', flags: ['created-lazily'] });
    expect(tool('unknown-permission-tool')).toMatchObject({ title: 'Run a mystery command', flags: ['created-lazily'] });
    expect(tool('dup')!.flags).toContain('tool-call-resent');
    expect(entries.find((e) => e.kind === 'unknown_update')).toMatchObject({ sessionUpdate: 'async_task_spawned' });
    expect(entries.filter((e) => e.kind === 'tool_call').length).toBe(3);
    expect(await rebuiltAfterClose(world, session)).toEqual(session.transcript);
  });
});

describe('the trace rebuilds the live transcript', () => {
  it('for a load replay, settings changes, a cancel and a second turn', async () => {
    const world = fresh();
    const session = await world.session({ scenario: 'modes-and-config', policy: 'none' });
    await applyMode(session, 'plan');
    await applyConfig(session, 'model', 'quick');
    await session.prompt([text('first')]);
    await session.prompt([text('/web acp')]);
    const live = session.transcript;
    expect(entryList(live).filter((e) => e.kind === 'turn_end')).toHaveLength(2);
    expect(await rebuiltAfterClose(world, session)).toEqual(session.transcript);

    const second = fresh();
    const loaded = await second.session({ scenario: 'load-resume-fork', open: { how: 'load', agentSessionId: 'past-session-1' } });
    const other = second.sessionOn(loaded.connection);
    await other.open('new');
    await other.prompt([text('in the other session')]);
    await loaded.prompt([text('continue')]);
    expect(await rebuiltAfterClose(second, loaded)).toEqual(loaded.transcript);
    const records = await second.traceRecords(other.connection);
    expect(rebuildSessionTranscript(records, other.id)).toEqual(other.transcript);
  });

  it('for a cancelled permission and a crash', async () => {
    const world = fresh();
    const session = await world.session({ scenario: 'cancel-permission', policy: 'ask', interactive: true });
    const turn = session.prompt([text('clean')]);
    while (world.queue.pending(session.id).length === 0) await new Promise((r) => setTimeout(r, 20));
    await session.cancel();
    await turn;
    expect(await rebuiltAfterClose(world, session)).toEqual(session.transcript);

    const crashing = fresh();
    const crashed = await crashing.session({ scenario: 'crash-mid-turn' });
    await expect(crashed.prompt([text('go')])).rejects.toMatchObject({ code: 'crashed' });
    expect(await rebuiltAfterClose(crashing, crashed)).toEqual(crashed.transcript);
  });
});
