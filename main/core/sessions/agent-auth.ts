/**
 * Logging in to agents from the app (acp-reference §13): which methods an agent offers, an
 * `agent`-type login (`authenticate`), and terminal logins run in a PTY. A terminal login that
 * exits 0 is followed, when asked, by the session start that needed it: a new agent process,
 * initialized again, so it sees the credential the login left behind.
 *
 * Nothing of a login reaches a trace: its output goes to the UI only (it may echo tokens), and the
 * probe connections redact secret env values in their trace headers like every connection.
 */
import type { AuthMethod } from '@agentclientprotocol/sdk/unstable';
import type { EventName, PayloadOf } from '../../../common/api/contract';
import type {
  AgentAuthParams,
  AgentAuthView,
  AuthenticateParams,
  AuthMethodView,
  TerminalLoginAvailability,
  TerminalLoginExitEvent,
  TerminalLoginStartParams,
  TerminalLoginView,
} from '../../../common/api/auth-types';
import { ApiError, toApiErrorShape } from '../../../common/api/errors';
import type { AgentChoice, LiveSessionSummary, StartSessionParams } from '../../../common/api/session-api-types';
import { newId } from '../../../common/trace/ids';
import { AgentConnection } from '../acp/agent-connection';
import { ProcessRegistry } from '../acp/process-registry';
import { describeAuthMethods, isAgentAuthMethod } from '../acp/auth-methods';
import { describeRpcError } from '../acp/agent-start-error';
import { loadPty, type PtyStatus } from '../agents/auth/pty';
import { isTerminalLoginMethod, TerminalLogin, terminalLoginCommand, type LoginExit } from '../agents/auth/terminal-login';
import type { AgentLaunch } from './start-session';

type Emit = <E extends EventName>(name: E, payload: PayloadOf<E>) => void;

export interface AgentAuthOptions {
  dataDir: string;
  host: string;
  emit: Emit;
  /** Agent choice → the launch the app uses for ACP (the session manager's). */
  resolve(choice: AgentChoice, cwd: string): Promise<AgentLaunch>;
  /** Start a session (the retry after a terminal login). */
  startSession(params: StartSessionParams): Promise<LiveSessionSummary>;
  /** A live session's start parameters (a login for the agent of a pane). */
  sessionParams(sessionId: string): StartSessionParams;
  /** Restart a live session's agent (the retry after a terminal login from a pane). */
  restartSession(sessionId: string, onOpened: (fresh: LiveSessionSummary) => void): Promise<LiveSessionSummary>;
  /** The PTY module (tests swap it); default: @lydell/node-pty. */
  pty?: () => Promise<PtyStatus>;
  startupTimeoutMs?: number;
}

interface RunningLogin {
  login: TerminalLogin;
  view: TerminalLoginView;
}

export class AgentAuth {
  /** The auth methods each agent (by launch agentId) last listed in `initialize`. */
  private readonly known = new Map<string, AuthMethod[]>();
  private readonly logins = new Map<string, RunningLogin>();

  constructor(private readonly options: AgentAuthOptions) {}

  private pty(): Promise<PtyStatus> {
    return (this.options.pty ?? loadPty)();
  }

  async availability(): Promise<TerminalLoginAvailability> {
    const status = await this.pty();
    return status.available ? { available: true } : { available: false, reason: status.reason };
  }

  /** What a session start learnt from `initialize`, kept so a terminal login needs no second start. */
  remember(agentId: string, methods: readonly AuthMethod[]): void {
    this.known.set(agentId, [...methods]);
  }

  /** The view the UI shows: every method with how it is used. */
  async view(launch: AgentLaunch, methods: readonly AuthMethod[], cwd: string): Promise<AgentAuthView> {
    return { agent: launch.label, methods: methods.map((m) => methodView(m, launch, cwd)), terminal: await this.availability() };
  }

