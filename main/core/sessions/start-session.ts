/**
 * Start an agent and open a session on it: spawn + trace, `initialize`, `session/new` (or load /
 * resume / fork). One function for the CLI, the UI and compare runs, so every surface starts
 * agents the same way and fails with the same readable errors.
 */
import { join } from 'node:path';
import type { InitializeResponse, McpServer } from '@agentclientprotocol/sdk/unstable';
import type { Lineage, TraceRecord } from '../../../common/trace/records';
import { AgentConnection } from '../acp/agent-connection';
import { selectMcpServers } from '../agents/mcp';
import type { McpServerSettings } from '../agents/settings-schema';
import type { ClientCapabilitySwitches } from '../acp/client-capabilities';
import { authMethodsOf, describeAuthMethods } from '../acp/auth-methods';
import { describeRpcError } from '../acp/agent-start-error';
import { AgentSession, SessionError, type OpenHow } from './agent-session';
import type { ApprovePolicy } from './permission-chain';
import type { ElicitationQueue } from './elicitation-queue';
import type { PermissionBroker } from './permission-broker';

export interface AgentLaunch {
  command: string;
  args: readonly string[];
  /** The agent's whole environment. */
  env: NodeJS.ProcessEnv;
  /** Where the process starts; defaults to the session cwd. */
  cwd?: string;
  /** Shown in errors, events and panes. */
  label: string;
  /** Catalog id, or the command for ad-hoc agents ("always" answers are remembered per agent). */
  agentId: string;
  /** The agent's own capability switches (catalog defaults and settings overrides). */
  switches?: Partial<ClientCapabilitySwitches>;
  /** Env names from the secret store: their values never reach the trace header. */
  secretEnvNames?: readonly string[];
}

export interface StartSessionOptions {
  launch: AgentLaunch;
  sessionCwd: string;
  additionalDirectories?: string[];
  dataDir: string;
  broker: PermissionBroker;
  elicitations?: ElicitationQueue;
  policy: ApprovePolicy;
  interactive: boolean;
  /** fs reads/writes of sensitive files allowed without asking (AgentSessionOptions.allowSensitiveFiles). */
  allowSensitiveFiles?: boolean;
  switches?: Partial<ClientCapabilitySwitches>;
  mcpServers?: McpServer[];
  /** The MCP servers of the settings: each goes to the agent when it supports the server's transport. */
  mcpServerSettings?: readonly McpServerSettings[];
  lineage?: Lineage;
  host?: string;
  startupTimeoutMs?: number;
  open?: { how: OpenHow; agentSessionId?: string };
  /** `authenticate` with this agent-type method after `initialize`, before the session is opened. */
  authenticate?: string;
  /** The recorded transcript a resume or fork starts from, and whether load's replay is kept out (AgentSession). */
  seed?: readonly TraceRecord[];
  hideReplay?: boolean;
  /** Opens the session instead of `open` (a resume that falls back from resume to load to a new session). */
  openWith?: (session: AgentSession, init: InitializeResponse) => Promise<void>;
  /** Called once the connection exists, before initialize (e.g. to show progress). */
  onConnection?: (connection: AgentConnection) => void;
  /** Called once the session runtime exists, before initialize: subscribe here to see every record. */
  onSession?: (session: AgentSession) => void;
  /** Called when `initialize` succeeded, before the session is opened (which may still fail, e.g. on auth). */
  onInitialized?: (init: InitializeResponse) => void;
}

export async function startAgentSession(options: StartSessionOptions): Promise<AgentSession> {
  const { launch } = options;
  const connection = await AgentConnection.start({
    command: launch.command,
    args: launch.args,
    cwd: launch.cwd ?? options.sessionCwd,
    env: launch.env,
    ...(launch.secretEnvNames?.length ? { secretEnvNames: launch.secretEnvNames } : {}),
    agent: { id: launch.agentId, name: launch.label, label: launch.label },
    dataDir: options.dataDir,
    ...(options.switches || launch.switches ? { switches: { ...launch.switches, ...options.switches } } : {}),
    ...(options.lineage ? { lineage: options.lineage } : {}),
    ...(options.host ? { host: options.host } : {}),
    ...(options.startupTimeoutMs !== undefined ? { startupTimeoutMs: options.startupTimeoutMs } : {}),
  });
  options.onConnection?.(connection);
  const session = new AgentSession({
    connection,
    cwd: options.sessionCwd,
    ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    broker: options.broker,
    ...(options.elicitations ? { elicitations: options.elicitations } : {}),
    agentId: launch.agentId,
    policy: options.policy,
    interactive: options.interactive,
    ...(options.allowSensitiveFiles ? { allowSensitiveFiles: true } : {}),
    ...(options.lineage ? { lineage: options.lineage } : {}),
    ...(options.seed ? { seed: options.seed } : {}),
    ...(options.hideReplay ? { hideReplay: true } : {}),
    spillDir: join(options.dataDir, 'tmp'),
  });
  options.onSession?.(session);
  try {
    const init = await connection.initialize();
    options.onInitialized?.(init);
    if (options.mcpServerSettings?.length) {
      // Only what the agent can take: stdio always, http/sse when advertised; the rest is said.
      const { send, skipped } = selectMcpServers(options.mcpServerSettings, init.agentCapabilities?.mcpCapabilities, { env: launch.env });
      session.options.mcpServers = [...(options.mcpServers ?? []), ...send];
      for (const s of skipped) connection.notice('info', `MCP server "${s.name}" (${s.transport}) was not sent to ${launch.label}: ${s.reason}`, session.id);
    }
    if (options.authenticate) await authenticateFirst(connection, options.authenticate);
    if (options.openWith) await options.openWith(session, init);
    else await session.open(options.open?.how ?? 'new', options.open?.agentSessionId);
    return session;
  } catch (err) {
    await connection.close();
    throw err;
  }
}

/** A failed `authenticate` is still "log in first": the error keeps the methods so the user can pick again. */
async function authenticateFirst(connection: AgentConnection, methodId: string): Promise<void> {
  try {
    await connection.authenticate(methodId);
  } catch (err) {
    const methods = authMethodsOf(connection.init);
    const why = err instanceof Error && !('code' in err) ? err.message : describeRpcError(err);
    throw new SessionError(`${connection.label}: logging in with "${methodId}" failed: ${why}. Authentication methods: ${describeAuthMethods(methods)}`, 'auth_required', methods);
  }
}
