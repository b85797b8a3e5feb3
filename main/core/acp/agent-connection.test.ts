/**
 * The ACP connection against the fixture agent, a real subprocess: what we advertise and send
 * (checked in the agent's received log), start-up failures, authentication, methods the agent does
 * not have, extension methods, and a stdout that is not clean.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NoiseRecord, OversizeRecord, TraceRecord } from '../../../common/trace/records';
import { entryList, type AgentMessageEntry } from '../../../common/transcript/model';
import { SessionError } from '../sessions/agent-session';
import { MethodUnavailableError } from './agent-capabilities';
import { AgentStartError } from './agent-start-error';
import { FixtureWorld, waitFor, type Json } from './test-support/fixture-world';

let world: FixtureWorld;
const worlds: FixtureWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.dispose()));
});
const fresh = () => worlds.push((world = new FixtureWorld()));

const agentText = (entries: ReturnType<typeof entryList>) =>
  entries
    .filter((e): e is AgentMessageEntry => e.kind === 'agent_message')
    .flatMap((e) => e.content.map((c) => (c.type === 'text' ? c.text : '')))
    .join('');

describe('initialize', () => {
  it('advertises exactly the default capabilities, as an integer protocol version 1', async () => {
    fresh();
    const conn = await world.connect();
    const init = await conn.initialize();
    expect(init.protocolVersion).toBe(1);
    const [sent] = world.receivedCalls('initialize');
    expect(sent!.params).toEqual({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, session: { configOptions: { boolean: {} } } },
      clientInfo: { name: 'acp-workbench', title: 'ACP Workbench', version: expect.any(String) },
    });
    const records = await world.traceRecords(conn);
    expect(records[0]).toMatchObject({ kind: 'spawn', pid: conn.process.pid });
  });

  it('advertises exactly what is switched on, and refuses the agent what is switched off', async () => {
    fresh();
    const conn = await world.connect({
      switches: { readTextFile: false, terminal: false, booleanConfigOptions: false, terminalAuth: true, elicitationForm: true },
      scenario: {
        defaultPrompt: {
          steps: [
            { readFile: { path: 'a.txt' }, onError: [{ text: 'read refused' }] },
            { terminal: { command: 'true' }, onError: [{ text: 'terminal refused' }] },
          ],
        },
      },
    });
    const session = world.sessionOn(conn);
    await conn.initialize();
    const [sent] = world.receivedCalls('initialize');
    expect((sent!.params as Json).clientCapabilities).toEqual({
      fs: { readTextFile: false, writeTextFile: true },
      terminal: false,
      auth: { terminal: true },
      _meta: { 'terminal-auth': true },
      elicitation: { form: {} },
    });
    await session.open();
    await session.prompt([{ type: 'text', text: 'go' }]);
    expect(agentText(entryList(session.transcript))).toBe('read refusedterminal refused');
    for (const method of ['fs/read_text_file', 'terminal/create']) {
      const [answer] = await world.answerTo(conn, method);
      expect(answer!.error).toMatchObject({ code: -32601 });
    }
  });

  it('disconnects with a clear error from an agent that answers protocol version 2', async () => {
    fresh();
    const conn = await world.connect({ scenario: { initialize: { protocolVersion: 2 } } });
    const err = await conn.initialize().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentStartError);
    expect((err as AgentStartError).phase).toBe('protocol-version');
    expect((err as Error).message).toMatch(/^fixture: speaks a protocol version the workbench does not: it answered version 2, the workbench speaks 1/);
    const exit = await conn.process.exited;
    expect(exit.code).toBe(0); // stdin closed: it stopped because we disconnected
    expect(world.received().map((r) => r.message?.method)).toEqual(['initialize']);
    const notices = (await world.traceRecords(conn)).filter((r) => r.kind === 'notice');
    expect(notices.map((n) => (n as { message: string }).message)).toEqual([expect.stringContaining('protocol version 2')]);
  });

  it('times out naming the agent, the phase and the tail of its stderr', async () => {
    fresh();
    const conn = await world.connect({
      label: 'slowpoke',
      startupTimeoutMs: 1500,
      scenario: { startup: [{ stderr: 'loading 40 GB of weights...' }], initialize: { delayMs: 100_000 } },
    });
    // The line is there before the clock starts, however slow the machine is.
    await waitFor(() => conn.stderrTail().includes('loading 40 GB of weights...'), 'the stderr line');
    const err = (await conn.initialize().catch((e: unknown) => e)) as AgentStartError;
    expect(err).toBeInstanceOf(AgentStartError);
    expect(err.phase).toBe('timeout');
    expect(err.message).toMatch(/^slowpoke: did not answer in time: no answer to initialize within 1.5 s/);
    expect(err.message).toContain('Last lines of its stderr:\n');
    expect(err.stderrTail).toContain('loading 40 GB of weights...');
  });

  it('reports an agent that exits during start-up, with its stderr', async () => {
    fresh();
    const conn = await world.connect({ scenario: { startup: [{ stderr: 'fatal: no config file' }, { crash: { exitCode: 2 } }] } });
    const err = (await conn.initialize().catch((e: unknown) => e)) as AgentStartError;
    expect(err.phase).toBe('exited');
    expect(err.message).toContain('exit code 2');
    expect(err.stderrTail).toContain('fatal: no config file');
  });

  it('reports an initialize error with its code and data', async () => {
    fresh();
    const conn = await world.connect({
      scenario: { initialize: { error: { code: -32022, message: 'Unsupported protocol version', data: { requested: 1, supported: [2] } } } },
    });
    const err = (await conn.initialize().catch((e: unknown) => e)) as AgentStartError;
    expect(err.phase).toBe('initialize');
    expect(err.message).toContain('Unsupported protocol version [-32022] ({"requested":1,"supported":[2]})');
  });
});

describe('authentication', () => {
  it('turns -32000 from session/new into an error listing the auth methods, then authenticates and opens', async () => {
    fresh();
    const conn = await world.connect({ scenario: 'auth-required' });
    const session = world.sessionOn(conn);
    await conn.initialize();
    const err = (await session.open().catch((e: unknown) => e)) as SessionError;
    expect(err).toBeInstanceOf(SessionError);
    expect(err.code).toBe('auth_required');
    expect(err.message).toContain('Authentication required [-32000]');
    expect(err.message).toContain('fixture-login (Log in to Fixture; authenticate)');
    expect(err.message).toContain('fixture-terminal-login (Log in in a terminal; terminal login)');
    expect(err.authMethods.map((m) => m.id)).toEqual(['fixture-login', 'fixture-broken', 'fixture-terminal-login']);
    expect(session.status.status).toBe('starting');

    // Terminal logins and unknown ids are never sent; a failing agent-type login says why.
    await expect(conn.authenticate('fixture-terminal-login')).rejects.toThrow(/terminal login, run outside the connection/);
    await expect(conn.authenticate('no-such-method')).rejects.toThrow(/has no authentication method "no-such-method"/);
    await expect(conn.authenticate('fixture-broken')).rejects.toMatchObject({ code: -32000 });
    await conn.authenticate('fixture-login');
    expect(world.receivedCalls('authenticate').map((m) => (m.params as Json).methodId)).toEqual(['fixture-broken', 'fixture-login']);

    await session.open();
    expect(session.status.status).toBe('ready');
    const response = await session.prompt([{ type: 'text', text: 'hi' }]);
    expect(response.stopReason).toBe('end_turn');
    expect(agentText(entryList(session.transcript))).toBe('You are logged in.');
  });
});

describe('methods the agent does not have', () => {
  it('sends session/list and session/delete only when advertised, and remembers a -32601', async () => {
    fresh();
    // Advertises list (but has no handler: -32601) and not delete.
    const conn = await world.connect({ scenario: { initialize: { agentCapabilities: { sessionCapabilities: { list: {} } } } } });
    await conn.initialize();
    await expect(conn.deleteSession('s-1')).rejects.toMatchObject({ name: 'MethodUnavailableError', reason: 'not_advertised' });
    await expect(conn.listSessions()).rejects.toMatchObject({ code: -32601 });
    expect(conn.isUnsupported('session/list')).toBe(true);
    const again = await conn.listSessions().catch((e: unknown) => e);
    expect(again).toBeInstanceOf(MethodUnavailableError);
    expect((again as MethodUnavailableError).reason).toBe('unsupported');
    expect(world.receivedCalls('session/list')).toHaveLength(1);
    expect(world.receivedCalls('session/delete')).toHaveLength(0);
  });

  it('answers unknown extension requests -32601 and keeps unknown notifications in the trace', async () => {
    fresh();
    const conn = await world.connect({
      scenario: {
        defaultPrompt: {
          steps: [
            { request: { method: '_vendor.example/workspace', params: { q: 1 } }, onError: [{ text: 'ext refused;' }], onSuccess: [{ text: 'ext answered;' }] },
            { notify: { method: '_vendor.example/progress', params: { pct: 50 } } },
            { notify: { method: 'vendor/unknown_event', params: {} } },
            { request: { method: 'elicitation/create', params: { sessionId: '{{sessionId}}', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } } }, onError: [{ text: 'elicitation refused' }] },
          ],
        },
      },
    });
    const session = world.sessionOn(conn);
    await conn.initialize();
    await session.open();
    await session.prompt([{ type: 'text', text: 'go' }]);
    expect(agentText(entryList(session.transcript))).toBe('ext refused;elicitation refused');
    const [ext] = await world.answerTo(conn, '_vendor.example/workspace');
    expect(ext!.error).toMatchObject({ code: -32601 });
    const [elicitation] = await world.answerTo(conn, 'elicitation/create');
    expect(elicitation!.error).toMatchObject({ code: -32601 });
    const records = await world.traceRecords(conn);
    const inbound = records.filter((r) => r.kind === 'wire' && r.dir === 'in').map((r) => (r as { msg: Json }).msg);
    expect(inbound).toContainEqual({ jsonrpc: '2.0', method: '_vendor.example/progress', params: { pct: 50 } });
    expect(inbound).toContainEqual({ jsonrpc: '2.0', method: 'vendor/unknown_event', params: {} });
  });
});

describe('a stdout that is not clean', () => {
  it('records noise lines in the trace and never answers them with -32700', async () => {
    fresh();
    const session = await world.session({ scenario: 'noise' });
    const response = await session.prompt([{ type: 'text', text: 'go' }]);
    expect(response.stopReason).toBe('end_turn');
    expect(agentText(entryList(session.transcript))).toBe('Before the noise. After the noise.');
    const records = await world.traceRecords(session.connection);
    const noise = records.filter((r): r is NoiseRecord => r.kind === 'noise');
    const texts = noise.map((n) => ('text' in n ? n.text : `base64:${n.base64}`));
    expect(texts).toEqual([
      'Fixture Agent v1.0 - starting up (this banner is stdout noise)',
      'DEBUG: this log line leaked to stdout',
      '\u001b[32mcoloured progress 50%\u001b[0m',
      'base64:/v8gbm90IHV0Zi04IMOo',
      '{"jsonrpc":"2.0","method":"session/update","params":{"truncated":',
    ]);
    const answers = world.receivedResponses();
    expect(answers.filter((m) => m.id === null || (m.error as Json | undefined)?.code === -32700)).toEqual([]);
    expect(world.received().filter((r) => r.error !== undefined)).toEqual([]);
  });

  it('survives a 40 MiB line: an oversize record, and the connection stays usable', async () => {
    fresh();
    const session = await world.session({ scenario: 'huge-line' });
    const first = await session.prompt([{ type: 'text', text: 'one' }]);
    expect(first.stopReason).toBe('end_turn');
    const second = await session.prompt([{ type: 'text', text: 'two' }]);
    expect(second.stopReason).toBe('end_turn');
    const records = await world.traceRecords(session.connection);
    const oversize = records.filter((r): r is OversizeRecord => r.kind === 'oversize');
    expect(oversize.map((r) => r.length)).toEqual([41943040, 41943040]);
    expect(oversize[0]!.head.startsWith('{"jsonrpc":"2.0"')).toBe(true);
    // The 1 MiB non-JSON line is noise, under the limit, kept whole.
    const noise = records.filter((r): r is NoiseRecord => r.kind === 'noise');
    expect(noise.map((n) => ('text' in n ? n.text.length : -1))).toEqual([1048576, 1048576]);
    expect(agentText(entryList(session.transcript))).toBe('still herestill here');
    const notices = entryList(session.transcript).filter((e) => e.kind === 'notice');
    expect(notices).toHaveLength(2);
  }, 60_000);
});

describe('an agent that crashes mid-turn', () => {
  it('rejects every pending request, marks the session crashed and keeps the stderr tail', async () => {
    fresh();
    const session = await world.session({
      scenario: {
        methods: { '_fixture/slow': { noAnswer: true } },
        defaultPrompt: { steps: [{ text: 'Working' }, { stderr: 'panic: out of cheese' }, { delay: 50 }, { crash: { exitCode: 3 } }] },
      },
    });
    const conn = session.connection;
    const pendingExt = conn.request('_fixture/slow', {});
    const turn = session.prompt([{ type: 'text', text: 'go' }]);
    const [extErr, turnErr] = await Promise.all([pendingExt.catch((e: unknown) => e), turn.catch((e: unknown) => e)]);
    expect(extErr).toBeInstanceOf(Error);
    expect(turnErr).toBeInstanceOf(SessionError);
    expect((turnErr as SessionError).code).toBe('crashed');
    expect((turnErr as Error).message).toBe('fixture exited during the turn (exit code 3)');
    await waitFor(() => session.status.status === 'crashed', 'crashed status');
    expect(session.status.reason).toBe('The agent exited (exit code 3).');
    expect(session.status.stderrTail).toContain('panic: out of cheese');
    await expect(session.prompt([{ type: 'text', text: 'again' }])).rejects.toMatchObject({ code: 'crashed' });

    const entries = entryList(session.transcript);
    const error = entries.find((e) => e.kind === 'error');
    expect(error).toMatchObject({ source: 'exit', stderrTail: expect.arrayContaining(['panic: out of cheese']) });
    expect(entries.at(-1)).toMatchObject({ kind: 'turn_end', stopReason: null });
    const records: TraceRecord[] = await world.traceRecords(conn);
    expect(records.filter((r) => r.kind === 'exit')).toEqual([expect.objectContaining({ code: 3, signal: null })]);
  });
});

describe('a trace the disk does not take', () => {
  it('says so in the session, keeps every line and tries again by itself, and says when it is written again', async () => {
    fresh();
    const session = await world.session({ scenario: { defaultPrompt: { steps: [{ text: 'sent while the disk was full' }] } } });
    const conn = session.connection;
    type Write = (...args: unknown[]) => Promise<unknown>;
    const file = (conn.trace as unknown as { file: { write: Write; writev: Write } }).file;
    const write = file.write.bind(file);
    const writev = file.writev.bind(file);
    let full = true;
    const refuse = () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    file.write = (...args) => (full ? refuse() : write(...args));
    file.writev = (...args) => (full ? refuse() : writev(...args));
    await session.prompt([{ type: 'text', text: 'go' }]);
    const notices = () => entryList(session.transcript).filter((e) => e.kind === 'notice') as Array<{ severity: string; title: string }>;
    await waitFor(() => notices().length > 0, 'the notice that the trace cannot be written');
    expect(notices()[0]).toMatchObject({ severity: 'error', title: expect.stringMatching(/record cannot be written \(ENOSPC: no space left on device, write\) to .*\.jsonl\..*Free some disk space/) });
    // Said once, however many retries fail.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(notices()).toHaveLength(1);
    full = false;
    await waitFor(() => notices().length === 2, 'the notice that it is written again');
    expect(notices()[1]).toMatchObject({ severity: 'info', title: expect.stringMatching(/written again/) });
    const records = await world.traceRecords(conn);
    expect(records.some((r) => r.kind === 'wire' && JSON.stringify(r.msg).includes('sent while the disk was full'))).toBe(true);
    expect(records.filter((r) => r.kind === 'notice').map((r) => (r as { severity: string }).severity)).toEqual(['error', 'info']);
  });
});

describe('close', () => {
  it('resolves only once the process registry no longer lists its agent: nothing is written to the data folder after the last one', async () => {
    fresh();
    // Connections of one process share the registry's file: each close rewrites it.
    const conns = await Promise.all([world.connect(), world.connect(), world.connect()]);
    await Promise.all(conns.map((c) => c.initialize()));
    await conns[0]!.registry.flushed();
    const registryDir = join(world.dataDir, 'processes');
    expect(readdirSync(registryDir)).toHaveLength(1);
    await Promise.all(conns.map((c) => c.close()));
    // Not waited for: the file is gone when the closes resolve, and a folder removed now stays removed.
    expect(readdirSync(registryDir)).toEqual([]);
    rmSync(world.dataDir, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(world.dataDir)).toBe(false);
  });
});

describe('QA hooks', () => {
  it('onRecord sees every record after it is traced, in order, with its trace line', async () => {
    fresh();
    const conn = await world.connect({ scenario: { startup: [{ noise: 'banner' }, { stderr: 'hello on stderr' }] } });
    const seen: Array<{ kind: string; line: number; bytes: number | undefined }> = [];
    const sub = conn.onRecord((record, line, msgBytes) => seen.push({ kind: record.kind, line, bytes: msgBytes?.length }));
    const session = world.sessionOn(conn);
    await conn.initialize();
    await session.open();
    await session.prompt([{ type: 'text', text: 'hi' }]);
    sub.dispose();
    const records = await world.traceRecords(conn);
    // The spawn record came before the subscription; everything after it was seen, at its own line.
    const from = records.length - seen.length;
    expect(seen.map((s) => s.kind)).toEqual(records.slice(from).map((r) => r.kind));
    expect(seen.map((s) => s.line)).toEqual(records.slice(from).map((_, i) => from + i + 2));
    const answer = seen.find((s, i) => s.kind === 'wire' && records[from + i]!.kind === 'wire' && (records[from + i] as { dir: string }).dir === 'in');
    expect(answer?.bytes).toBeGreaterThan(10);
    const count = seen.length;
    await conn.request('session/list', {}).catch(() => undefined);
    expect(seen.length).toBe(count); // disposed: no more calls
  });

  it('asks the fault hook first: an answer, an error, or the normal handler after it', async () => {
    fresh();
    const conn = await world.connect({
      scenario: {
        defaultPrompt: {
          steps: [
            { readFile: { path: 'a.txt' }, report: true, onError: [{ text: 'read failed;' }] },
            { request: { method: '_vendor/ext', params: {} }, report: true, onError: [{ text: 'ext failed;' }] },
            { readFile: { path: 'b.txt' }, report: true, onError: [{ text: 'read b failed;' }] },
          ],
        },
      },
    });
    const calls: Array<[string, boolean]> = [];
    conn.faults = {
      intercept(method, params, request) {
        calls.push([method, request.implemented]);
        const path = (params as { path?: string }).path ?? '';
        if (path.endsWith('a.txt')) return Promise.resolve({ answer: { content: 'from the hook' } });
        if (method === '_vendor/ext') return Promise.resolve({ answer: { ok: 1 } });
        return Promise.resolve(undefined); // the normal handler: b.txt does not exist
      },
    };
    const session = world.sessionOn(conn);
    await conn.initialize();
    await session.open();
    await session.prompt([{ type: 'text', text: 'go' }]);
    expect(calls).toEqual([
      ['fs/read_text_file', true],
      ['_vendor/ext', false],
      ['fs/read_text_file', true],
    ]);
    const text = agentText(entryList(session.transcript));
    expect(text).toContain('from the hook');
    expect(text).toContain('"ok":1');
    expect(text).toContain('read b failed;');
  });

  it('requestUnchecked marks the wire record, and sends a method answered -32601 again only when asked', async () => {
    fresh();
    const conn = await world.connect();
    await conn.initialize();
    await expect(conn.requestUnchecked('_nope/x', {})).rejects.toMatchObject({ code: -32601 });
    await expect(conn.requestUnchecked('_nope/x', {})).rejects.toBeInstanceOf(MethodUnavailableError);
    await expect(conn.requestUnchecked('_nope/x', { a: 1 }, { again: true })).rejects.toMatchObject({ code: -32601 });
    expect(world.receivedCalls('_nope/x')).toHaveLength(2);
    const sent = (await world.traceRecords(conn)).filter((r) => r.kind === 'wire' && r.dir === 'out' && r.msg.method === '_nope/x');
    expect(sent.map((r) => (r as { unchecked?: boolean }).unchecked)).toEqual([true, true]);
  });
});