  /** `agents/auth-methods`: start the agent, initialize, read its methods, stop it. */
  async methods(p: AgentAuthParams): Promise<AgentAuthView> {
    const { cwd, launch } = await this.target(p);
    const methods = await this.withConnection(launch, cwd, async (conn) => [...(conn.init?.authMethods ?? [])]);
    this.remember(launch.agentId, methods);
    return this.view(launch, methods, cwd);
  }

  /** `agents/authenticate`: an agent-type login on a fresh connection (kept by agents that store it). */
  async authenticate(p: AuthenticateParams): Promise<void> {
    const { cwd, launch } = await this.target(p);
    const methodId = need(p.methodId, 'methodId');
    await this.withConnection(launch, cwd, async (conn) => {
      try {
        await conn.authenticate(methodId);
      } catch (err) {
        const why = err instanceof Error && !('code' in err) ? err.message : describeRpcError(err);
        throw new ApiError({ code: 'agent_failed', message: `${launch.label}: logging in with "${methodId}" failed: ${why}` });
      }
    });
  }

  /** `auth/terminal-start`: run the method's login in a PTY; its output and exit come as events. */
  async startTerminal(p: TerminalLoginStartParams): Promise<TerminalLoginView> {
    const methodId = need(p?.methodId, 'methodId');
    const { cwd, launch } = await this.target(p);
    if (p.restartSession && !p.sessionId) throw new ApiError({ code: 'bad_params', message: 'restartSession needs the sessionId of the session to restart' });
    let methods = this.known.get(launch.agentId);
    if (!methods?.some((m) => m.id === methodId)) {
      methods = await this.withConnection(launch, cwd, async (conn) => [...(conn.init?.authMethods ?? [])]);
      this.remember(launch.agentId, methods);
    }
    const method = methods.find((m) => m.id === methodId);
    if (!method) throw new ApiError({ code: 'bad_params', message: `${launch.label} offers no authentication method "${methodId}"; it offers: ${describeAuthMethods(methods)}` });
    const cmd = terminalLoginCommand(launch, method, cwd);
    if (!cmd) throw new ApiError({ code: 'bad_params', message: `"${methodId}" of ${launch.label} is not a terminal login; use Authenticate for it` });
    const status = await this.pty();
    if (!status.available) {
      throw new ApiError({
        code: 'not_available',
        message: `The app cannot run this login itself: ${status.reason}.`,
        hint: `Run it in your own terminal, then start the session again:\n${cmd.display}`,
        data: { command: cmd.display },
      });
    }
    const loginId = newId();
    const view: TerminalLoginView = { loginId, methodId, command: cmd.display };
    const login = TerminalLogin.start(status.pty, cmd, { cols: p.cols, rows: p.rows }, {
      onData: (data) => this.options.emit('auth/terminal-output', { loginId, data }),
      onExit: (exit) => {
        // A pane's session: the retried event goes out as soon as the new session is open, before
        // the old one (whose view shows this login) is closed.
        const retry = p.restartSession && p.sessionId
          ? () => this.options.restartSession(p.sessionId!, (session) => this.options.emit('auth/terminal-retried', { loginId, session }))
          : p.retry
            ? () => this.options.startSession(p.retry!).then((session) => this.options.emit('auth/terminal-retried', { loginId, session }))
            : undefined;
        void this.finished(loginId, exit, retry);
      },
    });
    this.logins.set(loginId, { login, view });
    // Recorded like agents and terminals, so a crashed workbench's leftover login is reaped at the next start.
    // A PTY child leads its own session, hence its own process group.
    const registry = new ProcessRegistry(this.options.dataDir);
    try {
      registry.register({ pid: login.pid, pgid: process.platform === 'win32' ? null : login.pid, command: cmd.command, kind: 'terminal-login' });
      void login.exited.then(() => registry.unregister(login.pid));
    } catch {
      // The registry is a safety net for crashes; a login still works without it.
    }
    return view;
  }

  input(loginId: string, data: string): void {
    if (typeof data !== 'string') throw new ApiError({ code: 'bad_params', message: 'auth/terminal-input needs { loginId, data: string }' });
    this.get(loginId).login.write(data);
  }

