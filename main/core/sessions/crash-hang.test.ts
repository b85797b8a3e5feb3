/**
 * Crashes and hangs (issue #12, item 2) with the real fixture agent: an agent dying mid-terminal
 * and mid-permission, one that never answers initialize, one that ignores session/cancel. After
 * each, the process listing shows no agent and no terminal process left behind.
 * (Dying mid-turn: agent-connection.test.ts "an agent that crashes mid-turn"; SIGKILL of the
 * workbench itself: workbench-kill.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentStartError } from '../acp/agent-start-error';
import { FIXTURE_AGENT, FixtureWorld, waitFor } from '../acp/test-support/fixture-world';
import { orphansAfter } from '../acp/test-support/process-listing';
import { AgentSession } from './agent-session';
import { startAgentSession } from './start-session';

const text = (t: string) => ({ type: 'text' as const, text: t });

let world: FixtureWorld;
afterEach(async () => {
  await world?.dispose();
});

describe('an agent that dies', () => {
  it('mid-terminal: the session is crashed and the terminal process is gone', async () => {
    world = new FixtureWorld();
    const marker = `${world.base}/terminal-marker`;
    const session = await world.session({
      scenario: {
        defaultPrompt: {
          steps: [
            { terminal: { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)', marker] }, actions: ['output'], saveAs: 'term' },
            { stderr: 'panic: died with a terminal open' },
            { crash: 3 },
          ],
        },
      },
    });
    const turn = session.prompt([text('run something long')]);
    await expect(turn).rejects.toMatchObject({ code: 'crashed' });
    expect(session.status).toMatchObject({ status: 'crashed' });
    expect(session.status.stderrTail).toContain('panic: died with a terminal open');
    const records = await world.traceRecords(session.connection);
    expect(records.some((r) => r.kind === 'terminal' && r.action === 'created')).toBe(true);
    expect(await orphansAfter(marker)).toEqual([]);
    expect(await orphansAfter(world.receivedLog)).toEqual([]);
  });

  it('mid-permission: the session is crashed and the request leaves the queue', async () => {
    world = new FixtureWorld();
    const session = await world.session({
      policy: 'ask',
      interactive: true,
      scenario: {
        defaultPrompt: {
          steps: [
            {
              request: {
                method: 'session/request_permission',
                params: { sessionId: '{{sessionId}}', toolCall: { toolCallId: 'e1', title: 'Edit a.ts' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] },
              },
              await: false,
            },
            { delay: 60_000 },
          ],
        },
      },
    });
    const turn = session.prompt([text('ask me')]);
    await waitFor(() => world.queue.pending(session.id).length === 1, 'the permission request in the queue');
    expect(session.status.status).toBe('waiting');
    process.kill(session.connection.process.pid!, 'SIGKILL');
    await expect(turn).rejects.toMatchObject({ code: 'crashed' });
    expect(session.status).toMatchObject({ status: 'crashed', reason: expect.stringContaining('SIGKILL') });
    await waitFor(() => world.queue.pending(session.id).length === 0, 'the dead request to leave the queue', 5000);
    expect(await orphansAfter(world.receivedLog)).toEqual([]);
  });
});

describe('an agent that hangs', () => {
  it('never answering initialize: a timeout error naming the agent, and the process is stopped', async () => {
    world = new FixtureWorld();
    let pid: number | undefined;
    const err = await startAgentSession({
      launch: {
        command: process.execPath,
        args: [FIXTURE_AGENT, '--scenario-json', JSON.stringify({ methods: { initialize: { noAnswer: true } } }), '--received-log', world.receivedLog, '--max-lifetime-ms', '120000'],
        env: { ...process.env, FIXTURE_SCENARIO: '' },
        label: 'mute agent',
        agentId: 'mute',
      },
      sessionCwd: world.cwd,
      dataDir: world.dataDir,
      broker: world.broker,
      policy: 'none',
      interactive: false,
      startupTimeoutMs: 1000,
      onConnection: (c) => (pid = c.process.pid),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentStartError);
    expect((err as AgentStartError).phase).toBe('timeout');
    expect((err as Error).message).toMatch(/^mute agent: .*no answer to initialize within 1 s/);
    expect(pid).toBeGreaterThan(0);
    expect(world.receivedCalls('initialize')).toHaveLength(1);
    expect(await orphansAfter(world.receivedLog)).toEqual([]);
  });

  it('ignoring session/cancel: stopped after the grace period, and the status says so', async () => {
    world = new FixtureWorld();
    const connection = await world.connect({ scenario: 'hang', label: 'stubborn' });
    const session = new AgentSession({ connection, cwd: world.cwd, broker: world.broker, agentId: 'fixture', policy: 'none', interactive: false, cancelGraceMs: 1000 });
    await connection.initialize();
    await session.open('new');
    const turn = session.prompt([text('ignore cancel')]).catch((e: unknown) => e);
    await waitFor(() => world.receivedCalls('session/prompt').length === 1, 'the prompt to arrive');
    await session.cancel();
    await waitFor(() => world.receivedCalls('session/cancel').length === 1, 'the cancel to arrive');
    const err = await turn;
    expect(err).toMatchObject({ name: 'SessionError', message: 'stubborn did not end the turn within 1 s of session/cancel and was stopped.' });
    expect(session.status).toMatchObject({ status: 'closed', reason: 'stubborn did not end the turn within 1 s of session/cancel and was stopped.' });
    await connection.close(); // the stop already under way (idempotent): wait for it
    expect(connection.process.exitInfo).toBeDefined();
    const records = await world.traceRecords(connection);
    expect(records.some((r) => r.kind === 'notice' && r.message.includes('session/cancel and was stopped'))).toBe(true);
    expect(records.some((r) => r.kind === 'exit' && r.expected === true)).toBe(true);
    expect(await orphansAfter(world.receivedLog)).toEqual([]);
  });

  it('a turn that ends within the grace period after cancel is not stopped', async () => {
    world = new FixtureWorld();
    const connection = await world.connect({ scenario: 'slow-stream' });
    const session = new AgentSession({ connection, cwd: world.cwd, broker: world.broker, agentId: 'fixture', policy: 'none', interactive: false, cancelGraceMs: 1000 });
    await connection.initialize();
    await session.open('new');
    const turn = session.prompt([text('stream')]);
    await waitFor(() => world.receivedCalls('session/prompt').length === 1, 'the prompt to arrive');
    await session.cancel();
    expect((await turn).stopReason).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 1200));
    expect(session.status.status).toBe('cancelled');
    expect(connection.process.exitInfo).toBeUndefined();
  });
});
