/**
 * The session runtime against the fixture agent (a real subprocess): opening sessions every way
 * the agent advertises, prompts with every content kind, cancelling mid-turn and mid-permission,
 * modes / config options / legacy models. What the agent received is read from its received log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { entryList, type ToolCallEntry, type UserMessageEntry } from '../../../common/transcript/model';
import type { AgentConnection } from '../acp/agent-connection';
import { FIXTURE_AGENT, FixtureWorld, waitFor, type Json } from '../acp/test-support/fixture-world';
import { SessionError } from './agent-session';
import { applyConfig, applyMode, applyModel } from './session-settings';
import { startAgentSession } from './start-session';

let world: FixtureWorld;
const worlds: FixtureWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.dispose()));
});
const fresh = () => worlds.push((world = new FixtureWorld()));
const params = (m: Json | undefined) => m?.params as Json;
const text = (t: string): ContentBlock => ({ type: 'text', text: t });

describe('opening sessions', () => {
  it('loads (with the replay), resumes, forks, lists, closes and deletes when advertised', async () => {
    fresh();
    const loaded = await world.session({ scenario: 'load-resume-fork', open: { how: 'load', agentSessionId: 'past-session-1' } });
    const conn = loaded.connection;
    expect(loaded.agentSessionId).toBe('past-session-1');
    expect(params(world.receivedCalls('session/load')[0])).toEqual({ sessionId: 'past-session-1', cwd: world.cwd, mcpServers: [] });
    // The agent sends its commands after the load answer; the replay came before it.
    await waitFor(() => loaded.transcript.session.availableCommands !== undefined, 'the commands update');
    const replayed = entryList(loaded.transcript);
    expect(replayed.map((e) => e.kind)).toEqual(['user_message', 'thought', 'agent_message', 'tool_call', 'plan', 'agent_message', 'available_commands']);
    expect((replayed[0] as UserMessageEntry).content).toEqual([text('Please fix the failing test')]);
    expect(replayed[0]!.flags).toContain('replayed');
    expect(loaded.transcript.session.opened).toBe('loaded');

    const resumed = world.sessionOn(conn);
    await resumed.open('resume', 'past-session-2');
    expect(params(world.receivedCalls('session/resume')[0])).toEqual({ sessionId: 'past-session-2', cwd: world.cwd, mcpServers: [] });
    expect(entryList(resumed.transcript).filter((e) => e.kind !== 'available_commands')).toEqual([]);

    const forked = world.sessionOn(conn);
    await forked.open('fork', 'past-session-1');
    expect(params(world.receivedCalls('session/fork')[0])).toMatchObject({ sessionId: 'past-session-1', cwd: world.cwd });
    expect(forked.agentSessionId).toMatch(/^fixture-session-/);
    const reply = await forked.prompt([text('hello fork')]);
    expect(reply.stopReason).toBe('end_turn');
    // The fork's turn went to the fork, not to the session it came from.
    expect(entryList(forked.transcript).some((e) => e.kind === 'agent_message')).toBe(true);
    expect(entryList(loaded.transcript).filter((e) => e.kind === 'agent_message')).toHaveLength(2);

    const page1 = await conn.listSessions();
    expect(page1.sessions.map((s) => s.sessionId).slice(0, 2)).toEqual(['past-session-1', 'past-session-2']);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await conn.listSessions({ cursor: page1.nextCursor! });
    expect(page2.sessions.length).toBeGreaterThan(0);

    await conn.deleteSession('past-session-2');
    expect(params(world.receivedCalls('session/delete')[0])).toEqual({ sessionId: 'past-session-2' });
    const after = await conn.listSessions();
    expect(after.sessions.map((s) => s.sessionId)).not.toContain('past-session-2');

    await resumed.close();
    expect(world.receivedCalls('session/close').map((m) => params(m).sessionId)).toEqual(['past-session-2']);
    expect(resumed.status.status).toBe('closed');
  });

  it('refuses load, resume, fork and close when the agent does not advertise them, sending nothing', async () => {
    fresh();
    const session = await world.session({ scenario: 'basic-text' });
    const conn = session.connection;
    for (const how of ['load', 'resume', 'fork'] as const) {
      const other = world.sessionOn(conn);
      const err = (await other.open(how, 'fixture-session-1').catch((e: unknown) => e)) as SessionError;
      expect(err).toBeInstanceOf(SessionError);
      expect(err.code).toBe('not_advertised');
      expect(err.message).toContain(`does not advertise session/${how}`);
    }
    await expect(conn.listSessions()).rejects.toThrow(/does not advertise session\/list/);
    await session.close();
    expect(session.status.status).toBe('closed');
    const sent = world.received().map((r) => r.message?.method);
    for (const m of ['session/load', 'session/resume', 'session/fork', 'session/list', 'session/close']) expect(sent).not.toContain(m);
  });
});

describe('startAgentSession', () => {
  const launch = (w: FixtureWorld, scenario: string) => ({
    command: process.execPath,
    args: [FIXTURE_AGENT, '--scenario', scenario, '--received-log', w.receivedLog, '--max-lifetime-ms', '120000'],
    env: { ...process.env, FIXTURE_SCENARIO: '' },
    label: 'fixture',
    agentId: 'fixture',
  });
  const base = (w: FixtureWorld) => ({ sessionCwd: w.cwd, dataDir: w.dataDir, broker: w.broker, policy: 'none' as const, interactive: false });

  it('initializes and opens a session, with or without callbacks', async () => {
    fresh();
    const session = await startAgentSession({ launch: launch(world, 'basic-text'), ...base(world) });
    try {
      expect(session.status.status).toBe('ready');
      expect(world.received().map((r) => r.message?.method)).toEqual(['initialize', 'session/new']);
    } finally {
      await session.connection.close();
    }
  });

  it('stops the agent when the session cannot be opened', async () => {
    fresh();
    let conn: AgentConnection | undefined;
    const err = await startAgentSession({ launch: launch(world, 'auth-required'), ...base(world), onConnection: (c) => (conn = c) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'SessionError', code: 'auth_required' });
    expect(conn!.process.exitInfo).toBeDefined();
  });
});

describe('prompts', () => {
  const blocks: ContentBlock[] = [
    text('Look at these'),
    { type: 'resource_link', uri: 'file:///tmp/p/a.ts', name: 'a.ts', mimeType: 'text/x-typescript' },
    { type: 'resource', resource: { uri: 'file:///tmp/p/b.ts', text: 'export const b = 1;\n', mimeType: 'text/x-typescript' } },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  ];

  it('sends text, resource links, embedded resources and images as given', async () => {
    fresh();
    const session = await world.session({ scenario: 'basic-text' });
    const response = await session.prompt(blocks);
    expect(response.stopReason).toBe('end_turn');
    expect(params(world.receivedCalls('session/prompt')[0])).toEqual({ sessionId: session.agentSessionId, prompt: blocks });
    const user = entryList(session.transcript).find((e): e is UserMessageEntry => e.kind === 'user_message');
    expect(user!.content).toEqual(blocks);
  });

  it('refuses content the agent did not advertise before sending anything', async () => {
    fresh();
    const session = await world.session({
      scenario: { initialize: { agentCapabilities: { promptCapabilities: { image: false, audio: false, embeddedContext: false } } } },
    });
    for (const block of blocks.slice(2)) {
      const err = (await session.prompt([text('x'), block]).catch((e: unknown) => e)) as SessionError;
      expect(err.code).toBe('not_advertised');
      expect(err.message).toContain(`does not accept ${block.type} content`);
    }
    expect(world.receivedCalls('session/prompt')).toEqual([]);
    await session.prompt(blocks.slice(0, 2));
    expect(params(world.receivedCalls('session/prompt')[0]).prompt).toEqual(blocks.slice(0, 2));
  });
});

describe('cancelling', () => {
  it('cancels mid-turn: stopReason cancelled, and tool calls still running shown cancelled', async () => {
    fresh();
    const session = await world.session({
      scenario: {
        defaultPrompt: {
          steps: [
            { toolCall: { toolCallId: 'build', title: 'Build everything', kind: 'execute', status: 'in_progress' } },
            { toolCall: { toolCallId: 'lint', title: 'Lint', kind: 'execute', status: 'pending' } },
            { toolCall: { toolCallId: 'read', title: 'Read', kind: 'read', status: 'completed' } },
            { hang: 'turn' },
          ],
        },
      },
    });
    const turn = session.prompt([text('build it')]);
    await waitFor(() => entryList(session.transcript).filter((e) => e.kind === 'tool_call').length === 3, 'three tool calls');
    await session.cancel();
    const response = await turn;
    expect(response.stopReason).toBe('cancelled');
    expect(session.status.status).toBe('cancelled');
    expect(world.receivedCalls('session/cancel').map(params)).toEqual([{ sessionId: session.agentSessionId }]);
    const status = Object.fromEntries(
      entryList(session.transcript)
        .filter((e): e is ToolCallEntry => e.kind === 'tool_call')
        .map((e) => [e.toolCallId, e.status]),
    );
    expect(status).toEqual({ build: 'cancelled', lint: 'cancelled', read: 'completed' });
    // The session takes the next prompt.
    expect(session.transcript.session.turnStatus).toBe('idle');
  });

  it('answers a pending permission request `cancelled` as soon as the turn is cancelled', async () => {
    fresh();
    const session = await world.session({ scenario: 'cancel-permission', policy: 'ask', interactive: true });
    const turn = session.prompt([text('clean up')]);
    await waitFor(() => world.queue.pending(session.id).length === 1, 'the permission request to wait for a person');
    expect(session.status.status).toBe('waiting');
    await session.cancel();
    expect(world.queue.pending(session.id)).toEqual([]);
    const response = await turn;
    expect(response.stopReason).toBe('cancelled');

    const received = world.received();
    const cancelSeq = received.find((r) => r.message?.method === 'session/cancel')!.seq;
    const [answer] = await world.answerTo(session.connection, 'session/request_permission');
    expect(answer!.result).toEqual({ outcome: { outcome: 'cancelled' } });
    const answerSeq = received.find((r) => r.message === undefined ? false : JSON.stringify(r.message) === JSON.stringify(answer))!.seq;
    expect(answerSeq).toBeGreaterThan(cancelSeq);
    const tool = entryList(session.transcript).find((e): e is ToolCallEntry => e.kind === 'tool_call')!;
    expect(tool.permissions.map((p) => [p.status, p.decidedBy])).toEqual([['cancelled', 'session-cancel']]);
    expect(tool.status).toBe('failed'); // the agent's own final word (its cancel steps)
  });
});

describe('after a cancel', () => {
  const lateScenario = {
    defaultPrompt: {
      steps: [{ text: 'working' }, { hang: 'turn' }],
      cancel: { steps: [{ permission: { toolCall: { toolCallId: 'late', title: 'Clean up' } }, saveAs: 'late' }, { text: ' late answer: {{saved.late}}' }] },
    },
  };
  const said = (s: { transcript: Parameters<typeof entryList>[0] }) =>
    entryList(s.transcript)
      .flatMap((e) => (e.kind === 'agent_message' ? e.content : []))
      .map((c) => (c.type === 'text' ? c.text : ''))
      .join('');

  it('answers permission requests that arrive after the cancel `cancelled`, asking nobody', async () => {
    fresh();
    const session = await world.session({ scenario: lateScenario, policy: 'ask', interactive: true });
    let asked = 0;
    const sub = world.queue.onAsked(() => asked++);
    const turn = session.prompt([text('go')]);
    await waitFor(() => said(session) === 'working', 'the first text');
    await session.cancel();
    expect((await turn).stopReason).toBe('cancelled');
    sub.dispose();
    expect(asked).toBe(0);
    expect(said(session)).toBe('working late answer: cancelled');
    const tool = entryList(session.transcript).find((e): e is ToolCallEntry => e.kind === 'tool_call')!;
    expect(tool.permissions.map((p) => [p.status, p.decidedBy])).toEqual([['cancelled', 'session-cancel']]);
  });

  it('cancels a running turn when the session is closed and the agent has no session/close', async () => {
    fresh();
    const session = await world.session({ scenario: 'hang' });
    const turn = session.prompt([text('think')]);
    await waitFor(() => said(session) === 'Thinking very hard...', 'the first text');
    await session.close();
    expect((await turn).stopReason).toBe('cancelled');
    expect(world.receivedCalls('session/cancel').map(params)).toEqual([{ sessionId: session.agentSessionId }]);
    expect(world.receivedCalls('session/close')).toEqual([]);
    expect(session.status.status).toBe('closed');
  });
});

describe('modes, config options and models', () => {
  it('uses config options over modes, and applies the set_config_option result', async () => {
    fresh();
    const session = await world.session({ scenario: 'modes-and-config' });
    await applyMode(session, 'code');
    expect(world.receivedCalls('session/set_mode')).toEqual([]);
    expect(params(world.receivedCalls('session/set_config_option')[0])).toEqual({ sessionId: session.agentSessionId, configId: 'mode', value: 'code' });
    const option = (id: string) => session.transcript.session.configOptions!.find((o) => o.id === id) as unknown as Json;
    expect(option('mode').currentValue).toBe('code');

    await applyModel(session, 'quick'); // a `model` config option exists: no legacy set_model
    expect(world.receivedCalls('session/set_model')).toEqual([]);
    expect(option('model').currentValue).toBe('quick');
    // The answer's full option set was applied: choosing the quick model narrowed reasoning.
    expect(option('reasoning')).toMatchObject({ currentValue: 'low', options: [{ value: 'low', name: 'Low' }] });

    await applyConfig(session, 'web', 'true');
    expect(params(world.receivedCalls('session/set_config_option')[2])).toEqual({ sessionId: session.agentSessionId, configId: 'web', type: 'boolean', value: true });
    expect(option('web').currentValue).toBe(true);

    await expect(applyConfig(session, 'reasoning', 'high')).rejects.toThrow(/has no value "high"; it offers: low/);
    await expect(applyMode(session, 'yolo')).rejects.toThrow(/has no value "yolo"/);
    expect(world.receivedCalls('session/set_config_option')).toHaveLength(3);
  });

  it('falls back to session/set_mode with modes only, trusting its empty answer', async () => {
    fresh();
    const session = await world.session({
      scenario: { session: { modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] } } },
    });
    await applyMode(session, 'code');
    expect(params(world.receivedCalls('session/set_mode')[0])).toEqual({ sessionId: session.agentSessionId, modeId: 'code' });
    expect(session.transcript.session.modes?.currentModeId).toBe('code');
    await expect(applyMode(session, 'plan')).rejects.toThrow(/no mode "plan"; it offers: ask, code/);
  });

  it('uses the legacy session/set_model for a models block, and stops after a -32601', async () => {
    fresh();
    const models = { currentModelId: 'smart', availableModels: [{ modelId: 'quick', name: 'Quick' }, { modelId: 'smart', name: 'Smart' }] };
    const session = await world.session({ scenario: { session: { models } } });
    await applyModel(session, 'quick');
    expect(params(world.receivedCalls('session/set_model')[0])).toEqual({ sessionId: session.agentSessionId, modelId: 'quick' });
    expect(session.transcript.session.models?.currentModelId).toBe('quick');

    fresh();
    const old = await world.session({
      scenario: { session: { models }, methods: { 'session/set_model': { error: { code: -32601, message: 'Method not found: session/set_model' } } } },
    });
    await expect(applyModel(old, 'quick')).rejects.toThrow(/session\/set_model failed: Method not found/);
    const second = (await applyModel(old, 'smart').catch((e: unknown) => e)) as SessionError;
    expect(second.code).toBe('not_advertised');
    expect(second.message).toContain('answered session/set_model with -32601');
    expect(world.receivedCalls('session/set_model')).toHaveLength(1);
  });
});