  resize(loginId: string, cols: number, rows: number): void {
    this.get(loginId).login.resize(cols, rows);
  }

  kill(loginId: string): void {
    this.get(loginId).login.kill();
  }

  /** Stop every login still running (app quit). */
  async dispose(): Promise<void> {
    const running = [...this.logins.values()].filter((l) => !l.login.exit);
    for (const l of running) l.login.kill();
    await Promise.all(running.map((l) => l.login.exited));
  }

  private async finished(loginId: string, exit: LoginExit, retry: (() => Promise<unknown>) | undefined): Promise<void> {
    const retrying = exit.exitCode === 0 && retry !== undefined;
    const event: TerminalLoginExitEvent = { loginId, exitCode: exit.exitCode, signal: exit.signal, ...(retrying ? { retrying } : {}) };
    this.options.emit('auth/terminal-exit', event);
    if (!retrying) return;
    try {
      await retry!();
    } catch (err) {
      this.options.emit('auth/terminal-retried', { loginId, error: toApiErrorShape(err) });
    }
  }

  private get(loginId: string): RunningLogin {
    const login = this.logins.get(need(loginId, 'loginId'));
    if (!login) throw new ApiError({ code: 'not_found', message: `No terminal login ${loginId}`, hint: 'It may belong to an earlier run of the app; start the login again.' });
    return login;
  }

  /** The agent a request names (a choice, or a live session's) and the folder it starts in. */
  private async target(p: AgentAuthParams | undefined): Promise<{ cwd: string; launch: AgentLaunch }> {
    if (p?.sessionId) {
      const params = this.options.sessionParams(p.sessionId);
      return { cwd: params.cwd, launch: await this.options.resolve(params.agent, params.cwd) };
    }
    const cwd = p?.cwd || this.options.dataDir;
    return { cwd, launch: await this.options.resolve(need(p?.agent, 'agent'), cwd) };
  }

  /** A short-lived connection (traced like any): start, initialize, run `fn`, stop. */
  private async withConnection<T>(launch: AgentLaunch, cwd: string, fn: (conn: AgentConnection) => Promise<T>): Promise<T> {
    const terminalAuth = (await this.availability()).available && launch.switches?.terminalAuth !== false;
    let conn: AgentConnection | undefined;
    try {
      conn = await AgentConnection.start({
        command: launch.command,
        args: launch.args,
        cwd: launch.cwd ?? cwd,
        env: launch.env,
        ...(launch.secretEnvNames?.length ? { secretEnvNames: launch.secretEnvNames } : {}),
        agent: { id: launch.agentId, name: launch.label, label: launch.label },
        dataDir: this.options.dataDir,
        switches: { ...launch.switches, terminalAuth },
        host: this.options.host,
        ...(this.options.startupTimeoutMs !== undefined ? { startupTimeoutMs: this.options.startupTimeoutMs } : {}),
      });
      await conn.initialize();
      return await fn(conn);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError({ code: 'agent_failed', message: err instanceof Error ? err.message : String(err), hint: 'Check the command and its environment, then retry.' });
    } finally {
      await conn?.close();
    }
  }
}

export function methodView(m: AuthMethod, launch: AgentLaunch, cwd: string): AuthMethodView {
  const type = (m as { type?: unknown }).type;
  const terminal = isTerminalLoginMethod(m);
  const command = terminal ? terminalLoginCommand(launch, m, cwd)?.display : undefined;
  return {
    id: m.id,
    name: m.name,
    ...(m.description ? { description: m.description } : {}),
    kind: terminal ? 'terminal' : isAgentAuthMethod(m) ? 'agent' : 'other',
    ...(typeof type === 'string' ? { type } : {}),
    ...(command ? { command } : {}),
  };
}

function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null || value === '') throw new ApiError({ code: 'bad_params', message: `missing ${what}` });
  return value;
}
