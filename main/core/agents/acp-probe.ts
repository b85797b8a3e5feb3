/**
 * The doctor's probe over a real ACP connection: start the agent, send `initialize`, try a
 * `session/new` in a scratch folder to learn whether it needs a login, stop it. What it did is
 * recorded as a trace in the data folder like any connection.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentConnection } from '../acp/agent-connection';
import { describeRpcError } from '../acp/agent-start-error';
import { terminalLoginCommand } from './auth/terminal-login';
import type { Probe, ProbeResult } from './doctor';

const AUTH_REQUIRED = -32000;

export function acpProbe(dataDir: string, options: { timeoutMs?: number } = {}): Probe {
  return async (launch): Promise<ProbeResult> => {
    const scratch = await mkdtemp(join(tmpdir(), 'acpwb-doctor-'));
    let conn: AgentConnection | undefined;
    try {
      conn = await AgentConnection.start({
        command: launch.command,
        args: launch.args,
        cwd: launch.cwd,
        env: launch.env,
        agent: { id: launch.agentId, name: launch.agentName, label: launch.agentName },
        dataDir,
        host: 'doctor',
        startupTimeoutMs: options.timeoutMs ?? 20_000,
        // Agents list their terminal logins only to clients that can run one (Claude does): the
        // doctor runs none, but names them with the command to type.
        switches: { terminalAuth: true },
      });
      const init = await conn.initialize();
      const authMethods = (init.authMethods ?? []).map((m) => {
        const method = m as { id: string; name: string; type?: string; description?: string | null };
        const login = terminalLoginCommand(launch, m, scratch);
        return {
          id: method.id,
          name: method.name,
          ...(method.type ? { type: method.type } : {}),
          ...(method.description ? { description: method.description } : {}),
          ...(login ? { loginCommand: login.display } : {}),
        };
      });
      let authRequired = false;
      try {
        await conn.request('session/new', { cwd: scratch, mcpServers: [] });
      } catch (err) {
        if ((err as { code?: number }).code === AUTH_REQUIRED) authRequired = true;
        else return { initialized: true, authMethods, error: `session/new failed: ${describeRpcError(err)}` };
      }
      return { initialized: true, authMethods, authRequired };
    } catch (err) {
      return { initialized: false, authMethods: [], error: err instanceof Error ? err.message : String(err) };
    } finally {
      await conn?.close();
      await rm(scratch, { recursive: true, force: true });
    }
  };
}
