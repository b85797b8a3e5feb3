/**
 * Logging in to an agent through the core API, against the real fixture agent (auth-required
 * scenario): an agent-type `authenticate` before session/new, and a terminal login run in a real
 * PTY — the test types the code, the login writes the credential, exits 0, and the core starts the
 * agent again (new process, initialize) and opens the session it could not open before.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentAuthView, TerminalLoginExitEvent, TerminalLoginRetriedEvent, TerminalLoginView } from '../../../common/api/auth-types';
import type { EventName } from '../../../common/api/contract';
import type { LiveSessionSummary } from '../../../common/api/session-api-types';
import { FIXTURE_AGENT } from '../acp/test-support/fixture-world';
import { addCustomAgent } from '../agents/settings';
import { SecretStore } from '../agents/secrets';
import { createCore } from '../core';
import { readTraceFile } from '../history/trace-reader';
import { tempBase } from '../workspace/testing/git-repo';
import { SessionManager } from './session-manager';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SCENARIO = ['--scenario', 'auth-required', '--max-lifetime-ms', '120000'];
const SECRET = 'planted-secret-7f3a9c';

function world() {
  const t = tempBase('acpwb-auth-');
  cleanups.push(t.cleanup);
  const paths = { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') };
  const project = join(t.base, 'project');
  mkdirSync(project, { recursive: true });
  const events: Array<{ name: EventName; payload: unknown }> = [];
  const core = createCore({ host: 'test', paths });
  core.connect((name, payload) => events.push({ name, payload }));
  cleanups.push(() => core.dispose());
  const call = <T>(name: string, params: unknown) => core.handle(name, params) as Promise<T>;
  const output = (loginId: string) =>
    events
      .filter((e) => e.name === 'auth/terminal-output' && (e.payload as { loginId: string }).loginId === loginId)
      .map((e) => (e.payload as { data: string }).data)
      .join('');
  const exitOf = (loginId: string) => events.find((e) => e.name === 'auth/terminal-exit' && (e.payload as { loginId: string }).loginId === loginId)?.payload as TerminalLoginExitEvent | undefined;
  const retriedOf = (loginId: string) => events.find((e) => e.name === 'auth/terminal-retried' && (e.payload as { loginId: string }).loginId === loginId)?.payload as TerminalLoginRetriedEvent | undefined;
  return { t, paths, project, events, core, call, output, exitOf, retriedOf };
}

describe('authentication through the core API', () => {
  it('agent-type: session/new fails with auth_required listing the methods; authenticate, then the session opens and prompts', async () => {
    const w = world();
    const agent = { command: process.execPath, args: [FIXTURE_AGENT, ...SCENARIO], label: 'needs-login' };
    const err = (await w.call('sessions/start', { agent, cwd: w.project }).catch((e: unknown) => e)) as { code: string; message: string; data: AgentAuthView };
    expect(err.code).toBe('auth_required');
    expect(err.message).toMatch(/log in first/);
    expect(err.data.terminal).toEqual({ available: true });
    // The failed start was listed while starting, and is not any more.
    const lists = w.events.filter((e) => e.name === 'sessions/changed').map((e) => (e.payload as unknown[]).length);
    expect(lists).toEqual([1, 0]);
    expect(err.data.methods.map((m) => [m.id, m.kind])).toEqual([
      ['fixture-login', 'agent'],
      ['fixture-broken', 'agent'],
      ['fixture-terminal-login', 'terminal'],
    ]);
    // The terminal method's command is the agent's own launch + the method's args, with its env.
    expect(err.data.methods[2]!.command).toBe(`FIXTURE_LOGIN=1 ${process.execPath} ${FIXTURE_AGENT} ${SCENARIO.join(' ')} --login`);

    const broken = (await w.call('sessions/start', { agent, cwd: w.project, authMethodId: 'fixture-broken' }).catch((e: unknown) => e)) as { code: string; message: string };
    expect(broken.code).toBe('auth_required');
    expect(broken.message).toMatch(/logging in with "fixture-broken" failed: Authentication failed/);

    const summary = await w.call<LiveSessionSummary>('sessions/start', { agent, cwd: w.project, authMethodId: 'fixture-login' });
    expect(summary.status.status).toBe('ready');
    await w.call('session/prompt', { sessionId: summary.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    const { items } = await w.call<{ items: Array<{ kind: string; content?: Array<{ text?: string }> }> }>('session/entries', { sessionId: summary.sessionId, offset: 0, limit: 50 });
    expect(items.filter((e) => e.kind === 'agent_message').map((e) => e.content?.map((c) => c.text).join(''))).toEqual(['You are logged in.']);
    // The app promised terminal logins in initialize (a PTY is available here), in both spellings.
    const header = (await readTraceFile(summary.trace!)).header;
    expect(header?.clientCapabilities).toMatchObject({ auth: { terminal: true }, _meta: { 'terminal-auth': true } });
  });

  it('terminal-type: the login runs in a real PTY, the typed code logs in, and the session start is retried on a new agent process; the secret stays out of every trace', async () => {
    const w = world();
    const credential = join(w.t.base, 'credential.json');
    const custom = await addCustomAgent(w.paths.configDir, { name: 'Needs Login', command: process.execPath, args: [FIXTURE_AGENT, ...SCENARIO], env: { FIXTURE_CREDENTIAL_FILE: credential } });
    await (await SecretStore.open(w.paths.dataDir)).set(custom.id, 'FIXTURE_API_TOKEN', SECRET);
    const agent = { agentId: custom.id };

    const first = (await w.call('sessions/start', { agent, cwd: w.project }).catch((e: unknown) => e)) as { code: string; data: AgentAuthView };
    expect(first.code).toBe('auth_required');
    expect(first.data.methods.find((m) => m.kind === 'terminal')?.id).toBe('fixture-terminal-login');

    const login = await w.call<TerminalLoginView>('auth/terminal-start', { agent, cwd: w.project, methodId: 'fixture-terminal-login', cols: 100, rows: 30, retry: { agent, cwd: w.project } });
    expect(login.command).toMatch(/^FIXTURE_LOGIN=1 .*--login$/);
    await expect.poll(() => w.output(login.loginId), { timeout: 15_000 }).toContain('Paste code: ');
    // The method's env reached the login, and it runs on a terminal.
    expect(w.output(login.loginId)).toContain('Fixture login (FIXTURE_LOGIN=1, terminal: yes)');
    await w.call('auth/terminal-resize', { loginId: login.loginId, cols: 120, rows: 40 });
    await w.call('auth/terminal-input', { loginId: login.loginId, data: 'fixture-code-42\r' });

    await expect.poll(() => w.exitOf(login.loginId), { timeout: 20_000 }).toBeDefined();
    expect(w.exitOf(login.loginId)).toEqual({ loginId: login.loginId, exitCode: 0, signal: null, retrying: true });
    expect(w.output(login.loginId)).toContain('Logged in.');
    expect(existsSync(credential)).toBe(true);
    await expect.poll(() => w.retriedOf(login.loginId), { timeout: 20_000 }).toBeDefined();
    const retried = w.retriedOf(login.loginId)!;
    expect('session' in retried).toBe(true);
    const session = (retried as { session: LiveSessionSummary }).session;
    expect(session.status.status).toBe('ready');
    await w.call('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'hi' }] });

    // The retry is a new agent process, initialized again, that never sent authenticate.
    const trace = await readTraceFile(session.trace!);
    const sent = trace.records.filter((r) => r.kind === 'wire' && r.dir === 'out').map((r) => (r as { msg: { method?: string } }).msg.method);
    expect(sent).toContain('initialize');
    expect(sent).not.toContain('authenticate');
    expect(sent).toContain('session/new');
    // The secret went to the agent (its name is in the header, its value redacted) and to no trace.
    expect(JSON.stringify(trace.header?.launch)).toContain('FIXTURE_API_TOKEN');
    const traces = readdirSync(join(w.paths.dataDir, 'traces')).filter((f) => f.endsWith('.jsonl'));
    expect(traces.length).toBeGreaterThanOrEqual(2);
    for (const f of traces) expect(readFileSync(join(w.paths.dataDir, 'traces', f), 'utf8')).not.toContain(SECRET);
  });

  it('terminal-type: a wrong code exits non-zero, nothing is retried, the output says why', async () => {
    const w = world();
    const agent = { command: process.execPath, args: [FIXTURE_AGENT, ...SCENARIO], env: { FIXTURE_CREDENTIAL_FILE: join(w.t.base, 'cred') } };
    const login = await w.call<TerminalLoginView>('auth/terminal-start', { agent, cwd: w.project, methodId: 'fixture-terminal-login', cols: 80, rows: 24, retry: { agent, cwd: w.project } });
    await expect.poll(() => w.output(login.loginId), { timeout: 15_000 }).toContain('Paste code: ');
    await w.call('auth/terminal-input', { loginId: login.loginId, data: 'not-the-code\r' });
    await expect.poll(() => w.exitOf(login.loginId), { timeout: 15_000 }).toBeDefined();
    expect(w.exitOf(login.loginId)).toEqual({ loginId: login.loginId, exitCode: 1, signal: null });
    expect(w.output(login.loginId)).toContain('Wrong code; not logged in.');
    expect(w.events.filter((e) => e.name === 'auth/terminal-retried' || (e.name === 'sessions/changed' && (e.payload as unknown[]).length > 0))).toEqual([]);
  });

  it('terminal-type: a login killed from the UI ends with a signal', async () => {
    const w = world();
    const agent = { command: process.execPath, args: [FIXTURE_AGENT, ...SCENARIO], env: { FIXTURE_CREDENTIAL_FILE: join(w.t.base, 'cred') } };
    const login = await w.call<TerminalLoginView>('auth/terminal-start', { agent, cwd: w.project, methodId: 'fixture-terminal-login', cols: 80, rows: 24 });
    await expect.poll(() => w.output(login.loginId), { timeout: 15_000 }).toContain('Paste code: ');
    // Recorded in the process registry while it runs (reaped after a workbench crash), removed after.
    const registered = () => readdirSync(join(w.paths.dataDir, 'processes')).map((f) => readFileSync(join(w.paths.dataDir, 'processes', f), 'utf8')).join('');
    expect(registered()).toContain('"kind": "terminal-login"');
    await w.call('auth/terminal-kill', { loginId: login.loginId });
    await expect.poll(() => w.exitOf(login.loginId), { timeout: 15_000 }).toBeDefined();
    expect(w.exitOf(login.loginId)?.exitCode).toBeNull();
    expect(w.exitOf(login.loginId)?.signal).toBeGreaterThan(0);
    await expect.poll(() => (existsSync(join(w.paths.dataDir, 'processes')) ? registered() : '')).not.toContain('terminal-login');
    await expect(w.call('auth/terminal-start', { agent, cwd: w.project, methodId: 'fixture-login', cols: 80, rows: 24 })).rejects.toMatchObject({ code: 'bad_params', message: expect.stringMatching(/not a terminal login; use Authenticate/) });
  });

  it('a pane whose agent wants a login again on restart keeps its session, and a terminal login restarts it', async () => {
    const w = world();
    const credential = join(w.t.base, 'credential.json');
    writeFileSync(credential, '{}');
    const scenario = {
      initialize: { authMethods: [{ type: 'terminal', id: 'relogin', name: 'Log in again', args: ['--login'] }] },
      requireAuth: { methodIds: ['unused'], terminalLogin: { code: 'again' } },
      defaultPrompt: { steps: [{ crash: { exitCode: 3 } }] },
    };
    const agent = { command: process.execPath, args: [FIXTURE_AGENT, '--scenario-json', JSON.stringify(scenario)], env: { FIXTURE_CREDENTIAL_FILE: credential } };
    const first = await w.call<LiveSessionSummary>('sessions/start', { agent, cwd: w.project });
    await w.call('session/prompt', { sessionId: first.sessionId, prompt: [{ type: 'text', text: 'crash' }] }).catch(() => undefined);
    await expect.poll(async () => (await w.call<LiveSessionSummary[]>('sessions/live', undefined)).find((s) => s.sessionId === first.sessionId)?.status.status).toBe('crashed');

    rmSync(credential); // the login expired meanwhile
    const refused = (await w.call('session/restart', { sessionId: first.sessionId }).catch((e: unknown) => e)) as { code: string; data: AgentAuthView };
    expect(refused.code).toBe('auth_required');
    expect(refused.data.methods).toMatchObject([{ id: 'relogin', kind: 'terminal' }]);
    // The crashed session is still there for its pane to show the methods.
    expect((await w.call<LiveSessionSummary[]>('sessions/live', undefined)).map((s) => s.sessionId)).toEqual([first.sessionId]);

    const login = await w.call<TerminalLoginView>('auth/terminal-start', { sessionId: first.sessionId, methodId: 'relogin', cols: 80, rows: 24, restartSession: true });
    await expect.poll(() => w.output(login.loginId), { timeout: 15_000 }).toContain('Paste code: ');
    await w.call('auth/terminal-input', { loginId: login.loginId, data: 'again\r' });
    await expect.poll(() => w.retriedOf(login.loginId), { timeout: 20_000 }).toBeDefined();
    const retried = w.retriedOf(login.loginId) as { session: LiveSessionSummary };
    expect(retried.session.status.status).toBe('ready');
    // The new session is announced before the old one is closed (so its pane can hand over), so
    // the old one leaves the list a moment after.
    await expect.poll(async () => (await w.call<LiveSessionSummary[]>('sessions/live', undefined)).map((s) => s.sessionId), { timeout: 10_000 }).toEqual([retried.session.sessionId]);
  });

  it('without a PTY: terminal logins are not advertised, and starting one says so and gives the command to run by hand', async () => {
    const t = tempBase('acpwb-auth-nopty-');
    cleanups.push(t.cleanup);
    const project = join(t.base, 'project');
    mkdirSync(project);
    const manager = new SessionManager({
      paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') },
      host: 'test',
      emit: () => undefined,
      pty: async () => ({ available: false, reason: 'no terminal here' }),
    });
    cleanups.push(() => manager.dispose());
    const agent = { command: process.execPath, args: [FIXTURE_AGENT, ...SCENARIO] };
    const err = (await manager.start({ agent, cwd: project }).catch((e: unknown) => e)) as { code: string; data: AgentAuthView };
    expect(err.code).toBe('auth_required');
    expect(err.data.terminal).toEqual({ available: false, reason: 'no terminal here' });
    const refused = (await manager.auth.startTerminal({ agent, cwd: project, methodId: 'fixture-terminal-login', cols: 80, rows: 24 }).catch((e: unknown) => e)) as { code: string; message: string; hint: string };
    expect(refused.code).toBe('not_available');
    expect(refused.message).toBe('The app cannot run this login itself: no terminal here.');
    expect(refused.hint).toContain(`FIXTURE_LOGIN=1 ${process.execPath} ${FIXTURE_AGENT}`);
    const traces = readdirSync(join(t.base, 'data', 'traces'));
    const headers = await Promise.all(traces.map((f) => readTraceFile(join(t.base, 'data', 'traces', f))));
    for (const h of headers) expect(h.header?.clientCapabilities).not.toHaveProperty('auth');
  });
});
